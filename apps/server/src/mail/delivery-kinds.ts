import type { Config } from '../config.js';
import { defineJobKind } from '../jobs/generic-queue.js';
import type { JobKindOptions } from '../jobs/types.js';
import { findDocument } from '../storage/queries/documents.js';
import { findSignerStates } from '../storage/queries/signers.js';
import { INVITATION_KIND, REMINDER_KIND, queueSignerMessage, scheduleReminder, signerCanSign, signingLinkBase } from './delivery.js';

/*
 * The `invitation` and `reminder` job kinds (docs/email.md): each writes one signer's message with a fresh link and
 * queues it as a `mail` job, in the transaction that settles the job, so a retry never queues it twice. A signer who
 * signed meanwhile, or a document completed, declined, voided, expired or erased, gets nothing.
 */

const OPTIONS: JobKindOptions = {
  leaseMs: 60_000,
  pollMs: 5_000,
  concurrency: 2,
  claimBatch: 10,
  backoff: { kind: 'exponential', baseMs: 2_000, maxMs: 600_000, maxAttempts: 10, jitter: 0.1 },
};

/**
 * Both kinds, for a process that sends mail.
 * @example for (const kind of deliveryJobKinds({ config, secret })) runner.register(kind);
 */
export function deliveryJobKinds(options: { config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>; secret: string }) {
  const invitation = defineJobKind({
    name: INVITATION_KIND.name,
    schema: INVITATION_KIND.payloadSchema,
    options: OPTIONS,
    async handler(job, context) {
      const { documentId, signerId } = job.payload;
      return {
        effects: async (tx) => {
          const document = await findDocument(tx.query, documentId);
          if (!document?.delivery || document.erased) return;
          if (!signerCanSign(document, await findSignerStates(tx.query, documentId), signerId)) return;
          const now = context.now();
          const base = signingLinkBase(options.config, document);
          const key = `invitation:${documentId}:${signerId}`;
          if (!(await queueSignerMessage(tx, { secret: options.secret, base, now }, document, { signerId, kind: 'invitation', sentBy: 'schedule', key }))) return;
          await scheduleReminder(tx, document, signerId, 1, now);
          return { wake: ['mail'] };
        },
      };
    },
  });
  const reminder = defineJobKind({
    name: REMINDER_KIND.name,
    schema: REMINDER_KIND.payloadSchema,
    options: OPTIONS,
    async handler(job, context) {
      const { documentId, signerId, n } = job.payload;
      return {
        effects: async (tx) => {
          const document = await findDocument(tx.query, documentId);
          if (!document?.delivery?.reminders || document.erased) return;
          if (!signerCanSign(document, await findSignerStates(tx.query, documentId), signerId)) return;
          const now = context.now();
          const base = signingLinkBase(options.config, document);
          const key = `reminder:${documentId}:${signerId}:${n}`;
          if (!(await queueSignerMessage(tx, { secret: options.secret, base, now }, document, { signerId, kind: 'reminder', sentBy: 'schedule', key }))) return;
          await scheduleReminder(tx, document, signerId, n + 1, now);
          return { wake: ['mail'] };
        },
      };
    },
  });
  return [invitation, reminder] as const;
}
