import { z } from '../zod.js';

/**
 * The field types (docs/api.md, "Fields"): `text`, `signature`, `initials`, `date` and `checkbox`, and
 * the types forms need (`number`, `email`, `phone`, `textarea`, `select`, `radio`, `image`).
 */
export const FIELD_TYPES = [
  'text',
  'signature',
  'initials',
  'date',
  'checkbox',
  'number',
  'email',
  'phone',
  'textarea',
  'select',
  'radio',
  'image',
] as const;
export const FieldTypeSchema = z.enum(FIELD_TYPES);
export type FieldType = z.infer<typeof FieldTypeSchema>;

/** Field ids are chosen by whoever defines the document: short, URL-safe. */
export const FieldIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1 to 64 letters, digits or _ . : -');

const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;
const ImageDataSchema = z.string().regex(PNG_DATA_URL, 'must be a data URL of a base64-encoded PNG');
const PHOTO_DATA_URL = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/;
const PhotoDataSchema = z.string().regex(PHOTO_DATA_URL, 'must be a data URL of a base64-encoded PNG or JPEG');

export const TextValueSchema = z.strictObject({ type: z.literal('text'), content: z.string() });
export const SignatureValueSchema = z.strictObject({ type: z.literal('signature'), imageData: ImageDataSchema });
export const InitialsValueSchema = z.strictObject({ type: z.literal('initials'), imageData: ImageDataSchema });
export const DateValueSchema = z.strictObject({ type: z.literal('date'), content: z.string() });
export const CheckboxValueSchema = z.strictObject({ type: z.literal('checkbox'), checked: z.boolean() });
/** A number as the signer wrote it, in decimal (`-12.5`): exact digits, no binary rounding; blank is no value. */
export const NumberValueSchema = z.strictObject({
  type: z.literal('number'),
  content: z.string().meta({ description: 'A decimal number such as `42` or `-0.5`, or blank' }),
});
export const EmailValueSchema = z.strictObject({ type: z.literal('email'), content: z.string() });
export const PhoneValueSchema = z.strictObject({ type: z.literal('phone'), content: z.string() });
/** Multi-line text: line breaks are `\n`. */
export const TextareaValueSchema = z.strictObject({ type: z.literal('textarea'), content: z.string() });
/** The chosen option's `value`, or blank. */
export const SelectValueSchema = z.strictObject({ type: z.literal('select'), value: z.string() });
/** The chosen option's `value` of the group, or blank. */
export const RadioValueSchema = z.strictObject({ type: z.literal('radio'), value: z.string() });
/** A photo or scan: PNG or JPEG, at most `SUBMISSION_LIMITS.maxImageBytes` decoded. */
export const ImageValueSchema = z.strictObject({ type: z.literal('image'), imageData: PhotoDataSchema });

/** A field's value, by type (docs/api.md, "Fields"). */
export const FieldValueSchema = z
  .discriminatedUnion('type', [
    TextValueSchema,
    SignatureValueSchema,
    InitialsValueSchema,
    DateValueSchema,
    CheckboxValueSchema,
    NumberValueSchema,
    EmailValueSchema,
    PhoneValueSchema,
    TextareaValueSchema,
    SelectValueSchema,
    RadioValueSchema,
    ImageValueSchema,
  ])
  .meta({ id: 'FieldValue' });
export type FieldValue = z.infer<typeof FieldValueSchema>;
export type FieldValueOf<T extends FieldType> = Extract<FieldValue, { type: T }>;

export const TextStyleSchema = z
  .strictObject({
    fontSize: z.number().positive(),
    fontFamily: z.string().min(1),
    textAlign: z.enum(['left', 'center', 'right']),
  })
  .meta({ id: 'TextStyle' });
export type TextStyle = z.infer<typeof TextStyleSchema>;

const fraction = z.number().min(0).max(1);

/** One choice of a `select` or `radio` field: the `value` submitted, and the `label` the signer reads. */
export const FieldOptionSchema = z
  .strictObject({ value: z.string().min(1).max(200), label: z.string().min(1).max(200) })
  .meta({ id: 'FieldOption' });
export type FieldOption = z.infer<typeof FieldOptionSchema>;

/**
 * Optional rules of a field's value, checked by the viewer before submitting and by the server (422 naming the
 * field): `min`, `max` and `step` for a `number` field; `minLength`, `maxLength` and `pattern` (a JavaScript regular
 * expression the whole value must match, as HTML's `pattern`) for `text`, `email`, `phone` and `textarea`;
 * `message`, what the signer is told when `pattern` does not match.
 */
export const FieldValidationSchema = z
  .strictObject({
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().positive().optional(),
    minLength: z.number().int().min(0).max(10_000).optional(),
    maxLength: z.number().int().min(1).max(10_000).optional(),
    pattern: z.string().min(1).max(500).optional(),
    message: z.string().min(1).max(200).optional(),
  })
  .meta({ id: 'FieldValidation' });
export type FieldValidation = z.infer<typeof FieldValidationSchema>;

/**
 * A predefined field of a document (docs/api.md, "Fields"); `value` is an optional prefill. Strict, as every
 * object of a request: a member not listed here (`requried`, `min` beside `validation`) is refused with a 400
 * naming it, never dropped (docs/decisions.md).
 */
export const FieldDefinitionSchema = z
  .strictObject({
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
    options: z.array(FieldOptionSchema).min(1).max(50).optional().meta({
      description: 'The choices of a `select` or `radio` field (required there, refused on other types)',
    }),
    validation: FieldValidationSchema.optional(),
    fontSize: z.number().min(4).max(72).optional().meta({
      description:
        'The size, in points, the value is written in on the page and in the sealed PDF (text, date, number, email, phone, textarea, select, radio; refused on other types). Default: from the field\'s height',
    }),
    signerId: FieldIdSchema.optional().meta({
      description: 'The signer who fills this field in, one of the document\'s `signers`; absent on a document without signers',
    }),
  })
  .meta({ id: 'FieldDefinition' });
export type FieldDefinition = z.infer<typeof FieldDefinitionSchema>;
