import { fieldValueProblem, hasValue, type FieldDefinition, type FieldValue } from '@signet/contract';
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
 * One field over the page, at its fractional position, with its control (`FieldInput`) and, when it is invalid,
 * what its value breaks of the field's rules, said under it (while focused or hovered) and in its description. Its accessible name is the
 * field's label.
 */
export function FieldControl(props: FieldControlProps) {
  const { field, invalid, readOnly, owner } = props;
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
  // `invalid`: a value that breaks the field's rules once the signer left the field, or a field a submission named.
  // What it breaks is said under the field while it has the focus or the pointer, and in its description.
  const problem = !readOnly && props.value ? fieldValueProblem(field, props.value) : null;
  const message = problem && invalid ? problemMessage(problem, field, t) : null;
  if (field.required && !readOnly) classes.push('signet-field--required');
  if (hasValue(props.value) && !problem) classes.push('signet-field--done');
  if (invalid) classes.push('signet-field--invalid');
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
    <div className={classes.join(' ')} style={fieldBox(field)} title={field.label} data-signet-field-box={field.id}>
      <FieldInput {...props} describedBy={state ? describedBy : undefined} />
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
