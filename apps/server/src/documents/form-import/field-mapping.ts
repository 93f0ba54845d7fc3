import {
  FieldDefinitionSchema,
  fieldDefinitionIssues,
  hasValue,
  takesFontSize,
  type FieldDefinition,
  type FieldOption,
  type FieldValue,
} from '@signet/contract';
import type { CheckboxField, DropdownField, FormField, ListBoxField, RadioField, TextField } from '@libpdf/core';
import { unionBox, type FieldBox } from './widget-box.js';

/** A widget annotation of a form field, as @libpdf/core gives it. */
export type Widget = ReturnType<FormField['getWidgets']>[number];

/** Where a widget is shown: its page (1-based) and its box there; `undefined` for one a signer cannot see. */
export type LocateWidget = (widget: Widget) => { page: number; box: FieldBox } | undefined;

/** A field definition before its id is chosen, with the name it comes from. */
export type ImportedField = Omit<FieldDefinition, 'id'> & { name: string };

/** The most options a `select` or `radio` field may have (`FieldDefinitionSchema`). */
const MAX_OPTIONS = 50;
/** The longest option value, option label and field label (`FieldDefinitionSchema`). */
const MAX_TEXT = 200;
/** The longest text a value may hold (docs/decisions.md, "Field types forms need"). */
const MAX_VALUE_LENGTH = 10_000;

/**
 * A form field as a Signet field definition (docs/form-fields.md, "How each kind maps"), or `undefined` for one that
 * is not imported: a push button, a field none of whose widgets a signer can see.
 * @example importedField(form.getTextField('name')!, locate) // { name: 'name', type: 'text', page: 1, x: 0.1, … }
 */
export function importedField(field: FormField, locate: LocateWidget): ImportedField | undefined {
  const placed = field.getWidgets().flatMap((widget) => {
    const place = locate(widget);
    return place ? [{ widget, ...place }] : [];
  });
  if (placed.length === 0) return undefined;
  const [first] = placed as [(typeof placed)[number]];
  const common = {
    name: field.name,
    page: first.page,
    ...first.box,
    required: field.isRequired(),
    editable: !field.isReadOnly(),
    label: labelOf(field),
  };
  const kind = kindOf(field, placed);
  if (!kind) return undefined;
  const definition: ImportedField = { ...common, ...kind };
  const fontSize = fontSizeOf(field.defaultAppearance);
  if (fontSize !== undefined && takesFontSize(definition.type)) definition.fontSize = fontSize;
  // A read-only field the form leaves empty cannot be filled in by the signer: required, it would block the submit.
  if (!definition.editable && !hasValue(definition.value)) definition.required = false;
  return consistent(definition);
}

type Kind = Pick<FieldDefinition, 'type' | 'value' | 'options' | 'validation'> & Partial<FieldBox> & { page?: number };

function kindOf(field: FormField, placed: ReadonlyArray<{ widget: Widget; page: number; box: FieldBox }>): Kind | undefined {
  switch (field.type) {
    case 'text':
      return textKind(field as TextField);
    case 'checkbox': {
      const checkbox = field as CheckboxField;
      // Boxes with different on-values are one choice among several: a radio group in all but name.
      if (checkbox.getOnValues().length > 1) return buttonGroup(checkbox.getValue(), placed, null);
      return { type: 'checkbox', value: { type: 'checkbox', checked: checkbox.isChecked() } };
    }
    case 'radio': {
      const radio = field as RadioField;
      return buttonGroup(radio.getValue() ?? 'Off', placed, exportValues(radio));
    }
    case 'dropdown':
    case 'listbox':
      return choiceKind(field as DropdownField | ListBoxField);
    case 'signature':
      return { type: 'signature' };
    default:
      // Push buttons act (print, reset, submit) and hold nothing a signer fills in; unknown kinds likewise.
      return undefined;
  }
}

function textKind(field: TextField): Kind {
  const type = field.isMultiline ? 'textarea' : 'text';
  const content = field.getValue().slice(0, MAX_VALUE_LENGTH);
  const kind: Kind = { type };
  if (content !== '') kind.value = { type, content };
  const maxLength = field.maxLength;
  if (Number.isInteger(maxLength) && maxLength >= 1 && maxLength <= MAX_VALUE_LENGTH) kind.validation = { maxLength };
  return kind;
}

/**
 * A combo box or list box as a `select` field: its `/Opt` pairs (export value, text shown) become options; a list
 * box that allows several choices keeps its first. More options than a `select` holds: a `text` field with the
 * current choice's text.
 */
function choiceKind(field: DropdownField | ListBoxField): Kind {
  const options = optionList(field.getOptions().map((option) => ({ value: option.value, label: option.display || option.value })));
  const current = field.type === 'listbox' ? (field.getValue()[0] ?? '') : field.getValue();
  const chosen = options.find((option) => option.value === current) ?? options.find((option) => option.label === current);
  if (options.length === 0 || options.length > MAX_OPTIONS) {
    const content = (chosen?.label ?? current).slice(0, MAX_VALUE_LENGTH);
    return { type: 'text', ...(content ? { value: { type: 'text', content } } : {}) };
  }
  return { type: 'select', options, ...(chosen ? { value: { type: 'select', value: chosen.value } } : {}) };
}

/**
 * A radio group (or a group of checkboxes with different on-values) as one `radio` field: its box is the union of
 * its widgets on the page of the first one shown, its options are the widgets' export values, top to bottom as they
 * are placed there (docs/form-fields.md, "Radio groups").
 */
function buttonGroup(
  current: string,
  placed: ReadonlyArray<{ widget: Widget; page: number; box: FieldBox }>,
  exports: readonly string[] | null,
): Kind | undefined {
  const page = placed[0]!.page;
  const onPage = placed.filter((entry) => entry.page === page);
  const ordered = [...onPage].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const states = ordered.flatMap(({ widget }) => {
    const state = widget.getOnValue();
    if (!state) return [];
    // With `/Opt`, a widget's on-state is its index there and the export value is the entry (ISO 32000-1, 12.7.4.2.4).
    const exported = exports && /^\d+$/.test(state) ? (exports[Number(state)] ?? state) : state;
    return [{ state, option: { value: exported, label: exported } }];
  });
  const options = optionList(states.map((entry) => entry.option));
  if (options.length === 0 || options.length > MAX_OPTIONS) return undefined;
  const chosen = states.find((entry) => entry.state === current)?.option.value;
  const box = unionBox(onPage.map((entry) => entry.box));
  return { type: 'radio', page, ...box, options, ...(chosen && options.some((o) => o.value === chosen) ? { value: { type: 'radio', value: chosen } } : {}) };
}

/** A radio group's `/Opt` export values, when it has them. */
function exportValues(radio: RadioField): string[] | null {
  return radio.acroField().has('Opt') ? radio.getExportValues() : null;
}

/** Options a Signet field can hold: values and labels of 1 to 200 characters, each value once. */
function optionList(candidates: readonly FieldOption[]): FieldOption[] {
  const seen = new Set<string>();
  const options: FieldOption[] = [];
  for (const { value, label } of candidates) {
    if (value.length < 1 || value.length > MAX_TEXT || seen.has(value)) continue;
    seen.add(value);
    options.push({ value, label: oneLine(label, MAX_TEXT) || value.slice(0, MAX_TEXT) });
  }
  return options;
}

/** The tooltip (`/TU`), else the field's own name, else its full name: what the signer is told the field is. */
function labelOf(field: FormField): string {
  return oneLine(field.alternateName ?? '', MAX_TEXT) || oneLine(field.partialName, MAX_TEXT) || oneLine(field.name, MAX_TEXT) || 'Field';
}

function oneLine(text: string, max: number): string {
  return Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, max).join('').trim();
}

/** The font size of a default appearance such as `/Helv 9 Tf 0 g`; none for auto-size (0) or out of Signet's 4–72. */
function fontSizeOf(appearance: string | null): number | undefined {
  const match = /(\d+(?:\.\d+)?|\.\d+)\s+Tf/.exec(appearance ?? '');
  const size = match ? Number(match[1]) : NaN;
  return size >= 4 && size <= 72 ? size : undefined;
}

/**
 * The definition the contract accepts: a prefill its own rules refuse (a text longer than the form's `/MaxLen`) is
 * dropped, then rules that still do not hold; a definition that is still refused is not imported.
 */
function consistent(definition: ImportedField): ImportedField | undefined {
  const { name, ...rest } = definition;
  const attempts: Array<Omit<FieldDefinition, 'id'>> = [rest];
  if (rest.value) attempts.push({ ...rest, value: undefined as FieldValue | undefined });
  if (rest.validation) attempts.push({ ...rest, value: undefined, validation: undefined });
  for (const attempt of attempts) {
    const candidate = Object.fromEntries(Object.entries({ id: 'field', ...attempt }).filter(([, value]) => value !== undefined));
    const parsed = FieldDefinitionSchema.safeParse(candidate);
    if (parsed.success && fieldDefinitionIssues([parsed.data], parsed.data.page).length === 0) {
      const { id: _id, ...fields } = parsed.data;
      if (!parsed.data.editable && !hasValue(parsed.data.value)) fields.required = false;
      return { name, ...fields };
    }
  }
  return undefined;
}
