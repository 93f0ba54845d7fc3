import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { FieldDefinitionSchema } from './field.js';
import { TimestampSchema } from './timestamp.js';
import { PadesLevelSchema } from './pades.js';
import { DECLINE_REASON_MAX_LENGTH } from '../submission-limits.js';
import { SdkSignerSchema, SignerIdSchema, SignerSchema, SigningOrderSchema } from './signers.js';
import { DeliverySchema, RemindersSchema } from './delivery.js';

/**
 * `draft` while its author edits it (not signable; docs/api.md, "Drafts"), `pending` until signed, `completed` once
 * every signer has, `declined` once a signer declined, `voided` once its sender withdrew it, `expired` once its
 * `expiresAt` passed unsigned (docs/lifecycle.md).
 */
export const DOCUMENT_STATUSES = ['pending', 'completed', 'declined', 'draft', 'voided', 'expired'] as const;

/** How far ahead a document's `expiresAt` may be: a year (docs/lifecycle.md). */
export const EXPIRES_AT_MAX_DAYS = 365;
export const DocumentStatusSchema = z.enum(DOCUMENT_STATUSES);
export type DocumentStatus = z.infer<typeof DocumentStatusSchema>;

/** Document metadata with its `status` (docs/api.md, "Documents"). `fileSize` is in bytes. */
export const DocumentMetadataSchema = z
  .object({
    id: idSchema('doc'),
    filename: z.string(),
    mimeType: z.string(),
    pageCount: z.number().int().min(1),
    fileSize: z.number().int().min(0),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    version: z.number().int().min(1),
    status: DocumentStatusSchema,
    expiresAt: TimestampSchema.optional().meta({
      description: 'When given at creation: after it, a document not completed is `expired` and can no longer be signed',
    }),
  })
  .meta({ id: 'DocumentMetadata' });
export type DocumentMetadata = z.infer<typeof DocumentMetadataSchema>;

/** Response of `GET /sdk/documents/{documentId}` (docs/api.md, "Documents"), sent without the envelope. */
export const SdkDocumentSchema = z
  .object({
    metadata: DocumentMetadataSchema,
    documentUrl: z.string(),
    fields: z.array(FieldDefinitionSchema),
    signedDocumentUrl: z.string().optional().meta({
      description: 'Once the completed document is sealed: its signed PDF, granted by a token like `documentUrl`',
    }),
    signingOrder: SigningOrderSchema.optional().meta({ description: 'Present when the document has signers' }),
    signers: z.array(SdkSignerSchema).optional().meta({ description: 'Present when the document has signers' }),
    signerId: SignerIdSchema.optional().meta({
      description:
        "With a session key: the signer it signs as. Their fields are theirs to fill in; every other signer's field is read-only and carries that signer's value once they have signed",
    }),
  })
  .meta({ id: 'SdkDocument' });
export type SdkDocument = z.infer<typeof SdkDocumentSchema>;

export const SEALING_STATUSES = ['pending', 'sealed', 'failed'] as const;

/**
 * Where a document's sealed PDF stands: `pending` until it is sealed (also before it is submitted), `sealed` with
 * the signed file's SHA-256 and time, or `failed` (the job's reason is in `signet jobs list`).
 */
export const SealingSchema = z
  .object({
    status: z.enum(SEALING_STATUSES),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    sealedAt: TimestampSchema.optional(),
    /** The PAdES level the sealed file reached (absent for files sealed before levels were recorded). */
    level: PadesLevelSchema.optional(),
  })
  .meta({ id: 'Sealing' });
export type Sealing = z.infer<typeof SealingSchema>;

/** A document as the management endpoints return it: its metadata, its field definitions and its sealing. */
export const ManagedDocumentSchema = DocumentMetadataSchema.extend({
  fields: z.array(FieldDefinitionSchema),
  sealing: SealingSchema,
  signingOrder: SigningOrderSchema.optional().meta({ description: 'Present when the document has signers' }),
  signers: z.array(SignerSchema).optional().meta({ description: 'Present when the document has signers, in their order' }),
  declined: z
    .object({ reason: z.string(), declinedAt: TimestampSchema, signerId: SignerIdSchema.optional() })
    .optional()
    .meta({ description: 'Present once declined: why, when, and by which signer (on a document with signers)' }),
  voided: z
    .object({ reason: z.string(), voidedAt: TimestampSchema })
    .optional()
    .meta({ description: 'Present once voided (`POST /documents/{documentId}/void`): why and when' }),
  template: z
    .object({ id: idSchema('tpl'), version: z.number().int().min(1) })
    .optional()
    .meta({ description: 'Present on a document made from a template (`POST /templates/{templateId}/documents`): the template and the version it copied' }),
  delivery: DeliverySchema.optional().meta({ description: 'Present when Signet e-mails its signers their signing links (`email`; docs/email.md)' }),
  reminders: RemindersSchema.optional().meta({ description: 'Present when its signers are reminded by e-mail until they sign (docs/email.md)' }),
}).meta({ id: 'ManagedDocument' });
export type ManagedDocument = z.infer<typeof ManagedDocumentSchema>;

/** The `fields` part of `POST /documents`: a JSON array of field definitions. */
export const FieldDefinitionListSchema = z.array(FieldDefinitionSchema).max(500);

/** `POST /sdk/documents/{documentId}/decline`: why the signer declines. */
export const DeclineRequestSchema = z
  .object({ reason: z.string().trim().min(1).max(DECLINE_REASON_MAX_LENGTH) })
  .strict()
  .meta({ id: 'DeclineRequest' });
export type DeclineRequest = z.infer<typeof DeclineRequestSchema>;

/** Its answer (no envelope): the document is declined, since `declinedAt`, for `reason`. */
export const DeclineResultSchema = z
  .object({
    documentId: idSchema('doc'),
    status: z.literal('declined'),
    reason: z.string(),
    declinedAt: TimestampSchema,
    signerId: SignerIdSchema.optional(),
  })
  .meta({ id: 'DeclineResult' });
export type DeclineResult = z.infer<typeof DeclineResultSchema>;

/** Longest reason a sender may give for voiding a document. */
export const VOID_REASON_MAX_LENGTH = 500;

/** `POST /documents/{documentId}/void`: why the sender withdraws the document (docs/lifecycle.md). */
export const VoidRequestSchema = z
  .object({ reason: z.string().trim().min(1).max(VOID_REASON_MAX_LENGTH) })
  .strict()
  .meta({ id: 'VoidRequest' });
export type VoidRequest = z.infer<typeof VoidRequestSchema>;

/**
 * `DELETE /documents/{documentId}`'s answer: what is left of an erased document (docs/lifecycle.md): its id, the
 * SHA-256 of its PDF and of its sealed copy (when it had one), its times, and who erased it (an API key's id, or
 * `cli`).
 */
export const DocumentTombstoneSchema = z
  .object({
    id: idSchema('doc'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    sealedSha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    createdAt: TimestampSchema,
    erasedAt: TimestampSchema,
    erasedBy: z.string(),
  })
  .meta({ id: 'DocumentTombstone' });
export type DocumentTombstone = z.infer<typeof DocumentTombstoneSchema>;
