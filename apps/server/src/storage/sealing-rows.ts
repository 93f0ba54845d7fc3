import type { Tables } from './tables.js';
import type { SealJob, SealJobStatus, SealedDocument } from './types.js';

/*
 * The rows of the sealing tables (`migrations/003_sealing.ts`) and how a row becomes a record. Times are epoch
 * milliseconds in rows, ISO strings in records.
 */

const toIso = (ms: number): string => new Date(ms).toISOString();

/** A seal job's row, as `tables.ts` types it. */
export type SealJobRow = Tables['seal_jobs'];

export function toSealJob(row: SealJobRow): SealJob {
  return {
    documentId: row.document_id,
    submissionId: row.submission_id,
    status: row.status as SealJobStatus,
    attempts: Number(row.attempts),
    runAt: toIso(row.run_at),
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until === null ? null : toIso(row.lease_until),
    lastError: row.last_error,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** A sealed document's row, as `tables.ts` types it. */
export type SealedDocumentRow = Tables['sealed_documents'];

export function toSealedDocument(row: SealedDocumentRow): SealedDocument {
  return {
    documentId: row.document_id,
    submissionId: row.submission_id,
    sha256: row.sha256,
    fileSize: Number(row.file_size),
    sealedAt: toIso(row.sealed_at),
  };
}
