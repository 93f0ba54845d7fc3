import { fieldValueProblem, hasValue, type FieldDefinition, type FieldValue } from '@signet/contract';
import { useState } from 'react';
import { format, type ViewerMessages } from '../i18n/messages.js';
import { fieldBox } from './field-geometry.js';
import { FieldInput } from './FieldInput.js';
import { problemMessage } from './problem-message.js';
import { useTranslator } from '../i18n/LocaleContext.js';

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
 * One field over the page, at its fractional position, with its control (`FieldInput`) and, once the signer left
 * it, what its value breaks of the field's rules, said under it and in its description. Its accessible name is the
 * field's label.
 */
export function FieldControl(props: FieldControlProps) {
  const { field, invalid, readOnly, owner } = props;
  const [touched, setTouched] = useState(false);
  const t = useTranslator();
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
  // A value that breaks the field's rules (an email without a domain, a number above its max) is pointed out once
  // the signer leaves the field, or when a submission named it: not while they are still typing.
  const problem = !readOnly && props.value ? fieldValueProblem(field, props.value) : null;
  const message = problem && (touched || invalid) ? problemMessage(problem, field, t) : null;
  const flagged = invalid || message !== null;
  if (field.required && !readOnly) classes.push('signet-field--required');
  if (hasValue(props.value) && !problem) classes.push('signet-field--done');
  if (flagged) classes.push('signet-field--invalid');
  if (readOnly) classes.push('signet-field--readonly');
  const describedBy = `${props.idPrefix}-${field.id}-state`;
  const state = [
    field.required && !readOnly ? props.messages.required : '',
    message ?? (invalid ? props.messages.invalidField : ''),
    owner !== undefined ? format(props.messages.signedBy, { name: owner }) : '',
  ]
    .filter(Boolean)
    .join('. ');
  return (
    <div className={classes.join(' ')} style={fieldBox(field)} title={field.label} onBlur={() => setTouched(true)}>
      <FieldInput {...props} invalid={flagged} describedBy={state ? describedBy : undefined} />
      {state && (
        <span id={describedBy} className="signet-visually-hidden">
          {state}
        </span>
      )}
      {message && (
        <span className="signet-field-message" aria-hidden="true">
          {message}
        </span>
      )}
    </div>
  );
}
