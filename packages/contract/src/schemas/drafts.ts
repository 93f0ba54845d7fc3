import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { FieldDefinitionSchema } from './field.js';
import { TimestampSchema } from './timestamp.js';
import { DocumentMetadataSchema, FieldDefinitionListSchema } from './document.js';
import { MAX_SESSION_ORIGINS, OriginSchema, SignerAuthSchema, SignerDefinitionListSchema, SignerIdSchema, SigningOrderSchema } from './signers.js';

/** A builder session key lives an hour unless asked otherwise, at least a minute and at most a day. */
export const BUILDER_SESSION_TTL_SECONDS = { default: 3600, min: 60, max: 24 * 3600 } as const;

/** A signer of a draft as its author edits it: what `PUT /documents/{id}/draft` takes back. */
export const DraftSignerSchema = z
  .object({
    id: SignerIdSchema,
    name: z.string(),
    email: z.string().optional(),
    order: z.number().int().min(1),
    /** Absent for `none`; an access code is never shown (send it again with the signers of a `PUT`). */
    auth: SignerAuthSchema.optional(),
  })
  .meta({ id: 'DraftSigner' });
export type DraftSigner = z.infer<typeof DraftSignerSchema>;

/**
 * `GET` and `PUT /documents/{documentId}/draft`: what its author edits (fields, signers, signing order), with its
 * `version` (also the `ETag`, quoted) and the `documentUrl` of its PDF, so that a builder can draw the pages.
 * A sent document answers the same, read-only.
 */
export const DraftSchema = DocumentMetadataSchema.extend({
  fields: z.array(FieldDefinitionSchema),
  signingOrder: SigningOrderSchema.optional().meta({ description: 'Present when the document has signers' }),
  signers: z.array(DraftSignerSchema).optional().meta({ description: 'Present when the document has signers, in their order' }),
  documentUrl: z.string().meta({ description: 'The PDF, granted by a token as in `GET /sdk/documents/{documentId}`' }),
}).meta({ id: 'Draft' });
export type Draft = z.infer<typeof DraftSchema>;

/**
 * `PUT /documents/{documentId}/draft`: the draft's whole content, replacing what it had. Without `signers` the
 * document has one implicit signer (and no field names one), as at creation.
 */
export const UpdateDraftRequestSchema = z
  .object({
    fields: FieldDefinitionListSchema,
    signers: SignerDefinitionListSchema.optional(),
    signingOrder: SigningOrderSchema.optional(),
  })
  .strict()
  .meta({ id: 'UpdateDraftRequest' });
export type UpdateDraftRequest = z.infer<typeof UpdateDraftRequestSchema>;

/** `If-Match` of a write to a draft: the quoted version of `ETag` (`"3"`), a list of them, or `*`. */
export const IfMatchSchema = z
  .string()
  .max(256)
  .meta({ description: 'The `ETag` of the version the change was made on (`"3"`); required (428 without it)' });

/**
 * `POST /documents/{documentId}/builder-sessions`: `allowSend` lets the key send the draft too (default: edit
 * only); `origins` limits where it may be used from (default: anywhere); `expiresInSeconds` its lifetime.
 */
export const CreateBuilderSessionRequestSchema = z
  .object({
    allowSend: z.boolean().optional(),
    origins: z.array(OriginSchema).max(MAX_SESSION_ORIGINS).optional(),
    expiresInSeconds: z.number().int().min(BUILDER_SESSION_TTL_SECONDS.min).max(BUILDER_SESSION_TTL_SECONDS.max).optional(),
  })
  .strict()
  .meta({ id: 'CreateBuilderSessionRequest' });
export type CreateBuilderSessionRequest = z.infer<typeof CreateBuilderSessionRequestSchema>;

/** A builder session key's record; its secret is never shown again. */
export const BuilderSessionSchema = z
  .object({
    id: idSchema('key'),
    documentId: idSchema('doc'),
    allowSend: z.boolean(),
    expiresAt: TimestampSchema,
    origins: z.array(z.string()),
    createdAt: TimestampSchema,
    revokedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'BuilderSession' });
export type BuilderSession = z.infer<typeof BuilderSessionSchema>;

/** `POST /documents/{documentId}/builder-sessions`'s answer: the record and the `pk_` key itself, shown this once. */
export const CreatedBuilderSessionSchema = BuilderSessionSchema.extend({
  key: z.string().regex(/^pk_[A-Za-z0-9]{32,128}$/),
}).meta({ id: 'CreatedBuilderSession' });
export type CreatedBuilderSession = z.infer<typeof CreatedBuilderSessionSchema>;
