import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { FieldIdSchema, FieldValueSchema } from './field.js';
import { TimestampSchema } from './timestamp.js';
import { CreateSessionRequestSchema, MAX_SIGNERS } from './signers.js';
import { TemplateSignerSchema } from './templates.js';
import { DeliverySchema, RemindersSchema } from './delivery.js';

/*
 * Bulk creation from a template (docs/templates.md, "Bulk"): one document per row, made by one background job whose
 * progress and per-row results are read back. A row's `key` makes it idempotent for its template.
 */

/** Most rows one bulk request may hold. */
export const BULK_MAX_ROWS = 10_000;
/** Longest row key. */
export const BULK_ROW_KEY_MAX_LENGTH = 255;

/** What names a row for good: the same key for the same template never makes a second document. */
export const BulkRowKeySchema = z.string().min(1).max(BULK_ROW_KEY_MAX_LENGTH);

/** One row: what `POST /templates/{templateId}/documents` takes, with its key. */
export const BulkRowSchema = z
  .strictObject({
    key: BulkRowKeySchema.meta({ description: 'Unique within the request; a key that already made a document of this template makes none again' }),
    signers: z.array(TemplateSignerSchema).min(1).max(MAX_SIGNERS).optional(),
    values: z.record(FieldIdSchema, FieldValueSchema).optional(),
    expiresAt: z.string().optional(),
    draft: z.boolean().optional(),
    delivery: DeliverySchema.optional(),
    reminders: RemindersSchema.optional(),
  })
  .meta({ id: 'BulkRow' });
export type BulkRow = z.infer<typeof BulkRowSchema>;

/** The session keys minted for each signer of each created document: their lifetime and origins. */
export const BulkSessionsSchema = CreateSessionRequestSchema.omit({ signerId: true }).meta({ id: 'BulkSessions' });
export type BulkSessions = z.infer<typeof BulkSessionsSchema>;

/** `POST /templates/{templateId}/bulk` as JSON: the rows (each key once) and the sessions' options. */
export const CreateBulkJobRequestSchema = z
  .strictObject({
    rows: z
      .array(BulkRowSchema)
      .min(1)
      .max(BULK_MAX_ROWS)
      .superRefine((rows, ctx) => {
        const seen = new Map<string, number>();
        rows.forEach((row, index) => {
          const first = seen.get(row.key);
          if (first !== undefined) ctx.addIssue({ code: 'custom', path: [index, 'key'], message: `duplicate key "${row.key}" (also rows[${first}].key)` });
          else seen.set(row.key, index);
        });
      }),
    sessions: BulkSessionsSchema.optional(),
  })
  .meta({ id: 'CreateBulkJobRequest' });
export type CreateBulkJobRequest = z.infer<typeof CreateBulkJobRequestSchema>;

export const BULK_JOB_STATUSES = ['pending', 'running', 'completed'] as const;

/** A bulk job: its template and version, where it stands, and how many rows made a document or failed. */
export const BulkJobSchema = z
  .object({
    id: idSchema('blk'),
    templateId: idSchema('tpl'),
    templateVersion: z.number().int().min(1),
    status: z.enum(BULK_JOB_STATUSES),
    total: z.number().int().min(0),
    created: z.number().int().min(0),
    failed: z.number().int().min(0),
    createdAt: TimestampSchema,
    completedAt: TimestampSchema.optional(),
  })
  .meta({ id: 'BulkJob' });
export type BulkJob = z.infer<typeof BulkJobSchema>;

/** A session key minted for a signer of a document the job made: the `pk_` key itself, shown once. */
export const BulkRowSessionSchema = z
  .object({
    id: idSchema('key'),
    signerId: z.string().optional().meta({ description: 'Absent on a document whose one signer is not named' }),
    key: z.string().regex(/^pk_[A-Za-z0-9]{32,128}$/),
  })
  .meta({ id: 'BulkRowSession' });

/** One row's result. */
export const BulkRowResultSchema = z
  .object({
    index: z.number().int().min(0),
    key: z.string(),
    status: z.enum(['pending', 'created', 'failed']),
    documentId: idSchema('doc').optional(),
    error: z.object({ field: z.string(), reason: z.string() }).optional(),
    sessions: z.array(BulkRowSessionSchema).optional().meta({
      description: 'Only for the key that started the job, and only the first time the row is read (docs/templates.md, "Bulk")',
    }),
  })
  .meta({ id: 'BulkRowResult' });
export type BulkRowResult = z.infer<typeof BulkRowResultSchema>;

/** The path parameter of every route about one bulk job. */
export const BulkJobIdParamsSchema = z.object({
  bulkJobId: idSchema('blk').meta({ param: { name: 'bulkJobId', in: 'path' }, example: 'blk_M4nQw8ZxR2tLp7NvB3cYd6Hs' }),
});
