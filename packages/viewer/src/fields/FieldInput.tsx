import { SUBMISSION_LIMITS, type FieldDefinition, type FieldValue } from '@signet/contract';
import type { CSSProperties } from 'react';
import type { ViewerMessages } from '../i18n/messages.js';
import { DataUrlImage } from '../signature/DataUrlImage.js';
import { TEXT_FONT, textStyle } from './field-geometry.js';
import { fitText } from './text-limit.js';

export interface FieldInputProps {
  field: FieldDefinition;
  value: FieldValue | undefined;
  invalid: boolean;
  readOnly: boolean;
  /** The page's height in PDF points and its CSS pixels per point, to size text like the PDF. */
  pageHeight: number;
  cssScale: number;
  messages: ViewerMessages;
  /** The id of the text that describes the field's state (required, needs attention), if any. */
  describedBy: string | undefined;
  /**
   * Where the input is: over the page, sized like the PDF's text (default), or in the phone's step panel, full size
   * with 16 px text so that iOS does not zoom.
   */
  variant?: 'page' | 'panel';
  onChange(value: FieldValue): void;
  /** A signature or initials field asks for the dialog. */
  onSign(field: FieldDefinition, trigger: HTMLButtonElement): void;
}

/**
 * The control of one field's type: a text or date input, a checkbox, or a button that opens the signature dialog.
 * Its accessible name is the field's label. The page's field and the phone's step panel both render it, so a value
 * entered in one is the other's too.
 */
export function FieldInput(props: FieldInputProps) {
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
      const style: CSSProperties = props.variant === 'panel' ? {} : { fontSize: `${textStyle(field, pageHeight).fontSize * cssScale}px` };
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
