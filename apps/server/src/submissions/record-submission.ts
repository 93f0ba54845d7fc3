import { completeIdempotencyKey } from '../storage/queries/idempotency.js';
import { recordAuditEvent } from '../storage/queries/audit.js';
import { lockDocument, updateDocumentProgress } from '../storage/queries/documents.js';
import { findSignerStates, markSignerCompleted } from '../storage/queries/signers.js';
import { findSubmissionOfSigner, insertSubmission } from '../storage/queries/submissions.js';
import { enqueueSealJob } from '../storage/queries/seals.js';
import type { Queryable } from '../storage/sql-database.js';
import type { DocumentRecord, IdempotencyScope, SignerState, Storage, StoredSubmission } from '../storage/types.js';
import { enqueueWebhookEvent } from '../storage/queries/webhook-deliveries.js';
import { webhookEventsEnqueued } from '../webhooks/wake.js';
import { enqueueInvitations, INVITATION_KIND } from '../mail/delivery.js';
import { jobsEnqueued } from '../jobs/wake.js';

/** What `recordSubmission` did: stored this submission, or found the signer's own earlier one. */
export type RecordSubmissionOutcome =
  | { created: true; submission: StoredSubmission }
  | { created: false; existing: StoredSubmission };

/** `recordSubmission` of a document declined (or voided) before the submission's transaction: nothing is stored. */
export class DocumentDeclinedError extends Error {
  constructor(
    readonly documentId: string,
    readonly reason: 'declined' | 'voided' | 'expired' = 'declined',
  ) {
    super(`Document ${documentId} has been ${reason}`);
    this.name = 'DocumentDeclinedError';
  }
}

type Progress = Pick<SignerState, 'signerId' | 'submissionId'>;
type Outcome = 'created' | 'already-submitted' | 'document-completed' | 'document-declined' | 'document-voided' | 'document-expired';

/**
 * Stores a signer's submission in one group commit, durable before it resolves (docs/decisions.md, "Several signers
 * and session keys", "Exactly one completion"): the document's row lock first, so that of two signers finishing at
 * once the second sees the first's commit and exactly one completes the document. Stores the submission and the
 * signer's completion (`signer.completed`, not for the implicit signer); with the last signer, completes the
 * document: `document.submitted`, the seal job and `document.completed`; with `idempotency`, completes that claim
 * with the 201. The signer's earlier submission comes back as `existing`; a signer of a document completed without
 * them gets an error, and a declined document a `DocumentDeclinedError`.
 */
export async function recordSubmission(
  storage: Storage,
  submission: StoredSubmission,
  idempotency?: IdempotencyScope,
): Promise<RecordSubmissionOutcome> {
  const { outcome, enqueued, invited } = await storage.db.groupCommit((tx) => submitInTransaction(tx, submission, idempotency));
  if (outcome === 'created') {
    webhookEventsEnqueued(storage.db, enqueued);
    if (invited) jobsEnqueued(storage.db, INVITATION_KIND.name);
    return { created: true, submission };
  }
  if (outcome === 'document-declined') throw new DocumentDeclinedError(submission.documentId);
  if (outcome === 'document-voided') throw new DocumentDeclinedError(submission.documentId, 'voided');
  if (outcome === 'document-expired') throw new DocumentDeclinedError(submission.documentId, 'expired');
  const existing = await findSubmissionOfSigner(storage.db.query, submission.documentId, submission.signerId);
  if (!existing) throw new Error(`Cannot record a submission: document ${submission.documentId} is completed`);
  return { created: false, existing };
}

async function submitInTransaction(
  tx: Queryable,
  submission: StoredSubmission,
  idempotency: IdempotencyScope | undefined,
): Promise<{ outcome: Outcome; enqueued: number; invited?: number }> {
  const { documentId, signerId, receivedAt } = submission;
  const document = await lockDocument(tx.query, documentId);
  if (!document) throw new Error(`Cannot record a submission: no document ${documentId}`);
  if (document.voided || document.erased) return { outcome: 'document-voided', enqueued: 0 };
  if (document.declined) return { outcome: 'document-declined', enqueued: 0 };
  if (document.status === 'expired') return { outcome: 'document-expired', enqueued: 0 };
  // One signer: the submission completes the document, so a completed one means it was submitted.
  if (document.signers.length > 1 && (await findSubmissionOfSigner(tx.query, documentId, signerId))) {
    return { outcome: 'already-submitted', enqueued: 0 };
  }
  if (document.status !== 'pending') {
    return { outcome: document.signers.length > 1 ? 'document-completed' : 'already-submitted', enqueued: 0 };
  }

  await insertSubmission(tx.query, submission);
  await markSignerCompleted(tx.query, documentId, signerId, submission.id, receivedAt);
  const states: Progress[] = document.signers.length > 1 ? await findSignerStates(tx.query, documentId) : [{ signerId, submissionId: submission.id }];
  const remaining = states.filter((state) => state.submissionId === null).length;
  let enqueued = document.implicitSigner ? 0 : await enqueueWebhookEvent(tx.query, signerCompletedEvent(document, submission, remaining));
  // In sequential order the next signers' turn may have come: their invitations by e-mail (docs/email.md).
  const invited = remaining > 0 && document.signingOrder === 'sequential' ? await enqueueInvitations(tx, document) : 0;
  await updateDocumentProgress(tx.query, documentId, receivedAt, remaining === 0);
  if (remaining === 0) {
    // The audit event and the seal job commit with the submission, or not at all (the outbox).
    await recordAuditEvent(tx.query, documentId, {
      type: 'document.submitted',
      occurredAt: receivedAt,
      ip: submission.clientIp,
      userAgent: submission.userAgent,
    });
    await enqueueSealJob(tx.query, documentId, submission.id, receivedAt);
    enqueued += await enqueueWebhookEvent(tx.query, documentCompletedEvent(document, submission, states));
  }
  if (idempotency) await completeIdempotencyKey(tx.query, idempotency, 201, JSON.stringify(submission.result));
  return { outcome: 'created', enqueued, invited };
}

/** `signer.completed`: who completed, with which submission, and how many signers are left. */
function signerCompletedEvent(document: DocumentRecord, submission: StoredSubmission, remaining: number) {
  const { documentId, signerId, receivedAt } = submission;
  const signerName = document.signers.find((signer) => signer.id === signerId)?.name ?? signerId;
  return {
    type: 'signer.completed',
    organizationId: document.organizationId,
    documentId,
    occurredAt: receivedAt,
    data: { documentId, signerId, signerName, submissionId: submission.id, completedAt: receivedAt, remaining },
  };
}

/** `document.completed`: the last submission, and (with signers) each signer's, in the document's order. */
function documentCompletedEvent(document: DocumentRecord, submission: StoredSubmission, states: readonly Progress[]) {
  const { documentId, receivedAt } = submission;
  const order = new Map(document.signers.map((signer, index) => [signer.id, index]));
  const bySigner = states
    .map((state) => ({ signerId: state.signerId, submissionId: state.submissionId! }))
    .sort((a, b) => order.get(a.signerId)! - order.get(b.signerId)!);
  return {
    type: 'document.completed',
    organizationId: document.organizationId,
    documentId,
    occurredAt: receivedAt,
    data: {
      documentId,
      submissionId: submission.id,
      submittedAt: receivedAt,
      checksum: submission.checksum,
      ...(document.implicitSigner ? {} : { signers: bySigner }),
    },
  };
}
