import { declineDocument as declineRow, findDocument } from '../storage/queries/documents.js';
import type { DocumentDecline, DocumentRecord, Storage } from '../storage/types.js';
import { enqueueDocumentEvent } from '../storage/queries/webhook-deliveries.js';
import { webhookEventsEnqueued } from '../webhooks/wake.js';

/**
 * Declines a pending document and enqueues `document.declined`, in one transaction (docs/decisions.md, "Declining").
 * Resolves with the document as it stands after: declined by this call, declined earlier (its first decline kept),
 * or completed (then untouched); null when there is no such document.
 */
export async function declineDocument(
  storage: Storage,
  documentId: string,
  decline: DocumentDecline & { signerName?: string },
): Promise<DocumentRecord | null> {
  const enqueued = await storage.db.transaction(async (tx) => {
    if (!(await declineRow(tx.query, documentId, decline))) return 0;
    return enqueueDocumentEvent(tx.query, documentId, {
      type: 'document.declined',
      occurredAt: decline.at,
      data: {
        documentId,
        reason: decline.reason,
        declinedAt: decline.at,
        ...(decline.signerId ? { signerId: decline.signerId, signerName: decline.signerName ?? decline.signerId } : {}),
      },
    });
  });
  webhookEventsEnqueued(storage.db, enqueued);
  return findDocument(storage.db.query, documentId);
}
