import type { z } from 'zod';
import type { Config } from '../config.js';
import { defineJobKind } from '../jobs/generic-queue.js';
import { findDocument } from '../storage/queries/documents.js';
import { findSignerStates } from '../storage/queries/signers.js';
import type { Queryable } from '../storage/sql-database.js';
import type { DocumentRecord } from '../storage/types.js';
import { completionJobKind } from './completion.js';
import {
  EXPIRY_NOTICE_KIND,
  INVITATION_KIND,
  MESSAGE_JOB_OPTIONS,
  REMINDER_KIND,
  queueSignerMessage,
  scheduleExpiryNotice,
  scheduleReminder,
  signerCanSign,
  signingLinkBase,
  type SignerMessageKind,
} from './delivery.js';

/*
 * The `invitation`, `reminder` and `expiry-notice` job kinds (docs/email.md): each writes one signer's message with a
 * fresh link and queues it as a `mail` job, in the transaction that settles the job, so a retry never queues it
 * twice. A signer who signed meanwhile, or a document completed, declined, voided, expired or erased, gets nothing.
 */

/** The payload the kinds carry: a signer of a document, and for a reminder which one of the schedule it is. */
interface SignerMessagePayload {
  documentId: string;
  signerId: string;
  n?: number;
}

/**
 * The invitation, reminder and expiry notice kinds, and the completed document's (`completion.ts`), for a process
 * that sends mail.
 * @example for (const kind of deliveryJobKinds({ config, secret })) runner.register(kind);
 */
export function deliveryJobKinds(options: { config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>; secret: string }) {
  /**
   * A kind that writes one signer's `message` while they may still sign (and, for a reminder, while the document has
   * a schedule), then does what follows it (`then`): schedule the next reminder, the expiry notice.
   */
  const signerMessageKind = <P extends SignerMessagePayload>(spec: {
    kind: { name: string; payloadSchema: z.ZodType<P> };
    message: SignerMessageKind;
    then?: (tx: Queryable, document: DocumentRecord, payload: P, now: Date) => Promise<void>;
  }) =>
    defineJobKind({
      name: spec.kind.name,
      schema: spec.kind.payloadSchema,
      options: MESSAGE_JOB_OPTIONS,
      async handler(job, context) {
        const { documentId, signerId, n } = job.payload;
        return {
          effects: async (tx) => {
            const document = await findDocument(tx.query, documentId);
            if (!document?.delivery || document.erased) return;
            if (spec.message === 'reminder' && !document.delivery.reminders) return;
            if (!signerCanSign(document, await findSignerStates(tx.query, documentId), signerId)) return;
            const now = context.now();
            const base = signingLinkBase(options.config, document);
            const key = [spec.message, documentId, signerId, ...(n === undefined ? [] : [n])].join(':');
            if (!(await queueSignerMessage(tx, { secret: options.secret, base, now }, document, { signerId, kind: spec.message, sentBy: 'schedule', key }))) return;
            await spec.then?.(tx, document, job.payload, now);
            return { wake: ['mail'] };
          },
        };
      },
    });
  return [
    signerMessageKind({
      kind: INVITATION_KIND,
      message: 'invitation',
      async then(tx, document, { signerId }, now) {
        await scheduleReminder(tx, document, signerId, 1, now);
        await scheduleExpiryNotice(tx, document, signerId, now);
      },
    }),
    signerMessageKind({ kind: REMINDER_KIND, message: 'reminder', then: (tx, document, { signerId, n }, now) => scheduleReminder(tx, document, signerId, n + 1, now) }),
    signerMessageKind({ kind: EXPIRY_NOTICE_KIND, message: 'expiring' }),
    completionJobKind(options),
  ] as const;
}
