import type { AuditEvent, AuditEventType } from '@signet/contract';
import { writeChunks } from './chunks.js';
import { toMillis } from './schema.js';
import {
  AUDIT_EVENT_COLUMNS,
  byOccurrence,
  toAuditEvent,
  toSealJob,
  toSealedDocument,
  type AuditEventRow,
} from './sealing-rows.js';
import type { Queryable, SqlDatabase } from './sql-database.js';
import type { NewAuditEvent, SealJob, SealJobStatus, SealState, SealedDocument } from './types.js';

/*
 * The sealing half of `SqlStorage` (its `Storage` methods delegate here): the audit trail, the seal jobs' outbox
 * and the sealed files, on both engines.
 */

const INSERT_EVENT = `INSERT INTO audit_events (id, document_id, type, occurred_at, ip, user_agent)
  VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;

/** Each type of event happens once per document, so its id is made of both (the upgrade's backfill names them so). */
const eventId = (documentId: string, type: AuditEventType): string => `evt_${type.slice('document.'.length)}_${documentId}`;

/**
 * Records an event unless the document has one of its type already; `tx` is the caller's transaction when the
 * event belongs to a change it makes (a new document, a submission, a seal).
 */
export async function recordAuditEvent(tx: Queryable, documentId: string, event: NewAuditEvent): Promise<boolean> {
  const inserted = await tx.run(INSERT_EVENT, [
    eventId(documentId, event.type),
    documentId,
    event.type,
    toMillis(event.occurredAt),
    event.ip ?? null,
    event.userAgent ?? null,
  ]);
  return inserted === 1;
}

/** Enqueues the seal of a just-completed document, in the transaction that completed it (once per document). */
export async function enqueueSealJob(tx: Queryable, documentId: string, submissionId: string, at: string): Promise<void> {
  const ms = toMillis(at);
  await tx.query
    .insertInto('seal_jobs')
    .values({ document_id: documentId, submission_id: submissionId, status: 'pending', attempts: 0, run_at: ms, created_at: ms, updated_at: ms })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

export async function listAuditEvents(db: SqlDatabase, documentId: string): Promise<AuditEvent[]> {
  const rows = await db.all<AuditEventRow>(`SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_events WHERE document_id = ?`, [documentId]);
  return rows.map(toAuditEvent).sort(byOccurrence);
}

/**
 * Stores a sealed PDF (its record and its bytes, chunked) in `tx`: the seal kind's completion, after its lease check
 * (`sealing/seal-kind.ts`).
 */
export async function storeSealedDocument(tx: Queryable, sealed: SealedDocument, content: Uint8Array): Promise<void> {
  if (sealed.fileSize !== content.length) {
    throw new Error(`Sealed ${sealed.documentId}: fileSize ${sealed.fileSize} differs from its ${content.length} bytes`);
  }
  await tx.query
    .insertInto('sealed_documents')
    .values({
      document_id: sealed.documentId,
      submission_id: sealed.submissionId,
      sha256: sealed.sha256,
      file_size: sealed.fileSize,
      sealed_at: toMillis(sealed.sealedAt),
    })
    .execute();
  await writeChunks(tx, 'sealed_chunks', sealed.documentId, content);
}

/** Makes a failed (or waiting) seal due at `now` with a fresh count of attempts; false when there is none, or it runs. */
export async function retrySealJob(db: SqlDatabase, documentId: string, now: Date): Promise<boolean> {
  const result = await db.query
    .updateTable('seal_jobs')
    .set({ status: 'pending', attempts: 0, run_at: now.getTime(), updated_at: now.getTime() })
    .where('document_id', '=', documentId)
    .where('status', 'in', ['pending', 'failed'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Seal jobs, newest first. */
export async function listSealJobs(db: SqlDatabase, options: { status?: SealJobStatus; limit: number }): Promise<SealJob[]> {
  let query = db.query.selectFrom('seal_jobs').selectAll();
  if (options.status) query = query.where('status', '=', options.status);
  const rows = await query.orderBy('created_at', 'desc').orderBy('document_id', 'desc').limit(options.limit).execute();
  return rows.map(toSealJob);
}

/** A document's seal job and its sealed file's record, each null until it exists. */
export async function getSealState(db: SqlDatabase, documentId: string): Promise<SealState> {
  const [job, sealed] = await Promise.all([
    db.query.selectFrom('seal_jobs').selectAll().where('document_id', '=', documentId).executeTakeFirst(),
    db.query.selectFrom('sealed_documents').selectAll().where('document_id', '=', documentId).executeTakeFirst(),
  ]);
  return { job: job ? toSealJob(job) : null, sealed: sealed ? toSealedDocument(sealed) : null };
}

/** The sealed files whose SHA-256 is `sha256`, by document. */
export async function findSealedBySha256(db: SqlDatabase, sha256: string): Promise<SealedDocument[]> {
  const rows = await db.query.selectFrom('sealed_documents').selectAll().where('sha256', '=', sha256).orderBy('document_id').execute();
  return rows.map(toSealedDocument);
}

/** A secret the server stored (`stored_secrets`), or null. */
export async function getStoredSecret(db: SqlDatabase, name: string): Promise<Uint8Array | null> {
  const row = await db.query.selectFrom('stored_secrets').select('value').where('name', '=', name).executeTakeFirst();
  return row ? row.value : null;
}

/** Stores `value` as `name` unless one is stored already; resolves with the one stored (the first writer's). */
export async function putStoredSecretIfAbsent(db: SqlDatabase, name: string, value: Uint8Array): Promise<Uint8Array> {
  await db.query
    .insertInto('stored_secrets')
    .values({ name, value, created_at: Date.now() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  return (await getStoredSecret(db, name))!;
}
