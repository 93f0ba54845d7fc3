import { recordAuditEvent } from '../storage/queries/audit.js';
import { markSignerOpened } from '../storage/queries/signers.js';
import type { NewAuditEvent, Storage } from '../storage/types.js';
import { enqueueDocumentEvent } from '../storage/queries/webhook-deliveries.js';
import { webhookEventsEnqueued } from '../webhooks/wake.js';

/*
 * Openings: the document's first (its file fetched by anyone: `document.opened`, webhook `document.viewed`) and each
 * signer's first (their session key's first `GET /sdk/documents/{id}`: `signer.opened`). Later openings change nothing.
 */

/** Records the first opening of a document and enqueues `document.viewed`, in one transaction. */
export async function recordDocumentOpened(storage: Storage, documentId: string, event: Omit<NewAuditEvent, 'type'>): Promise<void> {
  const enqueued = await storage.db.transaction(async (tx) => {
    const first = await recordAuditEvent(tx.query, documentId, { ...event, type: 'document.opened' });
    if (!first) return 0;
    return enqueueDocumentEvent(tx.query, documentId, {
      type: 'document.viewed',
      occurredAt: event.occurredAt,
      data: { documentId, viewedAt: event.occurredAt },
    });
  });
  webhookEventsEnqueued(storage.db, enqueued);
}

/** Records a signer's first opening and enqueues `signer.opened`, in one transaction; false when it was not the first. */
export async function recordSignerOpened(
  storage: Storage,
  documentId: string,
  signer: { id: string; name: string },
  event: Omit<NewAuditEvent, 'type'>,
): Promise<boolean> {
  const { first, enqueued } = await storage.db.transaction(async (tx) => {
    if (!(await markSignerOpened(tx.query, documentId, signer.id, event))) return { first: false, enqueued: 0 };
    const enqueued = await enqueueDocumentEvent(tx.query, documentId, {
      type: 'signer.opened',
      occurredAt: event.occurredAt,
      data: { documentId, signerId: signer.id, signerName: signer.name, openedAt: event.occurredAt },
    });
    return { first: true, enqueued };
  });
  webhookEventsEnqueued(storage.db, enqueued);
  return first;
}
