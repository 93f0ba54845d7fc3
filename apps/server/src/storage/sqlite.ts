import Database from 'libsql';
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

/*
 * libsql 0.5 takes a lone Buffer argument for named parameters and panics: every statement here is bound with ONE
 * array of values (`stmt.get([id])`). The API is synchronous, so a transaction never interleaves with another call
 * of this process; BEGIN IMMEDIATE and busy_timeout serialize it with other processes on the same file.
 */

/**
 * `stmt.get` for the hot path (every authenticated request): libsql builds a row object slowly (about 2 µs for a
 * dozen columns) but an array quickly, so take the array and name its values here.
 */
function fastGet(statement: Database.Statement): (params: unknown[]) => Record<string, unknown> | undefined {
  statement.raw(true);
  const names = statement.columns().map((column) => column.name);
  return (params) => {
    const values = statement.get(params) as unknown[] | undefined;
    if (!values) return undefined;
    const row: Record<string, unknown> = {};
    for (let index = 0; index < names.length; index++) row[names[index]!] = values[index];
    return row;
  };
}

function prepareStatements(db: Database.Database) {
  return {
    savepoint: db.prepare('SAVEPOINT submission'),
    release: db.prepare('RELEASE submission'),
    rollbackToSavepoint: db.prepare('ROLLBACK TO submission'),
    insertOrganization: db.prepare(
      `INSERT INTO organizations (${ORGANIZATION_COLUMNS}) VALUES (?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING`,
    ),
    organizationBySlug: db.prepare(`SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE slug = ?`),
    insertApiKey: db.prepare(
      `INSERT INTO api_keys (${API_KEY_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    apiKeyByHash: fastGet(db.prepare(`${AUTHENTICATED_KEY_SELECT} WHERE k.hash = ?`)),
    revokeApiKey: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    apiKeyExists: db.prepare('SELECT 1 AS found FROM api_keys WHERE id = ?'),
    insertDocument: db.prepare(
      `INSERT INTO documents (${DOCUMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertChunk: db.prepare('INSERT INTO document_chunks (document_id, idx, data) VALUES (?, ?, ?)'),
    documentById: fastGet(db.prepare(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ?`)),
    documentsFirstPage: db.prepare(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE organization_id = ?
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    ),
    documentsAfter: db.prepare(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE organization_id = ? AND (created_at, id) < (?, ?)
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    ),
    chunksInRange: db.prepare(
      'SELECT data FROM document_chunks WHERE document_id = ? AND idx BETWEEN ? AND ? ORDER BY idx',
    ),
    insertPreview: db.prepare(
      `INSERT INTO document_previews (document_id, ${PREVIEW_COLUMNS}, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (document_id) DO NOTHING`,
    ),
    previewByDocument: db.prepare(`SELECT ${PREVIEW_COLUMNS} FROM document_previews WHERE document_id = ?`),
    completeDocument: db.prepare(
      "UPDATE documents SET status = 'completed', updated_at = ? WHERE id = ? AND status = 'pending'",
    ),
    insertSubmission: db.prepare(
      `INSERT INTO submissions (${SUBMISSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    submissionByDocument: db.prepare(`SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE document_id = ?`),
    idempotencyRow: db.prepare(
      `SELECT fingerprint, status, response_status, response_body, created_at FROM idempotency_keys
       WHERE organization_id = ? AND key = ?`,
    ),
    claimIdempotency: db.prepare(
      `INSERT INTO idempotency_keys (organization_id, key, fingerprint, status, created_at)
       VALUES (?, ?, ?, 'in_flight', ?)
       ON CONFLICT (organization_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = 'in_flight',
         response_status = NULL, response_body = NULL, created_at = excluded.created_at`,
    ),
    completeIdempotency: db.prepare(
      `UPDATE idempotency_keys SET status = 'completed', response_status = ?, response_body = ?
       WHERE organization_id = ? AND key = ?`,
    ),
    releaseIdempotency: db.prepare(
      "DELETE FROM idempotency_keys WHERE organization_id = ? AND key = ? AND status = 'in_flight'",
    ),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

/** Signet's storage in an embedded SQLite database (libSQL): one file, WAL, every commit synced to disk. */
export class SqliteStorage implements Storage {
  readonly engine = 'sqlite' as const;
  readonly #db: Database.Database;
  #statements: Statements | undefined;
  #pendingSubmissions: Array<{
    submission: StoredSubmission;
    idempotency: IdempotencyScope | undefined;
    resolve(created: boolean): void;
    reject(error: unknown): void;
  }> = [];

  /** Opens (creating when absent) the database file at `path`, or an in-memory one for `:memory:`. */
  constructor(path: string) {
    this.#db = new Database(path);
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON');
    this.#db.exec('PRAGMA busy_timeout = 5000');
  }

  /** Statements are prepared once, on first use: they need the tables that `migrate` creates. */
  get #sql(): Statements {
    this.#statements ??= prepareStatements(this.#db);
    return this.#statements;
  }

  #transaction<T>(work: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      // Some errors (SQLITE_FULL, SQLITE_IOERR…) already ended the transaction.
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  async migrate(): Promise<void> {
    this.#transaction(() => {
      this.#db.exec(MIGRATIONS_TABLE.sqlite);
      const rows = this.#db.prepare('SELECT version FROM schema_migrations').all([]) as Array<{ version: number }>;
      const applied = new Set(rows.map((row) => row.version));
      const record = this.#db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        this.#db.exec(migration.sqlite);
        record.run([migration.version, migration.name, Date.now()]);
      }
    });
  }

  async close(): Promise<void> {
    if (!this.#db.open) return;
    // Submissions still waiting for their group commit are written, not dropped.
    if (this.#pendingSubmissions.length > 0) this.#commitPendingSubmissions();
    // Fold the write-ahead log into the database file, so a stopped server leaves one file behind.
    this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    this.#db.close();
  }

  async ensureOrganization(slug: string, name: string): Promise<Organization> {
    this.#sql.insertOrganization.run([newId('org'), slug, name, Date.now()]);
    return toOrganization(this.#sql.organizationBySlug.get([slug]) as OrganizationRow);
  }

  async getOrganizationBySlug(slug: string): Promise<Organization | null> {
    const row = this.#sql.organizationBySlug.get([slug]) as OrganizationRow | undefined;
    return row ? toOrganization(row) : null;
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    this.#sql.insertApiKey.run(apiKeyValues(key));
  }

  async findApiKeyByHash(hash: string): Promise<AuthenticatedKey | null> {
    const row = this.#sql.apiKeyByHash([hash]) as AuthenticatedKeyRow | undefined;
    return row ? toAuthenticatedKey(row) : null;
  }

  async revokeApiKey(id: string, revokedAt: IsoTime): Promise<boolean> {
    if (this.#sql.revokeApiKey.run([toMillis(revokedAt), id]).changes === 1) return true;
    return this.#sql.apiKeyExists.get([id]) !== undefined;
  }

  async createDocument(document: NewDocument, content: Uint8Array): Promise<DocumentRecord> {
    assertFileSize(document, content);
    const record: DocumentRecord = { ...document, updatedAt: document.createdAt, version: 1, status: 'pending' };
    this.#transaction(() => {
      this.#sql.insertDocument.run(documentValues(record));
      for (let idx = 0; idx * CHUNK_SIZE < content.length; idx++) {
        this.#sql.insertChunk.run([record.id, idx, content.subarray(idx * CHUNK_SIZE, (idx + 1) * CHUNK_SIZE)]);
      }
    });
    return record;
  }

  async getDocument(id: string): Promise<DocumentRecord | null> {
    const row = this.#sql.documentById([id]) as DocumentRow | undefined;
    return row ? toDocument(row) : null;
  }

  async listDocuments(
    organizationId: string,
    options: { limit: number; after?: DocumentCursor },
  ): Promise<DocumentRecord[]> {
    const { limit, after } = options;
    const rows = after
      ? this.#sql.documentsAfter.all([organizationId, toMillis(after.createdAt), after.id, limit])
      : this.#sql.documentsFirstPage.all([organizationId, limit]);
    return (rows as DocumentRow[]).map(toDocument);
  }

  async readDocumentContent(id: string, start: number, end: number): Promise<Uint8Array> {
    const { first, last, offset } = chunkSpan(start, end);
    // libsql gives a BLOB as an ArrayBuffer from `all` (a Buffer from `get`): wrap it without copying.
    const rows = this.#sql.chunksInRange.all([id, first, last]) as Array<{ data: ArrayBuffer | Uint8Array }>;
    return sliceChunks(
      rows.map((row) => (row.data instanceof Uint8Array ? row.data : new Uint8Array(row.data))),
      offset,
      end - start + 1,
    );
  }

  async putDocumentPreview(documentId: string, preview: DocumentPreview): Promise<void> {
    this.#sql.insertPreview.run(previewValues(documentId, preview));
  }

  async getDocumentPreview(documentId: string): Promise<DocumentPreview | null> {
    const row = this.#sql.previewByDocument.get([documentId]) as PreviewRow | undefined;
    return row ? toPreview(row) : null;
  }

  /**
   * Group commit: submissions that reach this point in the same turn of the event loop are written in one
   * transaction, each in a savepoint of its own, so that one disk sync makes them all durable. Each promise
   * resolves only after that COMMIT; a failure of one submission rejects only its own promise.
   */
  async recordSubmission(
    submission: StoredSubmission,
    idempotency?: IdempotencyScope,
  ): Promise<RecordSubmissionOutcome> {
    const created = await new Promise<boolean>((resolve, reject) => {
      this.#pendingSubmissions.push({ submission, idempotency, resolve, reject });
      if (this.#pendingSubmissions.length === 1) setImmediate(() => this.#commitPendingSubmissions());
    });
    if (created) return { created: true, submission };
    return { created: false, existing: await this.#existingSubmission(submission.documentId) };
  }

  #commitPendingSubmissions(): void {
    const batch = this.#pendingSubmissions.splice(0);
    const outcomes: Array<{ created: boolean } | { error: unknown }> = [];
    try {
      this.#transaction(() => {
        for (const { submission, idempotency } of batch) {
          this.#sql.savepoint.run([]);
          try {
            outcomes.push({ created: this.#recordOne(submission, idempotency) });
            this.#sql.release.run([]);
          } catch (error) {
            this.#sql.rollbackToSavepoint.run([]);
            this.#sql.release.run([]);
            outcomes.push({ error });
          }
        }
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if ('error' in outcome) pending.reject(outcome.error);
      else pending.resolve(outcome.created);
    });
  }

  /** Completes the document and stores its submission; false when the document was no longer pending. */
  #recordOne(submission: StoredSubmission, idempotency: IdempotencyScope | undefined): boolean {
    const completed = this.#sql.completeDocument.run([toMillis(submission.receivedAt), submission.documentId]);
    if (completed.changes !== 1) return false;
    this.#sql.insertSubmission.run(submissionValues(submission));
    if (idempotency) {
      const body = JSON.stringify(submission.result);
      this.#sql.completeIdempotency.run([201, body, idempotency.organizationId, idempotency.key]);
    }
    return true;
  }

  async #existingSubmission(documentId: string): Promise<StoredSubmission> {
    const existing = await this.getSubmissionForDocument(documentId);
    if (!existing) throw new Error(`Cannot record a submission: no pending document ${documentId}`);
    return existing;
  }

  async getSubmissionForDocument(documentId: string): Promise<StoredSubmission | null> {
    const row = this.#sql.submissionByDocument.get([documentId]) as SubmissionRow | undefined;
    return row ? toSubmission(row) : null;
  }

  async claimIdempotencyKey(
    scope: IdempotencyScope,
    fingerprint: string,
    options: { now: Date; expiresAfterMs: number; staleAfterMs: number },
  ): Promise<IdempotencyClaim> {
    return this.#transaction(() => {
      const row = this.#sql.idempotencyRow.get([scope.organizationId, scope.key]) as IdempotencyRow | undefined;
      const { claim, write } = decideIdempotencyClaim(row, fingerprint, options);
      if (write) this.#sql.claimIdempotency.run([scope.organizationId, scope.key, fingerprint, options.now.getTime()]);
      return claim;
    });
  }

  async completeIdempotencyKey(scope: IdempotencyScope, status: number, body: string): Promise<void> {
    this.#sql.completeIdempotency.run([status, body, scope.organizationId, scope.key]);
  }

  async releaseIdempotencyKey(scope: IdempotencyScope): Promise<void> {
    this.#sql.releaseIdempotency.run([scope.organizationId, scope.key]);
  }
}

