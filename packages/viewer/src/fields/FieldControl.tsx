import { SUBMISSION_LIMITS, hasValue, type FieldDefinition, type FieldValue } from '@signet/contract';
import { DataUrlImage } from '../signature/DataUrlImage.js';
import type { CSSProperties } from 'react';
import { format, type ViewerMessages } from '../i18n/messages.js';
import { TEXT_FONT, fieldBox, textStyle } from './field-geometry.js';
import { fitText } from './text-limit.js';

export interface FieldControlProps {
  field: FieldDefinition;
  value: FieldValue | undefined;
  invalid: boolean;
  /** The signer cannot change it: a non-editable field, or a completed document. */
  readOnly: boolean;
  /** Another signer's field (several signers): that signer's name; it is read-only, with their value once they signed. */
  owner?: string;
  /** Unique per viewer, for ids. */
  idPrefix: string;
  /** The page's height in PDF points and its CSS pixels per point, to size text like the PDF. */
  pageHeight: number;
  cssScale: number;
  messages: ViewerMessages;
  onChange(value: FieldValue): void;
  /** A signature or initials field asks for the dialog. */
  onSign(field: FieldDefinition, trigger: HTMLButtonElement): void;
}

/**
 * One field over the page, at its fractional position: a text or date input, a checkbox, or a button that opens
 * the signature dialog. Its accessible name is the field's label.
 */
export function FieldControl(props: FieldControlProps) {
  const { field, invalid, readOnly, owner } = props;
  const classes = ['signet-field', `signet-field--${field.type}`];
  if (owner !== undefined && !hasValue(props.value)) {
    // Nothing to show yet: whose it is, in place of a control.
    const text = format(props.messages.toBeSignedBy, { name: owner });
    return (
      <div className={`${classes.join(' ')} signet-field--other`} style={fieldBox(field)} title={`${field.label}: ${text}`}>
        <span className="signet-field-owner" role="note" aria-label={`${field.label}: ${text}`}>
          {text}
        </span>
      </div>
    );
  }
  if (field.required && !readOnly) classes.push('signet-field--required');
  if (hasValue(props.value)) classes.push('signet-field--done');
  if (invalid) classes.push('signet-field--invalid');
  if (readOnly) classes.push('signet-field--readonly');
  const describedBy = `${props.idPrefix}-${field.id}-state`;
  const state = [
    field.required && !readOnly ? props.messages.required : '',
    invalid ? props.messages.invalidField : '',
    owner !== undefined ? format(props.messages.signedBy, { name: owner }) : '',
  ]
    .filter(Boolean)
    .join('. ');
  return (
    <div className={classes.join(' ')} style={fieldBox(field)} title={field.label}>
      <Control {...props} describedBy={state ? describedBy : undefined} />
      {state && (
        <span id={describedBy} className="signet-visually-hidden">
          {state}
        </span>
      )}
    </div>
  );
}

function Control(props: FieldControlProps & { describedBy: string | undefined }) {
  const { field, value, invalid, readOnly, pageHeight, cssScale, messages, onChange, onSign, describedBy } = props;
  // Required and invalid travel as states where ARIA allows them (inputs) and as a description everywhere,
  // since a button may carry neither aria-required nor aria-invalid.
  const common = { 'data-signet-field': field.id, 'aria-label': field.label, 'aria-describedby': describedBy };
  const states = { ...common, 'aria-required': field.required || undefined, 'aria-invalid': invalid || undefined };
  switch (field.type) {
    case 'text':
    case 'date': {
      // Both hold `content`: free text, or an ISO date from the browser's date picker.
      const type = field.type;
      const content = value?.type === type ? value.content : '';
      const style: CSSProperties = { fontSize: `${textStyle(field, pageHeight).fontSize * cssScale}px` };
      if (type === 'text') style.fontFamily = TEXT_FONT.css;
      return (
        <input
          {...states}
          type={type}
          className="signet-input"
          style={style}
          value={content}
          placeholder={type === 'text' ? field.placeholder : undefined}
          readOnly={readOnly}
          autoComplete="off"
          onChange={(event) => {
            const next = event.target.value;
            onChange({ type, content: type === 'text' ? fitText(content, next, SUBMISSION_LIMITS.maxTextLength) : next });
          }}
        />
      );
    }
    case 'checkbox': {
      const checked = value?.type === 'checkbox' && value.checked;
      return (
        <input
          {...states}
          type="checkbox"
          className="signet-checkbox"
          checked={checked}
          disabled={readOnly}
          onChange={(event) => onChange({ type: 'checkbox', checked: event.target.checked })}
        />
      );
    }
    case 'signature':
    case 'initials': {
      const image = value?.type === field.type ? value.imageData : undefined;
      const prompt = field.type === 'signature' ? messages.signHere : messages.initialHere;
      return (
        <button
          {...common}
          type="button"
          className="signet-sign-button"
          disabled={readOnly}
          onClick={(event) => onSign(field, event.currentTarget)}
        >
          {image ? (
            <DataUrlImage src={image} className="signet-sign-image" />
          ) : (
            <span className="signet-sign-prompt">
              <span className="signet-sign-icon" aria-hidden="true">
                ✎
              </span>
              <span className="signet-sign-text">{prompt}</span>
            </span>
          )}
        </button>
      );
    }
  }
}
