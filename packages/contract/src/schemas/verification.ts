import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { SignerIdSchema } from './signers.js';
import { TimestampSchema } from './timestamp.js';

/*
 * A signer proving who they are before the document opens (docs/signer-auth.md): what the viewer is told while it
 * must ask for a code, and the bodies of `POST /sdk/documents/{id}/verification` and `…/verification/check`.
 */

/** The methods that ask for a code (a signer with `auth: "none"` is never asked). */
export const VerificationMethodSchema = z.enum(['email_code', 'access_code']);
export type VerificationMethod = z.infer<typeof VerificationMethodSchema>;

/** An e-mailed code: six digits. */
export const EMAIL_CODE_LENGTH = 6;
/** An e-mailed code is valid this long after it is sent. */
export const EMAIL_CODE_TTL_SECONDS = 600;
/** Wrong tries a code (or an access code, before it locks for `ACCESS_CODE_LOCK_SECONDS`) survives. */
export const VERIFICATION_MAX_ATTEMPTS = 5;
/** How long an access code is locked after `VERIFICATION_MAX_ATTEMPTS` wrong tries. */
export const ACCESS_CODE_LOCK_SECONDS = 900;
/** Codes sent to one signer: one a minute, five an hour. */
export const EMAIL_CODE_SEND_LIMITS = { intervalSeconds: 60, perHour: 5 } as const;

/**
 * `details` of 403 `VERIFICATION_REQUIRED`: enough for the prompt, nothing of the document's content. `maskedEmail`
 * (`a***@example.com`) is there for `email_code`.
 */
export const VerificationRequiredDetailsSchema = z
  .object({
    method: VerificationMethodSchema,
    documentId: idSchema('doc'),
    documentName: z.string(),
    signerId: SignerIdSchema,
    signerName: z.string(),
    maskedEmail: z.string().optional(),
  })
  .meta({ id: 'VerificationRequiredDetails' });
export type VerificationRequiredDetails = z.infer<typeof VerificationRequiredDetailsSchema>;

/** `POST /sdk/documents/{documentId}/verification`'s answer: a code is on its way. */
export const VerificationCodeSentSchema = z
  .object({
    method: z.literal('email_code'),
    maskedEmail: z.string(),
    expiresAt: TimestampSchema,
    /** When the next code may be asked for. */
    resendAfter: TimestampSchema,
  })
  .meta({ id: 'VerificationCodeSent' });
export type VerificationCodeSent = z.infer<typeof VerificationCodeSentSchema>;

/** `POST /sdk/documents/{documentId}/verification/check`: the code the signer typed. */
export const CheckVerificationRequestSchema = z
  .strictObject({
    code: z
      .string()
      .trim()
      .min(4)
      .max(64)
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .meta({ description: 'The 6 digits e-mailed (`email_code`), or the access code the sender gave (`access_code`)' }),
  })
  .meta({ id: 'CheckVerificationRequest' });
export type CheckVerificationRequest = z.infer<typeof CheckVerificationRequestSchema>;

/** The check's answer: this session key is verified; `GET /sdk/documents/{id}` now answers. */
export const VerificationResultSchema = z
  .object({
    verified: z.literal(true),
    method: VerificationMethodSchema,
    verifiedAt: TimestampSchema,
  })
  .meta({ id: 'VerificationResult' });
export type VerificationResult = z.infer<typeof VerificationResultSchema>;

/** `details.reason` of 422 `VERIFICATION_FAILED`. */
export const VERIFICATION_FAILURES = ['wrong_code', 'expired', 'no_code', 'too_many_attempts', 'not_email_code', 'not_required'] as const;
export type VerificationFailure = (typeof VERIFICATION_FAILURES)[number];

/**
 * `a***@example.com`: the first character of the local part, then three stars, whatever its length.
 * @example maskEmail('ada.lovelace@example.com') // 'a***@example.com'
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
