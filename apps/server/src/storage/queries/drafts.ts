import type { FieldDefinition, SignerDefinition, SigningOrder } from '@signet/contract';
import type { Db } from '../typed-queries.js';
import type { IsoTime } from '../types.js';
import { toMillis } from '../schema.js';
import { storedSignersJson } from './signers.js';

/*
 * A draft's changes (docs/api.md, "Drafts"): its content replaced, and its sending. Each raises the document's
 * version; the caller locks the row and checks the version it was asked for first (`lockDocument`).
 */

/** Replaces a draft's fields, signers and signing order (its `document_signers` rows are the caller's). */
export async function replaceDraftContent(
  db: Db,
  id: string,
  content: { fields: readonly FieldDefinition[]; signers: readonly SignerDefinition[]; signingOrder: SigningOrder; at: IsoTime },
): Promise<void> {
  await db
    .updateTable('documents')
    .set((eb) => ({
      fields: JSON.stringify(content.fields),
      signers: storedSignersJson(content.signers),
      signing_order: content.signingOrder,
      version: eb('version', '+', 1),
      updated_at: toMillis(content.at),
    }))
    .where('id', '=', id)
    .where('draft', '=', 1)
    .execute();
}

/** Removes the `document_signers` rows of a draft, whose signers are being replaced (nobody has opened a draft). */
export async function deleteDraftSigners(db: Db, id: string): Promise<void> {
  await db.deleteFrom('document_signers').where('document_id', '=', id).execute();
}

/** Marks a draft sent at `at`: from now on it is `pending`, signable, and no longer editable. */
export async function markDraftSent(db: Db, id: string, at: IsoTime): Promise<void> {
  await db
    .updateTable('documents')
    .set((eb) => ({ draft: 0, sent_at: toMillis(at), version: eb('version', '+', 1), updated_at: toMillis(at) }))
    .where('id', '=', id)
    .where('draft', '=', 1)
    .execute();
}
