import { ApiError } from '../errors.js';
import { findDocument, lockDocument, voidDocument as voidRow } from '../storage/queries/documents.js';
import { revokeDocumentKeys } from '../storage/queries/api-keys.js';
import { enqueueDocumentEvent } from '../storage/queries/webhook-deliveries.js';
import type { DocumentRecord, DocumentVoid, Storage } from '../storage/types.js';
import { webhookEventsEnqueued } from '../webhooks/wake.js';

/** Statuses whose signing has ended: a document in one of them cannot be voided (docs/lifecycle.md). */
const CLOSED = new Set(['completed', 'declined', 'voided', 'expired']);

/** The 409 `DOCUMENT_CLOSED` of a void of a document whose signing has ended. */
export function documentClosed(document: Pick<DocumentRecord, 'id' | 'status'>): ApiError {
  return new ApiError('DOCUMENT_CLOSED', `Document ${document.id} is ${document.status}: it can no longer be voided`, {
    details: { status: document.status, reason: `a ${document.status} document cannot be voided` },
  });
}

/** The 409 of signing, declining or opening a voided document (`details.reason: "voided"`). */
export function voidedNotSignable(document: Pick<DocumentRecord, 'id'>): ApiError {
  return new ApiError('SUBMISSION_FAILED', `Document ${document.id} has been voided`, { details: { reason: 'voided' } });
}

/**
 * Voids a document that is pending or a draft (docs/lifecycle.md), in one transaction under its row's lock: the row
 * reads `voided` from now on, every session and builder session key of it is revoked (and with them the document
 * tokens they obtained; the token check refuses a voided document's other tokens), and `document.voided` is
 * enqueued. Resolves with the voided document and the ids of the keys revoked; 404 when there is no such document,
 * 409 `DOCUMENT_CLOSED` when its signing has ended.
 */
export async function voidDocument(storage: Storage, documentId: string, voided: DocumentVoid): Promise<{ document: DocumentRecord; revokedKeys: string[] }> {
  const { revokedKeys, enqueued } = await storage.db.transaction(async (tx) => {
    const document = await lockDocument(tx.query, documentId);
    if (!document) throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} not found`);
    if (document.erased) throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} was erased`, { details: { reason: 'erased' } });
    if (CLOSED.has(document.status) || !(await voidRow(tx.query, documentId, voided))) throw documentClosed(document);
    const keys = await revokeDocumentKeys(tx.query, documentId, voided.at);
    const count = await enqueueDocumentEvent(tx.query, documentId, {
      type: 'document.voided',
      occurredAt: voided.at,
      data: { documentId, reason: voided.reason, voidedAt: voided.at },
    });
    return { revokedKeys: keys, enqueued: count };
  });
  webhookEventsEnqueued(storage.db, enqueued);
  const document = await findDocument(storage.db.query, documentId);
  return { document: document!, revokedKeys };
}
