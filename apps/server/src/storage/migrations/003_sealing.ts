import type { Migration } from '../migrations.js';

/*
 * Sealing: the audit trail, the seal jobs' outbox, the sealed files, and secrets the server generates
 * itself (the development signing certificate on PostgreSQL, encrypted).
 * - `audit_events`: one row per event; each type happens once per document (the first opening only). Documents and
 *   submissions from before this version get their `created` and `submitted` events from their rows.
 * - `seal_jobs`: one per completed document, written in the submission's transaction. A worker takes a due job by
 *   setting its lease (`running`, `lease_owner`, `lease_until`); a lease that ran out is taken over. Completed
 *   documents from before this version get a pending job, so an upgrade seals them too.
 * - `sealed_documents` + `sealed_chunks`: the signed file, stored like the originals, and its SHA-256 (`/verify`
 *   looks files up by it).
 */
export const sealing: Migration = {
  version: 3,
  name: 'audit events, seal jobs, sealed documents, stored secrets',
  up: ({ bigint, bytes, storeUncompressed }) => `
    CREATE TABLE audit_events (
      id TEXT PRIMARY KEY,
      document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
      type TEXT NOT NULL CHECK (type IN ('document.created', 'document.opened', 'document.submitted', 'document.sealed')),
      occurred_at ${bigint} NOT NULL,
      ip TEXT,
      user_agent TEXT
    );
    CREATE UNIQUE INDEX audit_events_once ON audit_events (document_id, type);
    INSERT INTO audit_events (id, document_id, type, occurred_at)
      SELECT 'evt_created_' || id, id, 'document.created', created_at FROM documents;
    INSERT INTO audit_events (id, document_id, type, occurred_at, ip, user_agent)
      SELECT 'evt_submitted_' || document_id, document_id, 'document.submitted', received_at, client_ip, user_agent
      FROM submissions;
    CREATE TABLE seal_jobs (
      document_id TEXT PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
      submission_id TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'sealed', 'failed')),
      attempts INTEGER NOT NULL,
      run_at ${bigint} NOT NULL,
      lease_owner TEXT,
      lease_until ${bigint},
      last_error TEXT,
      created_at ${bigint} NOT NULL,
      updated_at ${bigint} NOT NULL
    );
    CREATE INDEX seal_jobs_due ON seal_jobs (status, run_at);
    INSERT INTO seal_jobs (document_id, submission_id, status, attempts, run_at, created_at, updated_at)
      SELECT document_id, id, 'pending', 0, received_at, received_at, received_at FROM submissions;
    CREATE TABLE sealed_documents (
      document_id TEXT PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
      submission_id TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      file_size ${bigint} NOT NULL,
      sealed_at ${bigint} NOT NULL
    );
    CREATE INDEX sealed_documents_sha256 ON sealed_documents (sha256);
    CREATE TABLE sealed_chunks (
      document_id TEXT NOT NULL REFERENCES sealed_documents (document_id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      data ${bytes} NOT NULL,
      PRIMARY KEY (document_id, idx)
    );
    ${storeUncompressed('sealed_chunks', 'data')}
    CREATE TABLE stored_secrets (
      name TEXT PRIMARY KEY,
      value ${bytes} NOT NULL,
      created_at ${bigint} NOT NULL
    );
  `,
};
