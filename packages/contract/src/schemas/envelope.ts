import { z } from '../zod.js';
import { ERROR_CODES } from '../errors.js';

export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** `error.details` of the shapes docs/api.md ("Envelope") names; other members may appear. */
export const ErrorDetailsSchema = z
  .object({
    field: z.string().optional(),
    reason: z.string().optional(),
    missingFields: z.array(z.string()).optional(),
    required: z.array(z.string()).optional(),
    currentVersion: z.number().int().optional().meta({ description: "412: the document's current version (its ETag)" }),
    problems: z
      .array(z.object({ field: z.string(), reason: z.string() }))
      .optional()
      .meta({ description: 'Sending a draft (422): every problem found, each naming where it is' }),
  })
  .catchall(z.unknown())
  .meta({ id: 'ErrorDetails' });
export type ErrorDetails = z.infer<typeof ErrorDetailsSchema>;

export const MetaSchema = z
  .object({
    requestId: z.string(),
    // Described as a timestamp but not held to one: a client must still read the error of an envelope whose meta is
    // off (a proxy's, an older server's), so only the shape is checked here.
    timestamp: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'Meta' });
export type Meta = z.infer<typeof MetaSchema>;

/** The success envelope (docs/api.md, "Envelope") around `data`. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, meta: MetaSchema });
}

export const ErrorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string(),
      details: ErrorDetailsSchema.optional(),
    }),
    meta: MetaSchema,
  })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export const PaginationSchema = z
  .object({
    /** Opaque cursor for the next page; `null` on the last page. */
    cursor: z.string().nullable(),
    hasMore: z.boolean(),
    limit: z.number().int(),
  })
  .meta({ id: 'Pagination' });
export type Pagination = z.infer<typeof PaginationSchema>;

/** The paginated list (docs/api.md, "Pagination"; plus `meta`, so every envelope carries its request id). */
export function paginatedList<T extends z.ZodType>(item: T) {
  return z.object({
    success: z.literal(true),
    data: z.array(item),
    pagination: PaginationSchema,
    meta: MetaSchema,
  });
}

/** Page size bounds of `GET /documents` (docs/api.md, "Pagination"). */
export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;
