import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { TimestampSchema } from './timestamp.js';
import { PadesReportSchema } from './pades.js';

export const AUDIT_EVENT_TYPES = [
  'document.created',
  'document.sent',
  'signer.invited',
  'signer.reminded',
  'document.opened',
  'signer.opened',
  'signer.verification_failed',
  'signer.verified',
  'signer.completed',
  'document.submitted',
  'document.declined',
  'document.voided',
  'document.expired',
  'document.sealed',
  'document.erased',
] as const;
export const AuditEventTypeSchema = z.enum(AUDIT_EVENT_TYPES);
export type AuditEventType = z.infer<typeof AuditEventTypeSchema>;

/**
 * One event of a document's life; `ip` and `userAgent` are the signer's for `opened`, `submitted` and the signer
 * events. On a document with signers, `signer.opened` and `signer.completed` name the signer; `document.submitted`
 * is when the last of them signed.
 */
export const AuditEventSchema = z
  .object({
    type: AuditEventTypeSchema,
    occurredAt: TimestampSchema,
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    signerId: z.string().optional(),
    signerName: z.string().optional(),
    /** `signer.verified` and `signer.verification_failed`: how (`email_code`, `access_code`). */
    method: z.string().optional(),
    /** `signer.verified` by `email_code`: the address the code went to. */
    address: z.string().optional(),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/** `GET /documents/{documentId}/audit`: the events oldest first, as the sealed PDF's audit pages list them. */
export const AuditTrailSchema = z
  .object({
    documentId: idSchema('doc'),
    events: z.array(AuditEventSchema),
  })
  .meta({ id: 'AuditTrail' });
export type AuditTrail = z.infer<typeof AuditTrailSchema>;

/**
 * `POST /verify`: whether a PDF is one this Signet instance sealed for the key's organization (`sealed`) and is
 * unchanged since (`intact`); `sha256` is the uploaded file's. The ids and time are given when `sealed`.
 */
export const VerifyResultSchema = z
  .object({
    sealed: z.boolean(),
    intact: z.boolean(),
    documentId: idSchema('doc').optional(),
    submissionId: idSchema('sub').optional(),
    sealedAt: TimestampSchema.optional(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** The file's PAdES signature as the file itself shows it; absent when it carries no signature. */
    pades: PadesReportSchema.optional(),
  })
  .meta({ id: 'VerifyResult' });
export type VerifyResult = z.infer<typeof VerifyResultSchema>;

/** The multipart form of `POST /verify`. */
export const VerifyUploadSchema = z.object({
  file: z.string().meta({ format: 'binary', description: 'The PDF to check' }),
});
