import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { FieldIdSchema, FieldTypeSchema, FieldValueSchema, TextStyleSchema } from './field.js';
import { TimestampSchema } from './timestamp.js';

export const RenderContextSchema = z
  .strictObject({
    scale: z.number().positive(),
    viewportWidth: z.number().nonnegative(),
    viewportHeight: z.number().nonnegative(),
    devicePixelRatio: z.number().positive(),
  })
  .meta({ id: 'RenderContext' });
export type RenderContext = z.infer<typeof RenderContextSchema>;

export const PageInfoSchema = z
  .strictObject({
    pageNumber: z.number().int().min(1),
    width: z.number().positive(),
    height: z.number().positive(),
    rotation: z.number().multipleOf(90, 'must be a multiple of 90'),
  })
  .meta({ id: 'PageInfo' });
export type PageInfo = z.infer<typeof PageInfoSchema>;

export const FieldPositionSchema = z
  .strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .meta({ id: 'FieldPosition' });
export type FieldPosition = z.infer<typeof FieldPositionSchema>;

export const SubmittedFieldSchema = z
  .strictObject({
    id: FieldIdSchema,
    type: FieldTypeSchema,
    page: z.number().int().min(1),
    position: FieldPositionSchema,
    value: FieldValueSchema,
    style: TextStyleSchema.optional(),
  })
  .meta({ id: 'SubmittedField' });
export type SubmittedField = z.infer<typeof SubmittedFieldSchema>;

/**
 * Request body of `POST /sdk/documents/submit` (docs/api.md, "Submit"). Strict, down to every nested object: a member not
 * listed is refused with a 400 naming it (docs/decisions.md); the checksum covers the payload as sent.
 */
export const SubmissionPayloadSchema = z
  .strictObject({
    documentId: idSchema('doc'),
    // A TimestampSchema, checked with the document rules (submissionIssues) so that a bad one is the 422 naming
    // submittedAt that docs/api.md ("Submit") lists, not the shape's 400.
    submittedAt: z.string().meta({
      format: 'date-time',
      description: 'ISO 8601 with a time zone, at most 5 minutes ahead of the server; otherwise 422 VALIDATION_ERROR',
    }),
    renderContext: RenderContextSchema,
    pages: z.array(PageInfoSchema).max(10_000),
    fields: z.array(SubmittedFieldSchema).max(500),
    checksum: z.string(),
  })
  .meta({ id: 'SubmissionPayload' });
export type SubmissionPayload = z.infer<typeof SubmissionPayloadSchema>;
export type UnsignedSubmissionPayload = Omit<SubmissionPayload, 'checksum'>;

/** Response of `POST /sdk/documents/submit` (docs/api.md, "Submit"), sent without the envelope. */
export const SubmissionResultSchema = z
  .object({
    success: z.literal(true),
    submissionId: idSchema('sub'),
    documentId: idSchema('doc'),
    timestamp: TimestampSchema,
    message: z.string(),
  })
  .meta({ id: 'SubmissionResult' });
export type SubmissionResult = z.infer<typeof SubmissionResultSchema>;

/** A stored submission, as `GET /documents/{id}/submission` returns it. */
export const SubmissionRecordSchema = z
  .object({
    id: idSchema('sub'),
    documentId: idSchema('doc'),
    signerId: FieldIdSchema.optional().meta({ description: 'The signer who submitted it, on a document with signers' }),
    keyId: idSchema('key'),
    checksum: z.string(),
    submittedAt: TimestampSchema,
    receivedAt: TimestampSchema,
    clientIp: z.string().nullable(),
    userAgent: z.string().nullable(),
    renderContext: RenderContextSchema,
    pages: z.array(PageInfoSchema),
    fields: z.array(SubmittedFieldSchema),
  })
  .meta({ id: 'SubmissionRecord' });
export type SubmissionRecord = z.infer<typeof SubmissionRecordSchema>;
