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
  /** The name of the signer a field belongs to when it is not this signer's (several signers). */
  ownerOf(field: FieldDefinition): string | undefined;
}

/** A page's fields, laid over its box; DOM order is reading order, so Tab follows the document. */
export function FieldLayer({ fields, values, invalid, completed, onChange, ownerOf, ...shared }: FieldLayerProps) {
  return (
    <div className="signet-field-layer">
      {fields.map((field) => {
        const owner = ownerOf(field);
        return (
          <FieldControl
            key={field.id}
            {...shared}
            field={field}
            owner={owner}
            value={(owner === undefined ? values[field.id] : undefined) ?? field.value}
            invalid={invalid.has(field.id)}
            readOnly={completed || !field.editable || owner !== undefined}
            onChange={(value) => onChange(field.id, value)}
          />
        );
      })}
    </div>
  );
}
