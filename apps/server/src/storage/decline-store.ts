import type { AuditEvent } from '@signet/contract';
import { toMillis } from './schema.js';
import type { Queryable, SqlDatabase } from './sql-database.js';
import * as webhooks from './webhook-store.js';
import type { DocumentDecline } from './types.js';

/*
 * Declined documents: the decline on the document's row, its webhook event, and its audit event (derived
 * from the row, like the signers' events).
 */

/**
 * Declines a pending document that no one declined yet, with `document.declined`, in one transaction; resolves with
 * whether this call declined it and what it enqueued.
 */
export async function declineDocument(
  db: SqlDatabase,
  documentId: string,
  decline: DocumentDecline & { signerName?: string },
): Promise<{ declined: boolean; enqueued: number }> {
  return db.transaction(async (tx) => {
    const at = toMillis(decline.at);
    const declined = await tx.run(
      `UPDATE documents SET declined_at = ?, decline_reason = ?, declined_by = ?, declined_ip = ?, declined_user_agent = ?,
         updated_at = ?
       WHERE id = ? AND status = 'pending' AND declined_at IS NULL`,
      [at, decline.reason, decline.signerId, decline.ip, decline.userAgent, at, documentId],
    );
    if (declined !== 1) return { declined: false, enqueued: 0 };
    const enqueued = await webhooks.enqueueDocumentEvent(tx, documentId, {
      type: 'document.declined',
      occurredAt: decline.at,
      data: {
        documentId,
        reason: decline.reason,
        declinedAt: decline.at,
        ...(decline.signerId ? { signerId: decline.signerId, signerName: decline.signerName ?? decline.signerId } : {}),
      },
    });
    return { declined: true, enqueued };
  });
}

/** A declined document's `document.declined` audit event, or none. */
export async function declineEvents(db: Queryable, documentId: string): Promise<AuditEvent[]> {
  const row = await db.get<{ declined_at: number | string | null; declined_ip: string | null; declined_user_agent: string | null }>(
    'SELECT declined_at, declined_ip, declined_user_agent FROM documents WHERE id = ?',
    [documentId],
  );
  if (!row || row.declined_at === null) return [];
  return [{ type: 'document.declined', occurredAt: new Date(Number(row.declined_at)).toISOString(), ip: row.declined_ip, userAgent: row.declined_user_agent }];
}
