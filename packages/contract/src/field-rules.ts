import type { FieldDefinition, FieldValue } from './schemas/field.js';

export interface FieldDefinitionIssue {
  /** Path of the offending member, such as `fields[2].width`. */
  field: string;
  reason: string;
}

/**
 * The rules a document's field definitions must keep beyond their shape (SPEC §4): on an existing page,
 * inside the page, non-empty, unique ids, a prefill of the field's own type.
 * @example fieldDefinitionIssues(fields, 3) // [] when every field is valid
 */
export function fieldDefinitionIssues(fields: readonly FieldDefinition[], pageCount: number): FieldDefinitionIssue[] {
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
  });
  return issues;
}

/**
 * Whether `content` is a real calendar date written `YYYY-MM-DD`.
 * @example isIsoDate('2024-02-29') // true; isIsoDate('2023-02-29') // false
 */
export function isIsoDate(content: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(content);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Whether a value counts as filled in: non-blank text, a date, an image, a ticked box (SPEC §6).
 * @example hasValue({ type: 'text', content: '  ' }) // false
 */
export function hasValue(value: FieldValue | undefined): boolean {
  if (!value) return false;
  switch (value.type) {
    case 'text':
    case 'date':
      return value.content.trim().length > 0;
    case 'signature':
    case 'initials':
      return value.imageData.length > 'data:image/png;base64,'.length;
    case 'checkbox':
      return value.checked;
  }
}
