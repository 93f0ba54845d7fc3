import { enqueueJob } from '../jobs/generic-queue.js';
import { secretBox } from '../secret-box.js';
import type { Queryable } from '../storage/sql-database.js';
import { MAIL_KIND, MailMessageSchema, type MailMessage, type MailPayload } from './message.js';

/** The key messages kept in the `jobs` table are encrypted under (AES-256-GCM, derived from `SIGNET_SECRET`). */
const MAIL_BOX_PURPOSE = 'signet mail';

/** Why a message is sent, for logs and the job list: `invitation`, `reminder`, `signer-code`, … */
export interface MailOptions {
  purpose: string;
  /** The document the message is about, for logs. */
  documentId?: string;
  /** Sends the message once per key (an invitation per signer); a second enqueue with the key does nothing. */
  key?: string;
  /** When to send it (default: now). */
  runAt?: Date;
}

/**
 * Queues `message` in `tx`, so it is sent only if the transaction commits, and sent again after a failure on the
 * `mail` kind's schedule. Resolves with the job's id, or null when a message with `options.key` was queued before.
 * @example await enqueueMail(tx, secret, { to, subject, text }, { purpose: 'invitation', key: `invite:${signerId}` })
 */
export async function enqueueMail(tx: Queryable, secret: string, message: MailMessage, options: MailOptions): Promise<string | null> {
  const checked = MailMessageSchema.parse(message);
  const sealed = secretBox(secret, MAIL_BOX_PURPOSE).seal(new TextEncoder().encode(JSON.stringify(checked)));
  const payload: MailPayload = {
    to: checked.to,
    purpose: options.purpose,
    ...(options.documentId ? { documentId: options.documentId } : {}),
    sealed: Buffer.from(sealed).toString('base64'),
  };
  return enqueueJob(tx, MAIL_KIND, payload, {
    ...(options.key ? { key: `mail:${options.key}` } : {}),
    ...(options.runAt ? { runAt: options.runAt } : {}),
  });
}

/** The message a `mail` job carries, decrypted; throws when it was sealed under another secret. */
export function openMailPayload(secret: string, payload: MailPayload): MailMessage {
  const plain = secretBox(secret, MAIL_BOX_PURPOSE).open(Buffer.from(payload.sealed, 'base64'));
  return MailMessageSchema.parse(JSON.parse(new TextDecoder().decode(plain)));
}
