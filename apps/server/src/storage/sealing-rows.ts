import type { SealJob, SealJobStatus, SealedDocument } from './types.js';

/*
 * The rows of the sealing tables (`migrations/003_sealing.ts`) and how a row becomes a record. Times are epoch
 * milliseconds in rows, ISO strings in records.
 */

/** Epoch milliseconds as a row holds them: a number from SQLite, a string from PostgreSQL's BIGINT. */
type Millis = number | string;

const toIso = (ms: Millis): string => new Date(Number(ms)).toISOString();


export interface SealJobRow {
  document_id: string;
  submission_id: string;
  status: string;
  attempts: number;
  run_at: Millis;
  lease_owner: string | null;
  lease_until: Millis | null;
  last_error: string | null;
  created_at: Millis;
  updated_at: Millis;
}

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

export interface SealedDocumentRow {
  document_id: string;
  submission_id: string;
  sha256: string;
  file_size: Millis;
  sealed_at: Millis;
}

export function toSealedDocument(row: SealedDocumentRow): SealedDocument {
  return {
    documentId: row.document_id,
    submissionId: row.submission_id,
    sha256: row.sha256,
    fileSize: Number(row.file_size),
    sealedAt: toIso(row.sealed_at),
  };
}
