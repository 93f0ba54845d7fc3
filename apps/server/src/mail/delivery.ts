import { signerStatus } from '@signet/contract';
import { z } from 'zod';
import type { Config } from '../config.js';
import { enqueueJob } from '../jobs/generic-queue.js';
import type { JobKindOptions } from '../jobs/types.js';
import { findSignerStates } from '../storage/queries/signers.js';
import { findOrganizationName } from '../storage/queries/organizations.js';
import { recordSignerMessage } from '../storage/queries/signer-messages.js';
import type { Queryable } from '../storage/sql-database.js';
import type { DocumentRecord, SignerState } from '../storage/types.js';
import { signingLinkUrl } from '../documents/signing-link.js';
import { enqueueMail } from './outbox.js';
import { signingInvitationMessage } from './signing-invitation.js';

/*
 * Delivery by e-mail (docs/email.md): a document created (or sent) with `delivery: "email"` invites each signer with
 * an `email` when their turn comes, and reminds them on its schedule. The requests and the submission that make a
 * signer's turn come only enqueue an `invitation` job (keyed per signer) in their own transaction; the job writes the
 * message with its link, so a link is only made by a process that knows the secret and the public address.
 */

const DAY_MS = 86_400_000;

/** The job options of the kinds that write a message to a signer (invitations, reminders, notices, the signed copy). */
export const MESSAGE_JOB_OPTIONS: JobKindOptions = {
  leaseMs: 60_000,
  pollMs: 5_000,
  concurrency: 2,
  claimBatch: 10,
  backoff: { kind: 'exponential', baseMs: 2_000, maxMs: 600_000, maxAttempts: 10, jitter: 0.1 },
};

/** The payload of a job about one signer of a document (an invitation, an expiry notice, the signed copy's link). */
export const SignerJobPayloadSchema = z.object({ documentId: z.string(), signerId: z.string() });

/** The `invitation` kind's name and payload (the handler is in `delivery-kinds.ts`). */
export const INVITATION_KIND = { name: 'invitation', payloadSchema: SignerJobPayloadSchema } as const;
/** The `reminder` kind's: the `n`th scheduled reminder of a signer. */
export const REMINDER_KIND = {
  name: 'reminder',
  payloadSchema: SignerJobPayloadSchema.extend({ n: z.number().int().min(1) }),
} as const;

/** The `expiry-notice` kind's: the notice to a signer who has not signed that the document expires soon. */
export const EXPIRY_NOTICE_KIND = { name: 'expiry-notice', payloadSchema: SignerJobPayloadSchema } as const;

/** How long before a document's `expiresAt` a signer who has not signed is told it expires. */
export const EXPIRY_NOTICE_HOURS = 48;

/** Whether `signerId` may sign `document` now: it is pending, and the signer has not signed and is not waiting. */
export function signerCanSign(document: DocumentRecord, states: readonly SignerState[], signerId: string): boolean {
  if (document.status !== 'pending' || !document.signers.some((signer) => signer.id === signerId)) return false;
  const completed = new Set(states.filter((state) => state.completedAt !== null).map((state) => state.signerId));
  const status = signerStatus(document.signers, document.signingOrder, { completed, opened: new Set() }, signerId);
  return status === 'ready';
}

/**
 * Enqueues, in `tx`, the invitation of each signer of `document` with an `email` who may sign now (all of them in
 * parallel order; the first ones in sequential order), once per signer: a document without e-mail delivery gets none.
 * Resolves with how many were enqueued (the caller wakes the `invitation` kind after its commit).
 */
export async function enqueueInvitations(tx: Queryable, document: DocumentRecord, states?: readonly SignerState[]): Promise<number> {
  if (!document.delivery || document.status !== 'pending' || document.implicitSigner) return 0;
  const known = states ?? (await findSignerStates(tx.query, document.id));
  let enqueued = 0;
  for (const signer of document.signers) {
    if (!signer.email || !signerCanSign(document, known, signer.id)) continue;
    const id = await enqueueJob(tx, INVITATION_KIND, { documentId: document.id, signerId: signer.id }, { key: `${document.id}:${signer.id}` });
    if (id) enqueued += 1;
  }
  return enqueued;
}

/**
 * The origin of a document's signing links: `PUBLIC_BASE_URL`, else the one recorded when it was created (its
 * request's), else `fallback` (the request's, or the address the server listens on).
 */
export function signingLinkBase(config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>, document: DocumentRecord, fallback?: string): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  if (document.delivery?.linkBaseUrl) return document.delivery.linkBaseUrl;
  if (fallback) return fallback;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

/** The messages asking a signer to sign: an expiry notice is recorded (and audited) as a reminder. */
export type SignerMessageKind = 'invitation' | 'reminder' | 'expiring';

/** What writing a signer's message needs: the secret (of the links and the mail box) and the links' origin. */
export interface MessageContext {
  secret: string;
  base: string;
  now: Date;
}

/**
 * Queues an invitation or a reminder to `signerId` of `document` in `tx`, with a fresh link, and records it
 * (`signer.invited`, `signer.reminded`). `key` sends it once (a retried job); `sentBy` is `schedule`, or who asked.
 * Resolves with the signer's address, or null when the signer has none.
 */
export async function queueSignerMessage(
  tx: Queryable,
  context: MessageContext,
  document: DocumentRecord,
  message: { signerId: string; kind: SignerMessageKind; sentBy: string; key?: string },
): Promise<string | null> {
  const signer = document.signers.find((candidate) => candidate.id === message.signerId);
  if (!signer?.email) return null;
  const organizationName = await findOrganizationName(tx.query, document.organizationId);
  const { url, expiresAt } = signingLinkUrl(context.secret, context.base, document, signer.id, context.now);
  const mail = signingInvitationMessage({
    kind: message.kind,
    to: signer.email,
    signerName: signer.name,
    organizationName: organizationName ?? 'Signet',
    documentName: document.filename,
    url,
    expiresAt,
    locale: signer.locale,
  });
  const queued = await enqueueMail(tx, context.secret, mail, {
    purpose: message.kind,
    documentId: document.id,
    ...(message.key ? { key: message.key } : {}),
  });
  // A retried job whose message was queued before: it was recorded then.
  if (queued === null) return signer.email;
  const recorded = message.kind === 'invitation' ? 'invitation' : 'reminder';
  await recordSignerMessage(tx.query, document.id, { signerId: signer.id, kind: recorded, sentAt: context.now.toISOString(), sentBy: message.sentBy });
  return signer.email;
}

/** Enqueues the `n`th reminder of a signer per the document's schedule, if it has one and `n` is within its `max`. */
export async function scheduleReminder(tx: Queryable, document: DocumentRecord, signerId: string, n: number, now: Date): Promise<void> {
  const reminders = document.delivery?.reminders;
  if (!reminders || n > reminders.max) return;
  const days = n === 1 ? reminders.firstAfterDays : reminders.everyDays;
  await enqueueJob(tx, REMINDER_KIND, { documentId: document.id, signerId, n }, { key: `${document.id}:${signerId}:${n}`, runAt: new Date(now.getTime() + days * DAY_MS) });
}

/**
 * Enqueues the expiry notice of a signer of a document that expires (`expiresAt`), due `EXPIRY_NOTICE_HOURS` before
 * it; none when that time has passed already (the invitation said the deadline).
 */
export async function scheduleExpiryNotice(tx: Queryable, document: DocumentRecord, signerId: string, now: Date): Promise<void> {
  if (!document.expiresAt) return;
  const runAt = new Date(Date.parse(document.expiresAt) - EXPIRY_NOTICE_HOURS * 3_600_000);
  if (runAt.getTime() <= now.getTime()) return;
  await enqueueJob(tx, EXPIRY_NOTICE_KIND, { documentId: document.id, signerId }, { key: `${document.id}:${signerId}`, runAt });
}
