import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import type { SealJob, SealJobStatus, SealState, SealedDocument } from '../types.js';
import { readChunks, writeChunks } from '../chunks.js';
import { prepare } from '../prepared.js';
import { toIso, toIsoOrNull, toMillis } from '../schema.js';

/*
 * Seal jobs (`seal_jobs`, the outbox that makes a completed document's sealed PDF) and the sealed files
 * (`sealed_documents`, their bytes in `sealed_chunks`). The seal kind's claims and settlements are its queue's
 * (`sealing/seal-queue.ts`).
 */

/** A `seal_jobs` row as a record. */
export function toSealJob(row: Tables['seal_jobs']): SealJob {
  return {
    documentId: row.document_id,
    submissionId: row.submission_id,
    status: row.status,
    attempts: row.attempts,
    runAt: toIso(row.run_at),
    leaseOwner: row.lease_owner,
    leaseUntil: toIsoOrNull(row.lease_until),
    lastError: row.last_error,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** A `sealed_documents` row as a record. */
export function toSealedDocument(row: Tables['sealed_documents']): SealedDocument {
  return {
    documentId: row.document_id,
    submissionId: row.submission_id,
    sha256: row.sha256,
    fileSize: row.file_size,
    sealedAt: toIso(row.sealed_at),
    ...(row.level ? { level: row.level } : {}),
  };
}

/** Enqueues the seal of a just-completed document, in the transaction that completed it (once per document). */
export async function enqueueSealJob(db: Db, documentId: string, submissionId: string, at: string): Promise<void> {
  await INSERT_SEAL_JOB(db, documentId, submissionId, toMillis(at));
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
 * Stores a sealed PDF (its record and its bytes, chunked) in the caller's transaction: the seal kind's completion,
 * after its lease check (`sealing/seal-kind.ts`).
 */
export async function storeSealedDocument(db: Db, sealed: SealedDocument, content: Uint8Array): Promise<void> {
  if (sealed.fileSize !== content.length) {
    throw new Error(`Sealed ${sealed.documentId}: fileSize ${sealed.fileSize} differs from its ${content.length} bytes`);
  }
  await db
    .insertInto('sealed_documents')
    .values({
      document_id: sealed.documentId,
      submission_id: sealed.submissionId,
      sha256: sealed.sha256,
      file_size: sealed.fileSize,
      sealed_at: toMillis(sealed.sealedAt),
      level: sealed.level ?? null,
    })
    .execute();
  await writeChunks(db, 'sealed_chunks', sealed.documentId, content);
}

/** Makes a failed (or waiting) seal due at `now` with a fresh count of attempts; false when there is none, or it runs. */
export async function retrySealJob(db: Db, documentId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('seal_jobs')
    .set({ status: 'pending', attempts: 0, run_at: now.getTime(), updated_at: now.getTime() })
    .where('document_id', '=', documentId)
    .where('status', 'in', ['pending', 'failed'])
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Seal jobs newest first, optionally of one status. */
export async function listSealJobs(db: Db, options: { status?: SealJobStatus; limit: number }): Promise<SealJob[]> {
  let query = db.selectFrom('seal_jobs').selectAll();
  if (options.status) query = query.where('status', '=', options.status);
  const rows = await query.orderBy('created_at', 'desc').orderBy('document_id', 'desc').limit(options.limit).execute();
  return rows.map(toSealJob);
}

/** A document's seal job and its sealed file's record, each null until it exists. */
export async function findSealState(db: Db, documentId: string): Promise<SealState> {
  const [job, sealed] = await Promise.all([
    db.selectFrom('seal_jobs').selectAll().where('document_id', '=', documentId).executeTakeFirst(),
    db.selectFrom('sealed_documents').selectAll().where('document_id', '=', documentId).executeTakeFirst(),
  ]);
  return { job: job ? toSealJob(job) : null, sealed: sealed ? toSealedDocument(sealed) : null };
}

/** The sealed files whose SHA-256 is `sha256` (normally one), by document. */
export async function findSealedBySha256(db: Db, sha256: string): Promise<SealedDocument[]> {
  const rows = await db.selectFrom('sealed_documents').selectAll().where('sha256', '=', sha256).orderBy('document_id').execute();
  return rows.map(toSealedDocument);
}

/** Bytes `start` to `end` inclusive of a document's sealed file (the caller checks the bounds). */
export function readSealedContent(db: Db, documentId: string, start: number, end: number): Promise<Uint8Array> {
  return readChunks(db, 'sealed_chunks', documentId, start, end);
}
