import type { FieldDefinition, FieldType, FieldValidation, FieldValue } from '@signet/contract';
import { ID_PATTERN } from './signer-edits.js';

/**
 * The field properties the builder edits beyond label, required, signer and options: the id, the prefill (`value`)
 * and the validation rules, each built so that the contract's `FieldDefinitionSchema` takes it
 * (`property-rules.test.ts` parses the results with it). Plain functions: no zod on an authoring page.
 */

/** Why an id typed for a field is not applied: not of the contract's form, or another field's. */
export function fieldIdProblem(id: string, fields: readonly FieldDefinition[], ownId: string): 'invalid' | 'taken' | null {
  if (!ID_PATTERN.test(id)) return 'invalid';
  return fields.some((field) => field.id === id && field.id !== ownId) ? 'taken' : null;
}

/** The input a field's prefill is typed in: text (text-like types), a date, a checkbox, a choice; none for images. */
export type PrefillKind = 'text' | 'textarea' | 'date' | 'checkbox' | 'choice' | null;

export function prefillKind(type: FieldType): PrefillKind {
  switch (type) {
    case 'text':
    case 'number':
    case 'email':
    case 'phone':
      return 'text';
    case 'textarea':
      return 'textarea';
    case 'date':
      return 'date';
    case 'checkbox':
      return 'checkbox';
    case 'select':
    case 'radio':
      return 'choice';
    case 'signature':
    case 'initials':
    case 'image':
      return null;
  }
}

/** A field's prefill as its input shows it: the text, the date, the chosen option's value, whether it is ticked. */
export function prefillOf(field: FieldDefinition): string | boolean {
  const value = field.value;
  if (!value || value.type !== field.type) return field.type === 'checkbox' ? false : '';
  if ('content' in value) return value.content;
  if ('value' in value) return value.value;
  if ('checked' in value) return value.checked;
  return '';
}

/** `field` prefilled with `input` (text, date, option value, ticked); blank, unticked or unknown: no prefill. */
export function withPrefill(field: FieldDefinition, input: string | boolean): FieldDefinition {
  const kind = prefillKind(field.type);
  let value: FieldValue | undefined;
  if (kind === 'checkbox') value = input === true ? { type: 'checkbox', checked: true } : undefined;
  else if (kind === 'choice') {
    const chosen = typeof input === 'string' && field.options?.some((option) => option.value === input) ? input : '';
    value = chosen ? ({ type: field.type, value: chosen } as FieldValue) : undefined;
  } else if (kind !== null && typeof input === 'string' && input !== '') value = { type: field.type, content: input } as FieldValue;
  if (value) return { ...field, value };
  const { value: _removed, ...rest } = field;
  return rest;
}

export type Rule = keyof FieldValidation;
const NUMBER_RULES: readonly Rule[] = ['min', 'max', 'step'];
const TEXT_RULES: readonly Rule[] = ['minLength', 'maxLength', 'pattern', 'message'];
const TEXT_TYPES: ReadonlySet<FieldType> = new Set(['text', 'email', 'phone', 'textarea']);

/** The validation rules the contract allows on a field of `type` (none on other types). */
export function rulesOf(type: FieldType): readonly Rule[] {
  return type === 'number' ? NUMBER_RULES : TEXT_TYPES.has(type) ? TEXT_RULES : [];
}

/** Why a rule's typed text is not applied: not a number, not a whole number in range, not above 0. */
export type RuleProblem = 'number' | 'whole' | 'positive';

/** The longest `pattern` and `message` (the inputs' `maxLength`). */
export const TEXT_RULE_MAX = { pattern: 500, message: 200 } as const;

/** The bounds of the length rules (the contract's `FieldValidationSchema`). */
export const LENGTH_BOUNDS = { minLength: [0, 10_000], maxLength: [1, 10_000] } as const;

/**
 * A rule's value from what the author typed: a number for `min`, `max`, `step`, a whole number for the lengths, the
 * text for `pattern` and `message`; `undefined` (the rule removed) when blank.
 * @example parseRule('step', '0') // { problem: 'positive' }
 */
export function parseRule(rule: Rule, text: string): { value: number | string | undefined } | { problem: RuleProblem } {
  if (rule === 'pattern' || rule === 'message') {
    return { value: text === '' ? undefined : text.slice(0, TEXT_RULE_MAX[rule]) };
  }
  const trimmed = text.trim();
  if (trimmed === '') return { value: undefined };
  const number = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isFinite(number)) return { problem: 'number' };
  if (rule === 'minLength' || rule === 'maxLength') {
    const [min, max] = LENGTH_BOUNDS[rule];
    return Number.isInteger(number) && number >= min && number <= max ? { value: number } : { problem: 'whole' };
  }
  if (rule === 'step' && number <= 0) return { problem: 'positive' };
  return { value: number };
}

/** `field` with `rule` set to `value`, or removed when `undefined` (a pattern's message goes with the pattern). */
export function withRule(field: FieldDefinition, rule: Rule, value: number | string | undefined): FieldDefinition {
  const validation: Record<string, unknown> = { ...field.validation };
  if (value === undefined) {
    delete validation[rule];
    if (rule === 'pattern') delete validation.message;
  } else validation[rule] = value;
  const { validation: _old, ...rest } = field;
  return Object.keys(validation).length > 0 ? { ...rest, validation: validation as FieldValidation } : rest;
}

/** A rule's value as its input shows it. */
export const ruleText = (field: FieldDefinition, rule: Rule) => {
  const value = field.validation?.[rule];
  return value === undefined ? '' : String(value);
};

/** The font sizes the contract takes, in points. */
export const FONT_SIZE_BOUNDS = [4, 72] as const;

/**
 * A font size as typed: blank is none (the size follows the field's height), a number of points within
 * `FONT_SIZE_BOUNDS` (halves kept) is applied, anything else is a problem and not applied.
 * @example parseFontSize('9.5') // { value: 9.5 }
 */
export function parseFontSize(text: string): { value: number | undefined } | { problem: 'range' } {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { value: undefined };
  const size = Number(trimmed);
  const [min, max] = FONT_SIZE_BOUNDS;
  if (!/^\d+(\.\d+)?$/.test(trimmed) || !(size >= min && size <= max)) return { problem: 'range' };
  return { value: Math.round(size * 2) / 2 };
}

/** `field` with `size` as its font size, or without one. */
export function withFontSize(field: FieldDefinition, size: number | undefined): FieldDefinition {
  if (size === undefined) {
    const { fontSize: _removed, ...rest } = field;
    return rest as FieldDefinition;
  }
  return { ...field, fontSize: size };
}
