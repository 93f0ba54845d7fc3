import type { FieldDefinition, FieldValue } from '@signet/contract';
import type { ViewerMessages } from '../i18n/messages.js';
import { FieldControl } from './FieldControl.js';

export interface FieldLayerProps {
  /** This page's fields, in reading order. */
  fields: readonly FieldDefinition[];
  values: Readonly<Record<string, FieldValue | undefined>>;
  invalid: ReadonlySet<string>;
  completed: boolean;
  pageHeight: number;
  cssScale: number;
  messages: ViewerMessages;
  onChange(fieldId: string, value: FieldValue): void;
  onSign(field: FieldDefinition, trigger: HTMLButtonElement): void;
  idPrefix: string;
}

/** A page's fields, laid over its box; DOM order is reading order, so Tab follows the document. */
export function FieldLayer({ fields, values, invalid, completed, onChange, ...shared }: FieldLayerProps) {
  return (
    <div className="signet-field-layer">
      {fields.map((field) => (
        <FieldControl
          key={field.id}
          {...shared}
          field={field}
          value={values[field.id] ?? field.value}
          invalid={invalid.has(field.id)}
          readOnly={completed || !field.editable}
          onChange={(value) => onChange(field.id, value)}
        />
      ))}
    </div>
  );
}
