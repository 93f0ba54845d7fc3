import { draftProblems, type FieldDefinition, type SignerDefinition, type SigningOrder } from '@signet/contract';
import { ApiError, validationError } from '../errors.js';
import { assertVersion, type IfMatch } from '../http/if-match.js';
import { findDocument, lockDocument } from '../storage/queries/documents.js';
import { deleteDraftSigners, markDraftSent, replaceDraftContent } from '../storage/queries/drafts.js';
import { protectAccessCodes } from '../signer-auth/codes.js';
import { insertSigners } from '../storage/queries/signers.js';
import { IMPLICIT_SIGNER, type DocumentRecord, type IsoTime, type Storage } from '../storage/types.js';
import { enqueueWebhookEvent } from '../storage/queries/webhook-deliveries.js';
import { webhookEventsEnqueued } from '../webhooks/wake.js';
import { enqueueInvitations, INVITATION_KIND } from '../mail/delivery.js';
import { jobsEnqueued } from '../jobs/wake.js';
import type { Queryable } from '../storage/sql-database.js';
import { contentIssues } from './create-document.js';
import { unsafePatternIssues } from './pattern-safety.js';

/*
 * Drafts (docs/api.md, "Drafts"; docs/decisions.md, "Drafts and builder sessions"): a draft's content is replaced
 * whole, and it is sent once, each under the row's lock with the version the caller saw checked.
 */

/** A draft's new content, as `PUT /documents/{id}/draft` takes it (already of the contract's shape). */
export interface DraftContent {
  fields: FieldDefinition[];
  signers?: SignerDefinition[] | undefined;
  signingOrder?: SigningOrder | undefined;
}

/**
 * The 409 `DOCUMENT_NOT_DRAFT` of an edit or a send of a document that is no draft, or the 409
 * `SUBMISSION_FAILED` of signing one that is (`details.reason: "draft"`).
 */
export function notDraft(document: DocumentRecord): ApiError {
  return new ApiError('DOCUMENT_NOT_DRAFT', `Document ${document.id} is not a draft: it was sent and can no longer be changed`, {
    details: { status: document.status, reason: 'only a draft can be edited or sent' },
  });
}

/** The 409 for a draft asked to be signed, declined or opened for signing. */
export function draftNotSignable(document: DocumentRecord): ApiError {
  return new ApiError('SUBMISSION_FAILED', `Document ${document.id} is a draft: it cannot be signed until it is sent`, {
    details: { reason: 'draft' },
  });
}

/** The locked document of a draft change, checked: a draft (else 409), at the version asked for (else 412). */
async function lockedDraft(db: Queryable, documentId: string, expected: IfMatch): Promise<DocumentRecord> {
  const document = await lockDocument(db.query, documentId);
  if (!document) throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} not found`);
  if (document.status !== 'draft') throw notDraft(document);
  assertVersion(expected, document.version);
  return document;
}

/**
 * Replaces a draft's fields, signers and signing order, checked as at creation but for what a field still being set
 * up may lack (`contentIssues`, 400 naming the first); raises its version. Without `signers` it has the implicit one.
 * @example await replaceDraft(storage, document, { fields, signers }, { any: false, tags: ['"3"'] }, now)
 */
export async function replaceDraft(
  storage: Storage,
  document: DocumentRecord,
  content: DraftContent,
  expected: IfMatch,
  at: IsoTime,
): Promise<DocumentRecord> {
  if (content.signingOrder !== undefined && content.signers === undefined) {
    throw validationError('signingOrder', 'applies only to a document with "signers"');
  }
  const issue = contentIssues(content.fields, content.signers, document.pageCount, true)[0];
  if (issue) throw validationError(issue.field, issue.reason);
  const signers = content.signers ? await protectAccessCodes(content.signers) : [{ ...IMPLICIT_SIGNER }];
  return storage.db.transaction(async (tx) => {
    await lockedDraft(tx, document.id, expected);
    await replaceDraftContent(tx.query, document.id, { fields: content.fields, signers, signingOrder: content.signingOrder ?? 'parallel', at });
    await deleteDraftSigners(tx.query, document.id);
    await insertSigners(tx.query, document.id, signers);
    return (await findDocument(tx.query, document.id))!;
  });
}

/**
 * Sends a draft: every problem `draftProblems` finds (and patterns that could take exponential time) is a 422
 * listing them all in `details.problems`; else it becomes `pending`, and `document.sent` is recorded and enqueued in
 * the same transaction.
 * @example const sent = await sendDraft(storage, document.id, { any: true }, new Date().toISOString())
 */
export async function sendDraft(storage: Storage, documentId: string, expected: IfMatch, at: IsoTime): Promise<DocumentRecord> {
  const { document, enqueued } = await storage.db.transaction(async (tx) => {
    const draft = await lockedDraft(tx, documentId, expected);
    const problems = [
      ...draftProblems({ fields: draft.fields, signers: draft.implicitSigner ? undefined : draft.signers, pageCount: draft.pageCount }),
      ...unsafePatternIssues(draft.fields),
    ];
    if (problems.length > 0) {
      const [first] = problems;
      throw new ApiError('VALIDATION_ERROR', `The draft cannot be sent yet: ${problems.length} problem${problems.length === 1 ? '' : 's'}`, {
        status: 422,
        details: { field: first!.field, reason: first!.reason, problems },
      });
    }
    await markDraftSent(tx.query, documentId, at);
    const sent = (await findDocument(tx.query, documentId))!;
    // Sent with delivery by e-mail: its signers are invited now (docs/email.md).
    await enqueueInvitations(tx, sent);
    const enqueued = await enqueueWebhookEvent(tx.query, {
      type: 'document.sent',
      organizationId: sent.organizationId,
      documentId,
      occurredAt: at,
      data: { documentId, sentAt: at, version: sent.version },
    });
    return { document: sent, enqueued };
  });
  webhookEventsEnqueued(storage.db, enqueued);
  if (document.delivery) jobsEnqueued(storage.db, INVITATION_KIND.name);
  return document;
}
