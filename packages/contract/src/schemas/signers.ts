import { z } from '../zod.js';
import { idSchema } from '../ids.js';
import { FieldIdSchema } from './field.js';
import { TimestampSchema } from './timestamp.js';

/** Most signers one document may have. */
export const MAX_SIGNERS = 20;
/** A session key lives an hour unless asked otherwise, at least a minute and at most 7 days. */
export const SESSION_TTL_SECONDS = { default: 3600, min: 60, max: 7 * 24 * 3600 } as const;
/** Most origins one session key may be limited to. */
export const MAX_SESSION_ORIGINS = 20;

/** Signer ids are chosen by the creator, like field ids. */
export const SignerIdSchema = FieldIdSchema;

/**
 * `parallel`: every signer may sign at once. `sequential`: a signer's turn comes when every signer of a lower
 * `order` has signed; signers of equal `order` sign in parallel.
 */
export const SIGNING_ORDERS = ['parallel', 'sequential'] as const;
export const SigningOrderSchema = z.enum(SIGNING_ORDERS);
export type SigningOrder = z.infer<typeof SigningOrderSchema>;

/** `waiting` for an earlier signer (sequential order), `ready` to sign, `opened` the document, `completed`. */
export const SIGNER_STATUSES = ['waiting', 'ready', 'opened', 'completed'] as const;
export const SignerStatusSchema = z.enum(SIGNER_STATUSES);
export type SignerStatus = z.infer<typeof SignerStatusSchema>;

/**
 * How a signer proves who they are before the document opens (docs/signer-auth.md): `none`, `email_code` (a
 * 6-digit code e-mailed to their `email`) or `access_code` (a code the sender gives them out of band).
 */
export const SIGNER_AUTH_METHODS = ['none', 'email_code', 'access_code'] as const;
export const SignerAuthSchema = z.enum(SIGNER_AUTH_METHODS);
export type SignerAuth = z.infer<typeof SignerAuthSchema>;

/**
 * The languages Signet speaks to a signer in: the viewer's, and those of the e-mails and the hosted signing page
 * (docs/email.md, "Languages"), as BCP 47 primary language subtags.
 */
export const SIGNER_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ja', 'ar'] as const;
export const SignerLocaleSchema = z
  .enum(SIGNER_LOCALES)
  .meta({ description: "The signer's language for Signet's e-mails and hosted page. Default: the browser's on the page, English in e-mails" });
export type SignerLocale = z.infer<typeof SignerLocaleSchema>;

/** An access code as the sender chooses it: 4 to 64 printable characters (stored only as a slow hash). */
export const AccessCodeSchema = z
  .string()
  .min(4)
  .max(64)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
  .meta({ description: 'Only with `auth: "access_code"`; stored as a salted scrypt hash and never shown again', writeOnly: true });

/** What a signer's definition adds about proving who they are; `auth` defaults to `none`. */
export const signerAuthMembers = {
  auth: SignerAuthSchema.optional().meta({ description: 'Default `none`; `email_code` needs `email` and a server that sends mail' }),
  accessCode: AccessCodeSchema.optional(),
};

/** Each signer's `auth` fits what it needs: `email_code` an `email`, `access_code` an `accessCode` (and nothing else one). */
export function signerAuthIssues(
  signer: { auth?: SignerAuth | undefined; email?: string | undefined; accessCode?: string | undefined },
): { path: string; message: string } | undefined {
  if (signer.auth === 'email_code' && !signer.email) return { path: 'email', message: 'is required with auth "email_code"' };
  if (signer.auth === 'access_code' && signer.accessCode === undefined) return { path: 'accessCode', message: 'is required with auth "access_code"' };
  if (signer.auth !== 'access_code' && signer.accessCode !== undefined) return { path: 'accessCode', message: 'applies only with auth "access_code"' };
  return undefined;
}

/** One signer as `POST /documents` takes it (the `signers` part). `order` defaults to 1. */
export const SignerDefinitionSchema = z
  .object({
    id: SignerIdSchema,
    name: z.string().trim().min(1).max(200),
    email: z.email().max(320).optional(),
    order: z.number().int().min(1).max(MAX_SIGNERS).optional(),
    locale: SignerLocaleSchema.optional(),
    ...signerAuthMembers,
  })
  .strict()
  .meta({ id: 'SignerDefinition' });
export type SignerDefinition = z.infer<typeof SignerDefinitionSchema>;

/** The `signers` part of `POST /documents`: a JSON array of signers, each id once. */
export const SignerDefinitionListSchema = z
  .array(SignerDefinitionSchema)
  .min(1)
  .max(MAX_SIGNERS)
  .superRefine((signers, ctx) => {
    const seen = new Set<string>();
    signers.forEach((signer, index) => {
      if (seen.has(signer.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate signer id "${signer.id}"` });
      seen.add(signer.id);
      const auth = signerAuthIssues(signer);
      if (auth) ctx.addIssue({ code: 'custom', path: [index, auth.path], message: auth.message });
    });
  });

/** A signer of a document as the management endpoints show it: where they stand, and when. */
export const SignerSchema = z
  .object({
    id: SignerIdSchema,
    name: z.string(),
    email: z.string().optional(),
    order: z.number().int().min(1),
    locale: SignerLocaleSchema.optional(),
    status: SignerStatusSchema,
    /** How the signer proves who they are; never the code itself. */
    auth: SignerAuthSchema,
    /** When a session key of this signer last proved it (null: never, or `auth: "none"`). */
    verifiedAt: TimestampSchema.nullable(),
    openedAt: TimestampSchema.nullable(),
    completedAt: TimestampSchema.nullable(),
    submissionId: idSchema('sub').nullable(),
  })
  .meta({ id: 'Signer' });
export type Signer = z.infer<typeof SignerSchema>;

/** A signer as a browser sees it (`GET /sdk/documents/{id}`): no email address. */
export const SdkSignerSchema = SignerSchema.pick({ id: true, name: true, order: true, status: true }).meta({ id: 'SdkSigner' });
export type SdkSigner = z.infer<typeof SdkSignerSchema>;

/** An origin, `scheme://host[:port]`, as a browser sends it in `Origin`. */
export const OriginSchema = z
  .string()
  .max(255)
  .regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/, 'must be an origin: http(s)://host[:port], without a path');

/**
 * `POST /documents/{documentId}/sessions`. `signerId` names one of the document's signers (required when it has
 * signers, absent when it has none); `origins` limits where the key may be used from (default: anywhere).
 */
export const CreateSessionRequestSchema = z
  .object({
    signerId: SignerIdSchema.optional(),
    expiresInSeconds: z.number().int().min(SESSION_TTL_SECONDS.min).max(SESSION_TTL_SECONDS.max).optional(),
    origins: z.array(OriginSchema).max(MAX_SESSION_ORIGINS).optional(),
  })
  .strict()
  .meta({ id: 'CreateSessionRequest' });
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>;

/** A session key's record: what it may do, until when; its secret is never shown again. */
export const SessionSchema = z
  .object({
    id: idSchema('key'),
    documentId: idSchema('doc'),
    signerId: SignerIdSchema.optional(),
    expiresAt: TimestampSchema,
    origins: z.array(z.string()),
    createdAt: TimestampSchema,
    revokedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof SessionSchema>;

/** `POST /documents/{documentId}/sessions`'s answer: the record and the `pk_` key itself, shown this once. */
export const CreatedSessionSchema = SessionSchema.extend({
  key: z.string().regex(/^pk_[A-Za-z0-9]{32,128}$/),
}).meta({ id: 'CreatedSession' });
export type CreatedSession = z.infer<typeof CreatedSessionSchema>;
