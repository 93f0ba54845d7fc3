import type { Migration } from '../migrations.js';

/*
 * Signers who prove who they are (docs/signer-auth.md). Each signer's access-code lock and last verification
 * (`document_signers`); the e-mailed code of each signer, as an HMAC, with its expiry, wrong tries and sending
 * history (`signer_codes`); and every verification and failed try, with the session key it was for
 * (`signer_verifications`: a session key is verified when it has a `verified` row; the audit trail's events).
 * The access code's scrypt hash is in the signer's definition (`documents.signers`), never the code.
 */
export const signerVerification: Migration = {
  version: 18,
  name: 'signer verification',
  up: ({ bigint }) => `
    ALTER TABLE document_signers ADD COLUMN verified_at ${bigint};
    ALTER TABLE document_signers ADD COLUMN access_code_failures INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE document_signers ADD COLUMN access_code_locked_until ${bigint};
    CREATE TABLE signer_codes (
      document_id TEXT NOT NULL,
      signer_id TEXT NOT NULL,
      code_hash TEXT NOT NULL,
      expires_at ${bigint} NOT NULL,
      failures INTEGER NOT NULL,
      sent_at ${bigint} NOT NULL,
      hour_started_at ${bigint} NOT NULL,
      sent_this_hour INTEGER NOT NULL,
      PRIMARY KEY (document_id, signer_id)
    );
    CREATE TABLE signer_verifications (
      id TEXT PRIMARY KEY,
      document_id TEXT NOT NULL,
      signer_id TEXT NOT NULL,
      key_id TEXT NOT NULL,
      outcome TEXT NOT NULL CHECK (outcome IN ('verified', 'failed')),
      method TEXT NOT NULL CHECK (method IN ('email_code', 'access_code')),
      address TEXT,
      occurred_at ${bigint} NOT NULL,
      ip TEXT,
      user_agent TEXT
    );
    CREATE INDEX signer_verifications_document ON signer_verifications (document_id, occurred_at);
    CREATE INDEX signer_verifications_key ON signer_verifications (key_id, outcome);
  `,
};
