import type { Migration } from '../migrations.js';

/*
 * Times are epoch milliseconds (exact, sortable, the same on both engines). Document ids sort bytewise on both
 * engines, so that keyset pages order ties alike.
 */
export const initial: Migration = {
  version: 1,
  name: 'organizations, api keys, documents, submissions, idempotency keys',
  up: ({ bigint, bytes, bytewiseText, storeUncompressed }) => `
    CREATE TABLE organizations (
      id TEXT PRIMARY KEY,
      slug TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      created_at ${bigint} NOT NULL
    );
    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations (id),
      kind TEXT NOT NULL CHECK (kind IN ('pk', 'sk')),
      hash TEXT NOT NULL UNIQUE,
      display_prefix TEXT NOT NULL,
      scopes TEXT NOT NULL,
      expires_at ${bigint},
      revoked_at ${bigint},
      allowed_origins TEXT NOT NULL,
      rate_limit INTEGER NOT NULL,
      created_at ${bigint} NOT NULL
    );
    CREATE INDEX api_keys_organization ON api_keys (organization_id);
    CREATE TABLE documents (
      id ${bytewiseText} PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations (id),
      filename TEXT NOT NULL,
      mime_type TEXT NOT NULL,
      page_count INTEGER NOT NULL,
      file_size ${bigint} NOT NULL,
      sha256 TEXT NOT NULL,
      fields TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'completed')),
      version INTEGER NOT NULL,
      created_at ${bigint} NOT NULL,
      updated_at ${bigint} NOT NULL
    );
    CREATE INDEX documents_organization_created ON documents (organization_id, created_at DESC, id DESC);
    CREATE TABLE document_chunks (
      document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      data ${bytes} NOT NULL,
      PRIMARY KEY (document_id, idx)
    );
    ${storeUncompressed('document_chunks', 'data')}
    CREATE TABLE submissions (
      id TEXT PRIMARY KEY,
      document_id TEXT NOT NULL UNIQUE REFERENCES documents (id),
      organization_id TEXT NOT NULL REFERENCES organizations (id),
      key_id TEXT NOT NULL,
      checksum TEXT NOT NULL,
      payload TEXT NOT NULL,
      result TEXT NOT NULL,
      client_ip TEXT,
      user_agent TEXT,
      received_at ${bigint} NOT NULL
    );
    CREATE TABLE idempotency_keys (
      organization_id TEXT NOT NULL,
      key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('in_flight', 'completed')),
      response_status INTEGER,
      response_body TEXT,
      created_at ${bigint} NOT NULL,
      PRIMARY KEY (organization_id, key)
    );
  `,
};
