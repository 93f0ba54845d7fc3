import type { FieldDefinition, FieldOption } from '@signet/contract';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { inPoints, isChoice, type PageSize } from './field-edits.js';
import { fill, typeName, type BuilderMessages } from './messages.js';
import { TYPE_GLYPHS } from './Palette.js';

// The id, read-only, prefill and rule editors: a chunk of their own (the builder's startup bundle is at its budget).
const editors = () => import('./FieldProperties.js');
const FieldIdInput = lazy(() => editors().then((module) => ({ default: module.FieldIdInput })));
const FieldExtras = lazy(() => editors().then((module) => ({ default: module.FieldExtras })));

export interface PropertiesPanelProps {
  field: FieldDefinition | undefined;
  size: PageSize | undefined;
  messages: BuilderMessages;
  readOnly: boolean;
  signers: ReadonlyArray<{ id: string; name: string }>;
  /** Every field of the draft: a field's id must be its own. */
  fields: readonly FieldDefinition[];
  /** A change of the field; `merge` names edits that are one step of undo when they follow each other (typing). */
  onChange(field: FieldDefinition, merge?: string): void;
  /** The field with a new id (`previousId` the one it had); `merge` as in `onChange`. */
  onRename(previousId: string, field: FieldDefinition, merge?: string): void;
  onDelete(field: FieldDefinition): void;
  /** The selection's actions (`SelectionActions`), shown at the top. */
  actions?: ReactNode;
  /** Several fields are selected: only `actions` is shown. */
  several?: boolean;
}

/** One option per line, as the author types them: each line's text is the option's label and its value. */
function optionsFromText(text: string): FieldOption[] | undefined {
  const labels = [...new Set(text.split('\n').map((line) => line.trim()).filter(Boolean))].slice(0, 50);
  return labels.length > 0 ? labels.map((label) => ({ value: label.slice(0, 200), label: label.slice(0, 200) })) : undefined;
}

/** A choice field's prefill stays only while it is one of its options (sending refuses it otherwise). */
function keepPrefill(field: FieldDefinition): FieldDefinition {
  const value = field.value;
  if (!value || !('value' in value) || field.options?.some((option) => option.value === value.value)) return field;
  const { value: _removed, ...rest } = field;
  return rest as FieldDefinition;
}

/**
 * The selected field's properties: id, label, required, read-only, prefill, rules, signer, a choice field's options,
 * where it is; and delete.
 */
export function PropertiesPanel({ field, size, messages, readOnly, signers, fields, onChange, onRename, onDelete, actions, several }: PropertiesPanelProps) {
  // The options' text as typed (blank lines and all), kept while the same field is selected.
  const [optionsText, setOptionsText] = useState('');
  const fieldId = field?.id;
  const options = field?.options;
  useEffect(() => {
    // Another field, or its options changed from outside (undo): its options' text; not while they are typed.
    const written = options?.map((option) => option.label).join('\n') ?? '';
    setOptionsText((typed) => (optionsFromText(typed)?.map((option) => option.label).join('\n') ?? '') === written ? typed : written);
  }, [fieldId, options]);

  if (!field || several) {
    return (
      <section className="signet-builder-side signet-builder-properties" aria-labelledby="signet-properties-heading">
        <h2 className="signet-builder-heading" id="signet-properties-heading">
          {messages.properties}
        </h2>
        {actions}
        {several ? null : <p className="signet-builder-hint">{messages.noSelection}</p>}
      </section>
    );
  }
  const place = size ? inPoints(field, size) : null;
  const without = <K extends keyof FieldDefinition>(key: K) => {
    const { [key]: _removed, ...rest } = field;
    return rest as FieldDefinition;
  };
  return (
    <section className="signet-builder-side signet-builder-properties" aria-labelledby="signet-properties-heading">
      <h2 className="signet-builder-heading" id="signet-properties-heading">
        {messages.properties}
      </h2>
      {actions}
      <p className="signet-builder-type">
        <span className="signet-palette-icon" aria-hidden="true">
          {TYPE_GLYPHS[field.type]}
        </span>
        {typeName(messages, field.type)}
      </p>
      <Suspense fallback={null}>
        <FieldIdInput field={field} fields={fields} messages={messages} readOnly={readOnly} onRename={onRename} />
      </Suspense>
      <label className="signet-builder-label">
        {messages.label}
        <input
          type="text"
          value={field.label}
          maxLength={200}
          disabled={readOnly}
          onChange={(event) => onChange({ ...field, label: event.target.value }, `label:${field.id}`)}
        />
      </label>
      <label className="signet-builder-check">
        <input type="checkbox" checked={field.required} disabled={readOnly} onChange={(event) => onChange({ ...field, required: event.target.checked })} />
        {messages.required}
      </label>
      <Suspense fallback={null}>
        <FieldExtras field={field} messages={messages} readOnly={readOnly} onChange={onChange} />
      </Suspense>
      {signers.length > 0 ? (
        <label className="signet-builder-label">
          {messages.signer}
          <select value={field.signerId ?? ''} disabled={readOnly} onChange={(event) => onChange({ ...field, signerId: event.target.value })}>
            {field.signerId === undefined ? <option value="" /> : null}
            {signers.map((signer) => (
              <option key={signer.id} value={signer.id}>
                {signer.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {isChoice(field.type) ? (
        <label className="signet-builder-label">
          {messages.options}
          <textarea
            value={optionsText}
            disabled={readOnly}
            onChange={(event) => {
              setOptionsText(event.target.value);
              const options = optionsFromText(event.target.value);
              onChange(keepPrefill(options ? { ...field, options } : without('options')), `options:${field.id}`);
            }}
          />
        </label>
      ) : null}
      {place ? (
        <p className="signet-builder-meta">{fill(messages.fieldPlace, { page: field.page, ...place })}</p>
      ) : null}
      <div>
        <button type="button" className="signet-button signet-button--danger" disabled={readOnly} onClick={() => onDelete(field)} aria-keyshortcuts="Delete Backspace">
          {messages.deleteField}
        </button>
      </div>
    </section>
  );
}
