import pg from 'pg';
import { newId } from '../ids.js';
import {
  API_KEY_INSERT_COLUMNS,
  AUTHENTICATED_KEY_SELECT,
  CHUNK_SIZE,
  DOCUMENT_COLUMNS,
  MIGRATIONS,
  MIGRATIONS_TABLE,
  ORGANIZATION_COLUMNS,
  PREVIEW_COLUMNS,
  SUBMISSION_COLUMNS,
  apiKeyValues,
  assertFileSize,
  chunkSpan,
  decideIdempotencyClaim,
  documentValues,
  previewValues,
  sliceChunks,
  submissionValues,
  toAuthenticatedKey,
  toDocument,
  toMillis,
  toOrganization,
  toPreview,
  toSubmission,
  type AuthenticatedKeyRow,
  type DocumentRow,
  type IdempotencyRow,
  type OrganizationRow,
  type PreviewRow,
  type SubmissionRow,
} from './schema.js';
import type {
  ApiKeyRecord,
  AuthenticatedKey,
  DocumentCursor,
  DocumentPreview,
  DocumentRecord,
  IdempotencyClaim,
  IdempotencyScope,
  IsoTime,
  NewDocument,
  Organization,
  RecordSubmissionOutcome,
  Storage,
  StoredSubmission,
} from './types.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** A claim retries when the row it conflicted with was released before it could be read; this bounds the loop. */
const MAX_CLAIM_ATTEMPTS = 5;

export interface PostgresOptions {
  /** Schema holding Signet's tables (lowercase letters, digits, `_`), created by `migrate`; default: `search_path`. */
  schema?: string;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '23505';
}

/**
 * Signet's storage in PostgreSQL, shared by every server instance of a deployment. Concurrency comes from the
 * database: row locks (`UPDATE … WHERE status = 'pending'`, `SELECT … FOR UPDATE`), unique constraints and, for
 * migrations, an advisory lock.
 */
export class PostgresStorage implements Storage {
  readonly engine = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #schema: string | undefined;
  #closed = false;

  constructor(connectionString: string, options: PostgresOptions = {}) {
    const { schema } = options;
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
      throw new Error(`Invalid PostgreSQL schema name ${JSON.stringify(schema)}: use lowercase letters, digits and _`);
    }
    this.#schema = schema;
    this.#pool = new pg.Pool({
      connectionString,
      max: options.maxConnections ?? 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // An idle connection that drops is discarded by the pool and the next query opens a new one; without a listener
    // the 'error' event would crash the process.
    this.#pool.on('error', () => {});
  }

  async #transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch (rollbackError) {
        // The connection is unusable: destroy it rather than return it to the pool. The first error is the one to see.
        client.release(rollbackError instanceof Error ? rollbackError : true);
      }
      throw error;
    }
  }

  async migrate(): Promise<void> {
    await this.#transaction(async (client) => {
      // Several instances may start at once: one migrates, the others wait here and then find nothing to do.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`signet.migrate:${this.#schema ?? ''}`]);
      if (this.#schema) {
        // Checked first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the schema exists.
        const found = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [this.#schema]);
        if (found.rowCount === 0) await client.query(`CREATE SCHEMA ${this.#schema}`);
      }
      await client.query(MIGRATIONS_TABLE.postgres);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((row) => row.version));
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await client.query(migration.postgres);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          Date.now(),
        ]);
      }
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }

  async ensureOrganization(slug: string, name: string): Promise<Organization> {
    await this.#pool.query(
      `INSERT INTO organizations (${ORGANIZATION_COLUMNS}) VALUES ($1, $2, $3, $4) ON CONFLICT (slug) DO NOTHING`,
      [newId('org'), slug, name, Date.now()],
    );
    return (await this.getOrganizationBySlug(slug))!;
  }

  async getOrganizationBySlug(slug: string): Promise<Organization | null> {
    const { rows } = await this.#pool.query<OrganizationRow>(
      `SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE slug = $1`,
      [slug],
    );
    return rows[0] ? toOrganization(rows[0]) : null;
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    await this.#pool.query(
      `INSERT INTO api_keys (${API_KEY_INSERT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      apiKeyValues(key),
    );
  }

  async findApiKeyByHash(hash: string): Promise<AuthenticatedKey | null> {
    // Named: prepared once per connection, as this runs on every authenticated request.
    const { rows } = await this.#pool.query<AuthenticatedKeyRow>({
      name: 'signet_api_key_by_hash',
      text: `${AUTHENTICATED_KEY_SELECT} WHERE k.hash = $1`,
      values: [hash],
    });
    return rows[0] ? toAuthenticatedKey(rows[0]) : null;
  }

  async revokeApiKey(id: string, revokedAt: IsoTime): Promise<boolean> {
    const revoked = await this.#pool.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
      toMillis(revokedAt),
      id,
    ]);
    if (revoked.rowCount === 1) return true;
    const existing = await this.#pool.query('SELECT 1 FROM api_keys WHERE id = $1', [id]);
    return existing.rowCount === 1;
  }

  async createDocument(document: NewDocument, content: Uint8Array): Promise<DocumentRecord> {
    assertFileSize(document, content);
    const record: DocumentRecord = { ...document, updatedAt: document.createdAt, version: 1, status: 'pending' };
    const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    await this.#transaction(async (client) => {
      await client.query(
        `INSERT INTO documents (${DOCUMENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        documentValues(record),
      );
      for (let idx = 0; idx * CHUNK_SIZE < bytes.length; idx++) {
        await client.query('INSERT INTO document_chunks (document_id, idx, data) VALUES ($1, $2, $3)', [
          record.id,
          idx,
          bytes.subarray(idx * CHUNK_SIZE, (idx + 1) * CHUNK_SIZE),
        ]);
      }
    });
    return record;
  }

  async getDocument(id: string): Promise<DocumentRecord | null> {
    const { rows } = await this.#pool.query<DocumentRow>({
      name: 'signet_document_by_id',
      text: `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = $1`,
      values: [id],
    });
    return rows[0] ? toDocument(rows[0]) : null;
  }

  async listDocuments(
    organizationId: string,
    options: { limit: number; after?: DocumentCursor },
  ): Promise<DocumentRecord[]> {
    const { limit, after } = options;
    const { rows } = after
      ? await this.#pool.query<DocumentRow>(
          `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE organization_id = $1 AND (created_at, id) < ($2, $3)
           ORDER BY created_at DESC, id DESC LIMIT $4`,
          [organizationId, toMillis(after.createdAt), after.id, limit],
        )
      : await this.#pool.query<DocumentRow>(
          `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE organization_id = $1
           ORDER BY created_at DESC, id DESC LIMIT $2`,
          [organizationId, limit],
        );
    return rows.map(toDocument);
  }

  async readDocumentContent(id: string, start: number, end: number): Promise<Uint8Array> {
    const { first, last, offset } = chunkSpan(start, end);
    const { rows } = await this.#pool.query<{ data: Buffer }>({
      name: 'signet_document_chunks',
      text: 'SELECT data FROM document_chunks WHERE document_id = $1 AND idx BETWEEN $2 AND $3 ORDER BY idx',
      values: [id, first, last],
    });
    return sliceChunks(
      rows.map((row) => row.data),
      offset,
      end - start + 1,
    );
  }

  async putDocumentPreview(documentId: string, preview: DocumentPreview): Promise<void> {
    await this.#pool.query(
      `INSERT INTO document_previews (document_id, ${PREVIEW_COLUMNS}, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (document_id) DO NOTHING`,
      previewValues(documentId, preview),
    );
  }

  async getDocumentPreview(documentId: string): Promise<DocumentPreview | null> {
    const { rows } = await this.#pool.query<PreviewRow>(
      `SELECT ${PREVIEW_COLUMNS} FROM document_previews WHERE document_id = $1`,
      [documentId],
    );
    return rows[0] ? toPreview(rows[0]) : null;
  }

  async recordSubmission(
    submission: StoredSubmission,
    idempotency?: IdempotencyScope,
  ): Promise<RecordSubmissionOutcome> {
    try {
      // The UPDATE takes the document's row lock: a concurrent call waits, then finds it completed (0 rows).
      const created = await this.#transaction(async (client) => {
        const completed = await client.query(
          "UPDATE documents SET status = 'completed', updated_at = $1 WHERE id = $2 AND status = 'pending'",
          [toMillis(submission.receivedAt), submission.documentId],
        );
        if (completed.rowCount !== 1) return false;
        await client.query(
          `INSERT INTO submissions (${SUBMISSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          submissionValues(submission),
        );
        if (idempotency) {
          await client.query(
            `UPDATE idempotency_keys SET status = 'completed', response_status = 201, response_body = $1
             WHERE organization_id = $2 AND key = $3`,
            [JSON.stringify(submission.result), idempotency.organizationId, idempotency.key],
          );
        }
        return true;
      });
      if (created) return { created: true, submission };
    } catch (error) {
      // UNIQUE (document_id) backs the row lock up: losing that race also means "already submitted".
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await this.getSubmissionForDocument(submission.documentId);
    if (!existing) throw new Error(`Cannot record a submission: no pending document ${submission.documentId}`);
    return { created: false, existing };
  }

  async getSubmissionForDocument(documentId: string): Promise<StoredSubmission | null> {
    const { rows } = await this.#pool.query<SubmissionRow>(
      `SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE document_id = $1`,
      [documentId],
    );
    return rows[0] ? toSubmission(rows[0]) : null;
  }

  async claimIdempotencyKey(
    scope: IdempotencyScope,
    fingerprint: string,
    options: { now: Date; expiresAfterMs: number; staleAfterMs: number },
  ): Promise<IdempotencyClaim> {
    const { organizationId, key } = scope;
    const now = options.now.getTime();
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      // A new key, the common case: one statement. A concurrent insert of the same key makes this one wait for it.
      const inserted = await this.#pool.query(
        `INSERT INTO idempotency_keys (organization_id, key, fingerprint, status, created_at)
         VALUES ($1, $2, $3, 'in_flight', $4) ON CONFLICT (organization_id, key) DO NOTHING`,
        [organizationId, key, fingerprint, now],
      );
      if (inserted.rowCount === 1) return { state: 'claimed' };

      const claim = await this.#transaction(async (client) => {
        const { rows } = await client.query<IdempotencyRow>(
          `SELECT fingerprint, status, response_status, response_body, created_at FROM idempotency_keys
           WHERE organization_id = $1 AND key = $2 FOR UPDATE`,
          [organizationId, key],
        );
        if (!rows[0]) return null;
        const { claim, write } = decideIdempotencyClaim(rows[0], fingerprint, options);
        if (write) {
          await client.query(
            `UPDATE idempotency_keys SET fingerprint = $1, status = 'in_flight', response_status = NULL,
               response_body = NULL, created_at = $2
             WHERE organization_id = $3 AND key = $4`,
            [fingerprint, now, organizationId, key],
          );
        }
        return claim;
      });
      if (claim) return claim;
    }
    throw new Error(`Idempotency key ${JSON.stringify(key)} kept being released while it was claimed`);
  }

  async completeIdempotencyKey(scope: IdempotencyScope, status: number, body: string): Promise<void> {
    await this.#pool.query(
      `UPDATE idempotency_keys SET status = 'completed', response_status = $1, response_body = $2
       WHERE organization_id = $3 AND key = $4`,
      [status, body, scope.organizationId, scope.key],
    );
  }

  async releaseIdempotencyKey(scope: IdempotencyScope): Promise<void> {
    await this.#pool.query(
      "DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2 AND status = 'in_flight'",
      [scope.organizationId, scope.key],
    );
  }
}
