import type { Migration } from '../migrations.js';

/*
 * Several signers and session keys.
 * - `documents.signers`: the signers as created (JSON, like `fields`), NULL on a document without signers (one
 *   implicit signer owns every field); `signing_order` likewise.
 * - `document_signers`: where each signer stands: when they first opened the document (with their address and
 *   browser) and when they completed it, with their submission.
 * - `api_keys.document_id`, `api_keys.signer_id`: a session key is a `pk` key bound to one document (and signer).
 * - `submissions` is rebuilt without `UNIQUE (document_id)`: one submission per signer, `signer_id` '' for the
 *   implicit signer (so the pair stays unique on both engines, where NULLs would never collide). Its constraints are
 *   named, since PostgreSQL's names of the old ones live on until the old table is dropped.
 */
export const signers: Migration = {
  version: 5,
  name: 'signers, session keys, one submission per signer',
  up: ({ bigint }) => `
    ALTER TABLE documents ADD COLUMN signers TEXT;
    ALTER TABLE documents ADD COLUMN signing_order TEXT;
    CREATE TABLE document_signers (
      document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
      signer_id TEXT NOT NULL,
      opened_at ${bigint},
      opened_ip TEXT,
      opened_user_agent TEXT,
      completed_at ${bigint},
      submission_id TEXT,
      PRIMARY KEY (document_id, signer_id)
    );
    ALTER TABLE api_keys ADD COLUMN document_id TEXT;
    ALTER TABLE api_keys ADD COLUMN signer_id TEXT;
    CREATE INDEX api_keys_by_document ON api_keys (document_id);
    ALTER TABLE submissions RENAME TO submissions_v4;
    CREATE TABLE submissions (
      id TEXT NOT NULL,
      document_id TEXT NOT NULL REFERENCES documents (id),
      signer_id TEXT NOT NULL,
      organization_id TEXT NOT NULL REFERENCES organizations (id),
      key_id TEXT NOT NULL,
      checksum TEXT NOT NULL,
      payload TEXT NOT NULL,
      result TEXT NOT NULL,
      client_ip TEXT,
      user_agent TEXT,
      received_at ${bigint} NOT NULL,
      CONSTRAINT submissions_v5_key PRIMARY KEY (id),
      CONSTRAINT submissions_v5_once UNIQUE (document_id, signer_id)
    );
    INSERT INTO submissions (id, document_id, signer_id, organization_id, key_id, checksum, payload, result, client_ip,
        user_agent, received_at)
      SELECT id, document_id, '', organization_id, key_id, checksum, payload, result, client_ip, user_agent, received_at
      FROM submissions_v4;
    DROP TABLE submissions_v4;
  `,
};
