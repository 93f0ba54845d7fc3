import type { Config } from '../config.js';
import { readableTime, signerTexts } from '../i18n/signer-texts.js';
import { signingLinkUrl } from '../documents/signing-link.js';
import { defineJobKind, enqueueJob } from '../jobs/generic-queue.js';
import { findDocument } from '../storage/queries/documents.js';
import { findOrganizationName } from '../storage/queries/organizations.js';
import type { Queryable } from '../storage/sql-database.js';
import { MESSAGE_JOB_OPTIONS, SignerJobPayloadSchema, signingLinkBase } from './delivery.js';
import type { MailMessage } from './message.js';
import { enqueueMail } from './outbox.js';
import { oneLine, signerMessageBodies, type SigningInvitation } from './signing-invitation.js';

/*
 * The completed document's link to every signer (docs/email.md, "When everyone has signed"): once a document
 * delivered by e-mail is sealed, each signer with an `email` gets a message whose link opens the hosted page on the
 * completed document, where the viewer offers the signed copy. The seal's completion enqueues one `completion` job
 * per signer in its own transaction; the job writes the message with a fresh link, as the invitations do.
 */

/** The `completion` kind's name and payload. */
export const COMPLETION_KIND = { name: 'completion', payloadSchema: SignerJobPayloadSchema } as const;

/**
 * Enqueues, in `tx`, the completion message of each signer with an `email` of `documentId` when it was delivered by
 * e-mail: once per signer (a seal that completes twice adds none). Resolves with how many were enqueued.
 */
export async function enqueueCompletionNotices(tx: Queryable, documentId: string): Promise<number> {
  const document = await findDocument(tx.query, documentId);
  if (!document?.delivery || document.implicitSigner || document.status !== 'completed') return 0;
  let enqueued = 0;
  for (const signer of document.signers) {
    if (!signer.email) continue;
    if (await enqueueJob(tx, COMPLETION_KIND, { documentId, signerId: signer.id }, { key: `${documentId}:${signer.id}` })) enqueued += 1;
  }
  return enqueued;
}

/**
 * The `completion` kind, for a process that sends mail: a document erased meanwhile, or a signer without an address,
 * gets nothing.
 * @example runner.register(completionJobKind({ config, secret }))
 */
export function completionJobKind(options: { config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>; secret: string }) {
  return defineJobKind({
    name: COMPLETION_KIND.name,
    schema: COMPLETION_KIND.payloadSchema,
    options: MESSAGE_JOB_OPTIONS,
    async handler(job, context) {
      const { documentId, signerId } = job.payload;
      return {
        effects: async (tx) => {
          const document = await findDocument(tx.query, documentId);
          if (!document?.delivery || document.erased || document.status !== 'completed') return;
          const signer = document.signers.find((candidate) => candidate.id === signerId);
          if (!signer?.email) return;
          const now = context.now();
          const base = signingLinkBase(options.config, document);
          const { url, expiresAt } = signingLinkUrl(options.secret, base, document, signer.id, now, { completed: true });
          const organizationName = (await findOrganizationName(tx.query, document.organizationId)) ?? 'Signet';
          const mail = completedDocumentMessage({ to: signer.email, signerName: signer.name, organizationName, documentName: document.filename, url, expiresAt, locale: signer.locale });
          await enqueueMail(tx, options.secret, mail, { purpose: 'completion', documentId, key: `completion:${documentId}:${signerId}` });
          return { wake: ['mail'] };
        },
      };
    },
  });
}

/** What the completion message says: what an invitation does (`signing-invitation.ts`), without its kind. */
export type CompletedDocument = Omit<SigningInvitation, 'kind'>;

/**
 * The message that a document everyone signed is ready, with the link to its signed copy; names escaped in the HTML
 * and kept on one line in the subject, as in the invitations.
 * @example completedDocumentMessage({ to, signerName: 'Ada', organizationName: 'Acme', documentName: 'lease.pdf', url, expiresAt })
 */
export function completedDocumentMessage(completed: CompletedDocument): MailMessage {
  const organization = oneLine(completed.organizationName, 100);
  const documentName = oneLine(completed.documentName, 150);
  const signerName = oneLine(completed.signerName, 200);
  const until = readableTime(completed.expiresAt, completed.locale);
  const { done, subject, ...link } = signerTexts(completed.locale).completed;
  const { text, html } = signerMessageBodies({
    signerName,
    organization,
    paragraph: done(organization, documentName),
    ...link,
    url: completed.url,
    until,
    locale: completed.locale,
  });
  return { to: completed.to, subject: subject(documentName), text, html };
}
