import { SUBMISSION_LIMITS, type FieldDefinition, type FieldValue } from '@signet/contract';
import type { CSSProperties } from 'react';
import type { ViewerMessages } from '../i18n/messages.js';
import { DataUrlImage } from '../signature/DataUrlImage.js';
import { DateInput } from './DateInput.js';
import { TEXT_FONT, textStyle } from './field-geometry.js';
import { PhotoInput } from './PhotoInput.js';
import { RadioGroup } from './RadioGroup.js';
import { fitText } from './text-limit.js';

/** What the browser is told of each kind of typed text: the keyboard a phone shows, and what it may fill in. */
const INPUT_KIND = {
  text: { type: 'text', autoComplete: 'off' },
  number: { type: 'text', inputMode: 'decimal', autoComplete: 'off' },
  email: { type: 'email', inputMode: 'email', autoComplete: 'email' },
  phone: { type: 'tel', inputMode: 'tel', autoComplete: 'tel' },
} as const;

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
 * The control of one field's type: a text, number, email, phone, date or multi-line input, a select, a radio group,
 * a checkbox, a photo input, or a button that opens the signature dialog.
 * Its accessible name is the field's label. The page's field and the phone's step panel both render it, so a value
 * entered in one is the other's too.
 */
export function FieldInput(props: FieldInputProps) {
  const { field, value, invalid, readOnly, pageHeight, cssScale, messages, onChange, onSign, describedBy } = props;
  // Required and invalid travel as states where ARIA allows them (inputs) and as a description everywhere,
  // since a button may carry neither aria-required nor aria-invalid.
  const common = { 'data-signet-field': field.id, 'aria-label': field.label, 'aria-describedby': describedBy };
  const states = { ...common, 'aria-required': field.required || undefined, 'aria-invalid': invalid || undefined };
  // Over the page, text is sized like the PDF's; the step panel's inputs keep their own 16 px.
  const onPage = props.variant !== 'panel';
  const pdfFontSize = `${textStyle(field, pageHeight).fontSize * cssScale}px`;
  switch (field.type) {
    case 'date': {
      const content = value?.type === 'date' ? value.content : '';
      return (
        <DateInput
          {...states}
          className="signet-input"
          style={onPage ? { fontSize: pdfFontSize } : undefined}
          value={content}
          readOnly={readOnly}
          onChange={(iso) => onChange({ type: 'date', content: iso })}
        />
      );
    }
    case 'text':
    case 'number':
    case 'email':
    case 'phone':
    case 'textarea': {
      // All hold `content` as typed: a number keeps its digits (no binary rounding), an email or phone its spelling.
      const type = field.type;
      const content = value?.type === type ? value.content : '';
      const style: CSSProperties = onPage ? { fontSize: pdfFontSize, fontFamily: TEXT_FONT.css } : {};
      const input = {
        ...states,
        className: type === 'textarea' ? 'signet-input signet-textarea' : 'signet-input',
        style,
        value: content,
        placeholder: field.placeholder,
        readOnly,
        maxLength: field.validation?.maxLength,
        onChange: (event: { target: { value: string } }) => {
          onChange({ type, content: fitText(content, event.target.value, SUBMISSION_LIMITS.maxTextLength) });
        },
      };
      if (type === 'textarea') return <textarea {...input} />;
      return <input {...input} {...INPUT_KIND[type]} />;
    }
    case 'select': {
      const chosen = value?.type === 'select' ? value.value : '';
      return (
        <select
          {...states}
          className="signet-input signet-select"
          style={onPage ? { fontSize: pdfFontSize } : undefined}
          value={chosen}
          disabled={readOnly}
          onChange={(event) => onChange({ type: 'select', value: event.target.value })}
        >
          <option value="">{messages.chooseOption}</option>
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
    }
    case 'radio': {
      const rows = Math.max(1, field.options?.length ?? 1);
      const fontSize = textStyle({ height: field.height / rows, fontSize: field.fontSize }, pageHeight).fontSize * cssScale;
      return (
        <RadioGroup
          field={field}
          chosen={value?.type === 'radio' ? value.value : ''}
          readOnly={readOnly}
          attributes={states}
          style={onPage ? { fontSize: `${fontSize}px` } : undefined}
          onChange={onChange}
        />
      );
    }
    case 'image':
      return (
        <PhotoInput
          field={field}
          imageData={value?.type === 'image' ? value.imageData : undefined}
          readOnly={readOnly}
          messages={messages}
          attributes={states}
          onChange={onChange}
        />
      );
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
