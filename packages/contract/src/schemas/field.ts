import { z } from '../zod.js';

/** The five field types (contract §2.4 shows `text` and `signature`; SPEC §4 adds the rest). */
export const FIELD_TYPES = ['text', 'signature', 'initials', 'date', 'checkbox'] as const;
export const FieldTypeSchema = z.enum(FIELD_TYPES);
export type FieldType = z.infer<typeof FieldTypeSchema>;

/** Field ids are chosen by whoever defines the document: short, URL-safe. */
export const FieldIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1 to 64 letters, digits or _ . : -');

const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;
const ImageDataSchema = z.string().regex(PNG_DATA_URL, 'must be a data URL of a base64-encoded PNG');

export const TextValueSchema = z.object({ type: z.literal('text'), content: z.string() });
export const SignatureValueSchema = z.object({ type: z.literal('signature'), imageData: ImageDataSchema });
export const InitialsValueSchema = z.object({ type: z.literal('initials'), imageData: ImageDataSchema });
export const DateValueSchema = z.object({ type: z.literal('date'), content: z.string() });
export const CheckboxValueSchema = z.object({ type: z.literal('checkbox'), checked: z.boolean() });

/** A field's value, by type (contract §2.5 and SPEC §4). */
export const FieldValueSchema = z
  .discriminatedUnion('type', [
    TextValueSchema,
    SignatureValueSchema,
    InitialsValueSchema,
    DateValueSchema,
    CheckboxValueSchema,
  ])
  .meta({ id: 'FieldValue' });
export type FieldValue = z.infer<typeof FieldValueSchema>;
export type FieldValueOf<T extends FieldType> = Extract<FieldValue, { type: T }>;

export const TextStyleSchema = z
  .object({
    fontSize: z.number().positive(),
    fontFamily: z.string().min(1),
    textAlign: z.enum(['left', 'center', 'right']),
  })
  .meta({ id: 'TextStyle' });
export type TextStyle = z.infer<typeof TextStyleSchema>;

const fraction = z.number().min(0).max(1);

/** A predefined field of a document (contract §2.4); `value` is an optional prefill (SPEC §4). */
export const FieldDefinitionSchema = z
  .object({
    id: FieldIdSchema,
    type: FieldTypeSchema,
    page: z.number().int().min(1),
    x: fraction,
    y: fraction,
    width: fraction,
    height: fraction,
    required: z.boolean(),
    editable: z.boolean(),
    label: z.string().min(1).max(200),
    placeholder: z.string().max(200).optional(),
    value: FieldValueSchema.optional(),
  })
  .meta({ id: 'FieldDefinition' });
export type FieldDefinition = z.infer<typeof FieldDefinitionSchema>;

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
