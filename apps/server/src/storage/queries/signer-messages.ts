import { randomUUID } from 'node:crypto';
import type { Db } from '../typed-queries.js';
import type { IsoTime } from '../types.js';
import { toIso, toMillis } from '../schema.js';

/*
 * The invitations and reminders queued to a document's signers (`signer_messages`, docs/email.md): what the audit
 * trail shows as `signer.invited` and `signer.reminded`, and what spaces and counts reminders. No address, no link.
 */

/** One message queued to a signer. */
export interface SignerMessage {
  signerId: string;
  kind: 'invitation' | 'reminder';
  sentAt: IsoTime;
  /** `schedule` (the document's delivery), or the API key's id (or `cli`) that asked for it. */
  sentBy: string;
}

/** Records a message queued to a signer, in the transaction that queues it. */
export async function recordSignerMessage(db: Db, documentId: string, message: SignerMessage): Promise<void> {
  await db
    .insertInto('signer_messages')
    .values({
      id: randomUUID(),
      document_id: documentId,
      signer_id: message.signerId,
      kind: message.kind,
      sent_at: toMillis(message.sentAt),
      sent_by: message.sentBy,
    })
    .execute();
}

/** A document's messages (of one signer, with `signerId`), oldest first. */
export async function listSignerMessages(db: Db, documentId: string, signerId?: string): Promise<SignerMessage[]> {
  let query = db.selectFrom('signer_messages').select(['signer_id', 'kind', 'sent_at', 'sent_by']).where('document_id', '=', documentId);
  if (signerId !== undefined) query = query.where('signer_id', '=', signerId);
  const rows = await query.orderBy('sent_at').orderBy('id').execute();
  return rows.map((row) => ({ signerId: row.signer_id, kind: row.kind, sentAt: toIso(row.sent_at), sentBy: row.sent_by }));
}
