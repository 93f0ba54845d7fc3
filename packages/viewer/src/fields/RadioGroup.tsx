import type { FieldDefinition, FieldValue } from '@signet/contract';
import { useId, type CSSProperties } from 'react';

export interface RadioGroupProps {
  field: FieldDefinition;
  chosen: string;
  readOnly: boolean;
  attributes: Record<string, unknown>;
  /** The labels' size over the page (none in the step panel). */
  style?: CSSProperties;
  onChange(value: FieldValue): void;
}

/**
 * A radio field: one value for the group, its options in rows of equal height filling the field's box, top to
 * bottom (as the sealed PDF draws them). Arrow keys move between the options, as the browser's own radios do.
 * @example <RadioGroup field={field} chosen="monthly" readOnly={false} attributes={{ 'aria-label': 'Billing' }} … />
 */
export function RadioGroup({ field, chosen, readOnly, attributes, style, onChange }: RadioGroupProps) {
  // The browser groups radios by name: one per group and viewer.
  const name = useId();
  const { 'data-signet-field': fieldId, ...group } = attributes;
  const options = field.options ?? [];
  return (
    <div {...group} role="radiogroup" className="signet-radio-group" style={style}>
      {options.map((option, index) => (
        <label key={option.value} className="signet-radio">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={chosen === option.value}
            disabled={readOnly}
            // The group is reached (and focused by Next) at its chosen option, or its first.
            data-signet-field={chosen === option.value || (chosen === '' && index === 0) ? fieldId : undefined}
            onChange={() => onChange({ type: 'radio', value: option.value })}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
