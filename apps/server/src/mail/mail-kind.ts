import nodemailer from 'nodemailer';
import { defineJobKind, NonRetryable } from '../jobs/generic-queue.js';
import type { MailConfig } from '../config.js';
import { MAIL_KIND, MailPayloadSchema } from './message.js';
import { openMailPayload } from './outbox.js';

/**
 * The `mail` job kind: sends each queued message over SMTP (`SIGNET_SMTP_URL`) from `SIGNET_MAIL_FROM`. A refusal
 * the server calls permanent (a 5xx reply: no such mailbox) dies at once; anything else (the server down, a 4xx
 * greylisting) is tried again, up to 10 times over about a day. `close` ends the pooled connections.
 * @example const { kind, close } = mailJobKind({ mail, secret }); runner.register(kind); … close();
 */
export function mailJobKind(options: { mail: MailConfig; secret: string }) {
  const transport = nodemailer.createTransport({
    url: options.mail.smtpUrl,
    pool: true,
    maxConnections: 4,
    connectionTimeout: options.mail.timeoutMs,
    greetingTimeout: options.mail.timeoutMs,
    socketTimeout: options.mail.timeoutMs,
  });
  const kind = defineJobKind({
    name: MAIL_KIND.name,
    schema: MailPayloadSchema,
    options: {
      leaseMs: Math.max(60_000, options.mail.timeoutMs * 4),
      pollMs: 2_000,
      concurrency: 4,
      claimBatch: 8,
      backoff: { kind: 'exponential', baseMs: 5_000, maxMs: 3_600_000, maxAttempts: 10, jitter: 0.1 },
    },
    async handler(job, context) {
      const message = openMailPayload(options.secret, job.payload);
      try {
        const sent = await transport.sendMail({ ...message, from: options.mail.from });
        context.logger.info({ jobId: job.id, purpose: job.payload.purpose, documentId: job.payload.documentId, messageId: sent.messageId }, 'mail sent');
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        if (code !== undefined && code >= 500) throw new NonRetryable(`the mail server refused the message: ${(error as Error).message}`);
        throw error;
      }
    },
  });
  return { kind, close: () => transport.close() };
}
