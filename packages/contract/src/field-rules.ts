import { fieldPattern, fieldValueProblem, isTextType } from './field-validation.js';

export { isIsoDate } from './field-validation.js';
import type { FieldDefinition, FieldType, FieldValue, TextStyle } from './schemas/field.js';

export interface FieldDefinitionIssue {
  /** Path of the offending member, such as `fields[2].width`. */
  field: string;
  reason: string;
}

/**
 * The rules a document's field definitions must keep beyond their shape (docs/api.md, "Fields"): on an existing page,
 * inside the page, non-empty, unique ids, a prefill of the field's own type. With `draft`, only those of where a field
 * is and what it is: a draft may hold a field still being set up (a choice without options yet, a `min` above its
 * `max`, a pattern half typed), and sending it checks the rest (`draftProblems`).
 * @example fieldDefinitionIssues(fields, 3) // [] when every field is valid
 */
export function fieldDefinitionIssues(
  fields: readonly FieldDefinition[],
  pageCount: number,
  options: { draft?: boolean } = {},
): FieldDefinitionIssue[] {
  const issues: FieldDefinitionIssue[] = [];
  const seen = new Set<string>();
  fields.forEach((field, index) => {
    const at = (member: string) => `fields[${index}].${member}`;
    if (seen.has(field.id)) issues.push({ field: at('id'), reason: `duplicate field id "${field.id}"` });
    seen.add(field.id);
    if (field.page > pageCount) {
      issues.push({ field: at('page'), reason: `page ${field.page} is past the document's ${pageCount} pages` });
    }
    if (field.width <= 0) issues.push({ field: at('width'), reason: 'must be greater than 0' });
    if (field.height <= 0) issues.push({ field: at('height'), reason: 'must be greater than 0' });
    if (field.x + field.width > 1) issues.push({ field: at('width'), reason: 'x + width must not exceed 1' });
    if (field.y + field.height > 1) issues.push({ field: at('height'), reason: 'y + height must not exceed 1' });
    if (field.value && field.value.type !== field.type) {
      issues.push({ field: at('value.type'), reason: `a ${field.type} field cannot hold a ${field.value.type} value` });
    }
    issues.push(...typeRuleIssues(field, at, !options.draft));
  });
  return issues;
}

const CHOICE_TYPES: ReadonlySet<FieldType> = new Set(['select', 'radio']);
/** The types whose value is written as text on the page, and so take a `fontSize`. */
const FONT_SIZE_TYPES: ReadonlySet<FieldType> = new Set(['text', 'date', 'number', 'email', 'phone', 'textarea', 'select', 'radio']);

/**
 * Whether a field of `type` takes a `fontSize` (its value is written as text).
 * @example takesFontSize('signature') // false
 */
export function takesFontSize(type: FieldType): boolean {
  return FONT_SIZE_TYPES.has(type);
}

/**
 * `style` with the field's own `fontSize`, where its definition sets one: the size the author chose wins over the
 * size a viewer or the sealing derives from the field's height.
 * @example fieldTextStyle({ fontSize: 9 }, { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'left' }).fontSize // 9
 */
export function fieldTextStyle(field: Pick<FieldDefinition, 'fontSize'> | undefined, style: TextStyle): TextStyle {
  return field?.fontSize === undefined ? style : { ...style, fontSize: field.fontSize };
}
const TEXT_RULES = ['minLength', 'maxLength', 'pattern', 'message'] as const;
const NUMBER_RULES = ['min', 'max', 'step'] as const;

/**
 * The rules of a field's `options` and `validation`: which types take them, and (`complete`) that a choice has its
 * options and the rules agree.
 */
function typeRuleIssues(field: FieldDefinition, at: (member: string) => string, complete: boolean): FieldDefinitionIssue[] {
  const issues: FieldDefinitionIssue[] = [];
  const { type, options, validation = {} } = field;
  const allowed: readonly string[] = isTextType(type) ? TEXT_RULES : type === 'number' ? NUMBER_RULES : [];
  if (field.fontSize !== undefined && !FONT_SIZE_TYPES.has(type)) issues.push({ field: at('fontSize'), reason: `a ${type} field takes no fontSize` });
  if (!complete) {
    if (options && !CHOICE_TYPES.has(type)) issues.push({ field: at('options'), reason: `a ${type} field takes no options` });
    for (const rule of Object.keys(validation)) {
      if (!allowed.includes(rule)) issues.push({ field: at(`validation.${rule}`), reason: `a ${type} field takes no ${rule} rule` });
    }
    return issues;
  }
  if (CHOICE_TYPES.has(type)) {
    if (!options) issues.push({ field: at('options'), reason: `a ${type} field needs options` });
    const values = new Set<string>();
    options?.forEach((option, index) => {
      if (values.has(option.value)) issues.push({ field: at(`options[${index}].value`), reason: `duplicate option "${option.value}"` });
      values.add(option.value);
    });
  } else if (options) {
    issues.push({ field: at('options'), reason: `a ${type} field takes no options` });
  }
  for (const rule of Object.keys(validation)) {
    if (!allowed.includes(rule)) issues.push({ field: at(`validation.${rule}`), reason: `a ${type} field takes no ${rule} rule` });
  }
  if (validation.min !== undefined && validation.max !== undefined && validation.min > validation.max) {
    issues.push({ field: at('validation.max'), reason: 'must not be less than min' });
  }
  if (validation.minLength !== undefined && validation.maxLength !== undefined && validation.minLength > validation.maxLength) {
    issues.push({ field: at('validation.maxLength'), reason: 'must not be less than minLength' });
  }
  if (validation.pattern !== undefined && !fieldPattern(validation.pattern)) {
    issues.push({ field: at('validation.pattern'), reason: 'is not a valid regular expression' });
  }
  if (validation.message !== undefined && validation.pattern === undefined) {
    issues.push({ field: at('validation.message'), reason: 'is the message of a pattern, and there is none' });
  }
  // A prefill the signer could not submit unchanged would be a trap.
  const problem = field.value?.type === type ? fieldValueProblem(field, field.value) : null;
  if (problem) issues.push({ field: at(`value.${problem.member}`), reason: problem.reason });
  return issues;
}

/**
 * Whether a value counts as filled in: non-blank text, a date, an image, a ticked box (docs/api.md, "Submit").
 * @example hasValue({ type: 'text', content: '  ' }) // false
 */
export function hasValue(value: FieldValue | undefined): boolean {
  if (!value) return false;
  switch (value.type) {
    case 'text':
    case 'date':
    case 'number':
    case 'email':
    case 'phone':
    case 'textarea':
      return value.content.trim().length > 0;
    case 'select':
    case 'radio':
      return value.value !== '';
    case 'signature':
    case 'initials':
    case 'image':
      return value.imageData.length > value.imageData.indexOf(',') + 1;
    case 'checkbox':
      return value.checked;
  }
}
