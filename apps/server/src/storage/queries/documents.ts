import type { DocumentStatus, Reminders } from '@signet/contract';
import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import { IMPLICIT_SIGNER, type DocumentCursor, type DocumentDecline, type DocumentRecord, type DocumentVoid, type IsoTime } from '../types.js';
import { prepare } from '../prepared.js';
import { toIso, toMillis } from '../schema.js';
import { storedSignersJson } from './signers.js';

/*
 * Documents: the `documents` row (fields and signers as JSON, the decline beside the status). Their files are in
 * `document-files.ts`, their signers' states in `signers.ts`.
 */

type DocumentRow = Tables['documents'];

/**
 * The status a row reads as: `voided`, `draft` and `declined` before its status column, and a pending one whose
 * `expires_at` has passed `expired`, computed now (docs/lifecycle.md).
 */
function statusOf(row: DocumentRow): DocumentStatus {
  if (row.voided_at !== null) return 'voided';
  if (row.draft === 1) return 'draft';
  if (row.declined_at !== null) return 'declined';
  if (row.status === 'pending' && row.expires_at !== null && row.expires_at <= Date.now()) return 'expired';
  return row.status as DocumentStatus;
}

/** A `documents` row as a record: `draft` while a draft, `declined` once declined, `voided` once voided. */
export function toDocument(row: DocumentRow): DocumentRecord {
  const signers = JSON.parse(row.signers) as DocumentRecord['signers'];
  return {
    id: row.id,
    organizationId: row.organization_id,
    filename: row.filename,
    mimeType: row.mime_type,
    pageCount: row.page_count,
    fileSize: row.file_size,
    sha256: row.sha256,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    version: row.version,
    status: statusOf(row),
    fields: JSON.parse(row.fields) as DocumentRecord['fields'],
    signers,
    signingOrder: row.signing_order,
    implicitSigner: signers.length === 1 && signers[0]!.id === IMPLICIT_SIGNER.id,
    ...(row.declined_at === null
      ? {}
      : {
          declined: {
            reason: row.decline_reason ?? '',
            at: toIso(row.declined_at),
            signerId: row.declined_by,
            ip: row.declined_ip,
            userAgent: row.declined_user_agent,
          },
        }),
    ...(row.sent_at === null ? {} : { sentAt: toIso(row.sent_at) }),
    ...(row.expires_at === null ? {} : { expiresAt: toIso(row.expires_at) }),
    ...(row.erased_at === null ? {} : { erased: { at: toIso(row.erased_at), by: row.erased_by ?? '' } }),
    ...(row.voided_at === null ? {} : { voided: { reason: row.void_reason ?? '', at: toIso(row.voided_at), keyId: row.voided_by ?? '' } }),
    ...(row.template_id === null ? {} : { template: { id: row.template_id, version: row.template_version ?? 1 } }),
    ...(row.delivery === 'email'
      ? {
          delivery: {
            ...(row.reminders === null ? {} : { reminders: JSON.parse(row.reminders) as Reminders }),
            ...(row.link_base_url === null ? {} : { linkBaseUrl: row.link_base_url }),
          },
        }
      : {}),
  };
}

/** A new document's row, in the caller's transaction (its signers, file and events are the caller's to add). */
export async function insertDocument(db: Db, document: DocumentRecord): Promise<void> {
  await db
    .insertInto('documents')
    .values({
      id: document.id,
      organization_id: document.organizationId,
      filename: document.filename,
      mime_type: document.mimeType,
      page_count: document.pageCount,
      file_size: document.fileSize,
      sha256: document.sha256,
      fields: JSON.stringify(document.fields),
      status: document.status === 'completed' ? 'completed' : 'pending',
      version: document.version,
      created_at: toMillis(document.createdAt),
      updated_at: toMillis(document.updatedAt),
      signers: storedSignersJson(document.signers),
      signing_order: document.signingOrder,
      declined_at: document.declined ? toMillis(document.declined.at) : null,
      decline_reason: document.declined?.reason ?? null,
      declined_by: document.declined?.signerId ?? null,
      declined_ip: document.declined?.ip ?? null,
      declined_user_agent: document.declined?.userAgent ?? null,
      draft: document.status === 'draft' ? 1 : 0,
      sent_at: document.sentAt ? toMillis(document.sentAt) : null,
      voided_at: document.voided ? toMillis(document.voided.at) : null,
      void_reason: document.voided?.reason ?? null,
      voided_by: document.voided?.keyId ?? null,
      expires_at: document.expiresAt ? toMillis(document.expiresAt) : null,
      expired_at: null,
      erased_at: null,
      erased_by: null,
      template_id: document.template?.id ?? null,
      template_version: document.template?.version ?? null,
      delivery: document.delivery ? 'email' : null,
      reminders: document.delivery?.reminders ? JSON.stringify(document.delivery.reminders) : null,
      link_base_url: document.delivery?.linkBaseUrl ?? null,
    })
    .execute();
}

const DOCUMENT_BY_ID = prepare((db, id) => db.selectFrom('documents').selectAll().where('id', '=', id as string), 1);
const LOCKED_DOCUMENT_BY_ID = prepare((db, id) => db.selectFrom('documents').selectAll().where('id', '=', id as string).forUpdate(), 1);

/** The document with this id, or null. */
export async function findDocument(db: Db, id: string): Promise<DocumentRecord | null> {
  const [row] = (await DOCUMENT_BY_ID(db, id)).rows;
  return row ? toDocument(row) : null;
}

/**
 * The document with this id, its row locked until the caller's transaction ends (on SQLite the transaction holds the
 * write lock already), or null.
 */
export async function lockDocument(db: Db, id: string): Promise<DocumentRecord | null> {
  const [row] = (await LOCKED_DOCUMENT_BY_ID(db, id)).rows;
  return row ? toDocument(row) : null;
}

/** An organization's documents, newest first by (createdAt, id); strictly after `after` when given. */
export async function listDocuments(db: Db, organizationId: string, options: { limit: number; after?: DocumentCursor }): Promise<DocumentRecord[]> {
  const { limit, after } = options;
  let query = db.selectFrom('documents').selectAll().where('organization_id', '=', organizationId).where('erased_at', 'is', null);
  if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(toMillis(after.createdAt), after.id)));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toDocument);
}

const COMPLETE_DOCUMENT = prepare(
  (db, at, id) => db.updateTable('documents').set({ status: 'completed', updated_at: at as number }).where('id', '=', id as string),
  2,
);
const TOUCH_DOCUMENT = prepare((db, at, id) => db.updateTable('documents').set({ updated_at: at as number }).where('id', '=', id as string), 2);

/** Marks a document completed (or, `completed` false, only touches it) at `at`. */
export async function updateDocumentProgress(db: Db, id: string, at: IsoTime, completed: boolean): Promise<void> {
  await (completed ? COMPLETE_DOCUMENT : TOUCH_DOCUMENT)(db, toMillis(at), id);
}

/** Declines a pending document no one declined yet; false when it was completed or declined already. */
export async function declineDocument(db: Db, id: string, decline: DocumentDecline): Promise<boolean> {
  const at = toMillis(decline.at);
  const result = await db
    .updateTable('documents')
    .set({
      declined_at: at,
      decline_reason: decline.reason,
      declined_by: decline.signerId,
      declined_ip: decline.ip,
      declined_user_agent: decline.userAgent,
      updated_at: at,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('declined_at', 'is', null)
    .where('voided_at', 'is', null)
    .where('draft', '=', 0)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Voids a document whose signing has not ended (pending or a draft; not completed, declined or voided), raising its
 * version; false when it has ended. The caller holds the row's lock and revokes its keys in the same transaction.
 */
export async function voidDocument(db: Db, id: string, voided: DocumentVoid): Promise<boolean> {
  const at = toMillis(voided.at);
  const result = await db
    .updateTable('documents')
    .set((eb) => ({ voided_at: at, void_reason: voided.reason, voided_by: voided.keyId, updated_at: at, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('declined_at', 'is', null)
    .where('voided_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Records that a document has expired (`expired_at`), once: true when this call did, false when it had been
 * recorded already or the document is not expired at `now` (completed, declined, voided, no expiry or not yet).
 */
export async function markDocumentExpired(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('documents')
    .set((eb) => ({ expired_at: eb.ref('expires_at') }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('draft', '=', 0)
    .where('declined_at', 'is', null)
    .where('voided_at', 'is', null)
    .where('expired_at', 'is', null)
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Erases a document's content in the caller's transaction, under its row's lock (docs/lifecycle.md): the PDF, its
 * preview, the sealed copy's bytes and any seal job are deleted; the submissions keep their checksums and times but
 * not their values or signature images; the row keeps its id, SHA-256 and times and clears its filename, fields,
 * reasons and signers' emails, and records when and by whom it was erased.
 */
export async function eraseDocumentContent(db: Db, document: DocumentRecord, erased: { at: IsoTime; by: string }): Promise<void> {
  await db.deleteFrom('document_chunks').where('document_id', '=', document.id).execute();
  await db.deleteFrom('document_previews').where('document_id', '=', document.id).execute();
  await db.deleteFrom('sealed_chunks').where('document_id', '=', document.id).execute();
  await db.deleteFrom('seal_jobs').where('document_id', '=', document.id).execute();
  await db.updateTable('submissions').set({ payload: '{}', seal_images: null }).where('document_id', '=', document.id).execute();
  const signers = document.signers.map(({ email: _email, ...signer }) => signer);
  await db
    .updateTable('documents')
    .set({
      filename: 'erased',
      fields: '[]',
      signers: JSON.stringify(signers),
      decline_reason: null,
      void_reason: null,
      erased_at: toMillis(erased.at),
      erased_by: erased.by,
      updated_at: toMillis(erased.at),
    })
    .where('id', '=', document.id)
    .execute();
}
