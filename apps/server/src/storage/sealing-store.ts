import { writeChunks } from './chunks.js';
import { prepare } from './prepared.js';
import { toMillis } from './schema.js';
import { recordAuditEvent } from './queries/audit.js';
import {
  toSealJob,
  toSealedDocument,
} from './sealing-rows.js';
import type { Queryable, SqlDatabase } from './sql-database.js';
import type { SealJob, SealJobStatus, SealState, SealedDocument } from './types.js';

/*
 * The sealing half of `SqlStorage` (its `Storage` methods delegate here): the seal jobs' outbox and the sealed
 * files, on both engines.
 */

/** Enqueues the seal of a just-completed document, in the transaction that completed it (once per document). */
export async function enqueueSealJob(tx: Queryable, documentId: string, submissionId: string, at: string): Promise<void> {
  await INSERT_SEAL_JOB(tx.query, documentId, submissionId, toMillis(at));
}

/** On every submission's path: compiled once (prepared.ts). */
const INSERT_SEAL_JOB = prepare<unknown, [string, string, number]>(
  (db, documentId, submissionId, ms) =>
    db
      .insertInto('seal_jobs')
      .values({
        document_id: documentId as string,
        submission_id: submissionId as string,
        status: 'pending',
        attempts: 0,
        run_at: ms as number,
        created_at: ms as number,
        updated_at: ms as number,
      })
      .onConflict((conflict) => conflict.doNothing()),
  3,
);

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
  await writeChunks(tx.query, 'sealed_chunks', sealed.documentId, content);
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
