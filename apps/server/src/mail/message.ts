import { z } from 'zod';

/*
 * E-mail (docs/email.md): what Signet sends — invitations, reminders, sign-in codes — goes through the `mail` job
 * kind, so a mail server that is down delays a message instead of failing the request that caused it.
 */

/** One message as the outbox takes it: a single recipient, a subject, a plain-text body and an optional HTML one. */
export const MailMessageSchema = z.object({
  to: z.email().max(320),
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(100_000),
  html: z.string().max(400_000).optional(),
});

export type MailMessage = z.infer<typeof MailMessageSchema>;

/**
 * What a `mail` job keeps: the recipient and why it is sent, in the clear for logs and `signet jobs list`, and the
 * message itself encrypted under `SIGNET_SECRET` — it may hold a signing link or a code (`outbox.ts`).
 */
export const MailPayloadSchema = z.object({
  to: z.email().max(320),
  purpose: z.string().min(1).max(64),
  documentId: z.string().max(64).optional(),
  sealed: z.base64(),
});

export type MailPayload = z.infer<typeof MailPayloadSchema>;

/** The `mail` job kind's name and payload, for enqueueing (`outbox.ts`) without the sender (`mail-kind.ts`). */
export const MAIL_KIND = { name: 'mail', payloadSchema: MailPayloadSchema } as const;

/**
 * The kinds whose pending jobs are about one document and go with its erasure: its messages, and what would write
 * more of them (`delivery.ts`, `completion.ts`).
 */
export const DOCUMENT_MAIL_KINDS = ['mail', 'invitation', 'reminder', 'expiry-notice', 'completion'] as const;
