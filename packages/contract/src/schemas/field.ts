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
    signerId: FieldIdSchema.optional().meta({
      description: 'The signer who fills this field in, one of the document\'s `signers`; absent on a document without signers',
    }),
  })
  .meta({ id: 'FieldDefinition' });
export type FieldDefinition = z.infer<typeof FieldDefinitionSchema>;
