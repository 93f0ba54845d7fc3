import type { DocumentTombstone } from '@signet/contract';
import { ApiError } from '../errors.js';
import { eraseDocumentContent, findDocument, lockDocument } from '../storage/queries/documents.js';
import { revokeDocumentKeys } from '../storage/queries/api-keys.js';
import { findSealState } from '../storage/queries/seals.js';
import type { DocumentRecord, Storage } from '../storage/types.js';
import type { Db } from '../storage/typed-queries.js';
import type { SqlDatabase } from '../storage/sql-database.js';
import { dropPendingDocumentJobs } from '../jobs/generic-queue.js';
import { DOCUMENT_MAIL_KINDS } from '../mail/message.js';

/** What is left of an erased document (docs/lifecycle.md). */
export async function tombstoneOf(db: Db, document: DocumentRecord): Promise<DocumentTombstone> {
  const { sealed } = await findSealState(db, document.id);
  return {
    id: document.id,
    sha256: document.sha256,
    ...(sealed ? { sealedSha256: sealed.sha256 } : {}),
    createdAt: document.createdAt,
    erasedAt: document.erased!.at,
    erasedBy: document.erased!.by,
  };
}

/** The 404 of any request about an erased document but its audit trail: it is unknown from then on. */
export function erasedNotFound(document: Pick<DocumentRecord, 'id' | 'erased'>): ApiError {
  return new ApiError('DOCUMENT_NOT_FOUND', `Document ${document.id} was erased`, { details: { reason: 'erased', erasedAt: document.erased!.at } });
}

/**
 * Erases a document's content (docs/lifecycle.md) in one transaction under its row's lock and revokes its session
 * and builder session keys; resolves with the keys revoked, or null when there is no such document or it was erased
 * already. What the retention job calls (`retention.ts`); the API's answers come from `eraseDocument`.
 */
export async function eraseDocumentOnce(db: SqlDatabase, documentId: string, erased: { at: string; by: string }): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    const document = await lockDocument(tx.query, documentId);
    if (!document || document.erased) return null;
    await eraseDocumentContent(tx.query, document, erased);
    // Its queued messages hold its signers' addresses and links: they go with it (docs/email.md).
    await dropPendingDocumentJobs(tx, DOCUMENT_MAIL_KINDS, documentId);
    return revokeDocumentKeys(tx.query, documentId, erased.at);
  });
}

/**
 * `eraseDocumentOnce` with the API's answers: resolves with the tombstone and the keys revoked; 404 when there is no
 * such document, 410 `DOCUMENT_ERASED` (with the tombstone in `details`) when it was erased already.
 */
export async function eraseDocument(
  storage: Pick<Storage, 'db'>,
  documentId: string,
  erased: { at: string; by: string },
): Promise<{ tombstone: DocumentTombstone; revokedKeys: string[] }> {
  const revokedKeys = await eraseDocumentOnce(storage.db, documentId, erased);
  // Found after the transaction: a document's row is never deleted, and an erasure is final.
  const document = await findDocument(storage.db.query, documentId);
  if (!document) throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} not found`);
  const tombstone = await tombstoneOf(storage.db.query, document);
  if (revokedKeys === null) {
    throw new ApiError('DOCUMENT_ERASED', `Document ${documentId} was erased at ${document.erased!.at}`, { details: { ...tombstone } });
  }
  return { tombstone, revokedKeys };
}
