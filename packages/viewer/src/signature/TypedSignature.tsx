import { useEffect, useId } from 'react';
import { fitText } from '../fields/text-limit.js';
import { installHandwritingFont } from './handwriting-font.js';

/** The longest typed signature, in characters (code points): a full name, with room to spare, still legible. */
const MAX_TYPED_LENGTH = 80;

export interface TypedSignatureProps {
  kind: 'signature' | 'initials';
  value: string;
  onChange(value: string): void;
  labels: { typeLabel: string; typePlaceholder: string };
}

/**
 * A text input whose text is previewed in the handwriting font on a signature line. It sits in the dialog's form,
 * so Enter applies.
 * @example
 * <TypedSignature kind="signature" value={name} onChange={setName} labels={labels} />
 */
export function TypedSignature({ kind, value, onChange, labels }: TypedSignatureProps) {
  const inputId = useId();
  useEffect(() => installHandwritingFont(), []);
  const blank = value.trim() === '';

  return (
    <div className="signet-sig-type">
      <label className="signet-sig-label" htmlFor={inputId}>
        {labels.typeLabel}
      </label>
      <input
        id={inputId}
        className="signet-sig-input"
        type="text"
        value={value}
        onChange={(event) => onChange(fitText(value, event.target.value, MAX_TYPED_LENGTH))}
        placeholder={labels.typePlaceholder}
        autoComplete={kind === 'initials' ? 'off' : 'name'}
        autoCapitalize={kind === 'initials' ? 'characters' : 'words'}
        spellCheck={false}
      />
      {/* The input already gives assistive technology the text; the preview is for the eye. */}
      <div className="signet-sig-pad signet-sig-typed-preview" data-kind={kind} aria-hidden="true">
        <span className="signet-sig-typed-text" data-empty={blank || undefined}>
          {blank ? labels.typePlaceholder : value}
        </span>
        <span className="signet-sig-baseline">×</span>
      </div>
    </div>
  );
}
