import { newId } from '../ids.js';
import { migrate } from './migrations.js';
import {
  API_KEY_INSERT_COLUMNS,
  AUTHENTICATED_KEY_SELECT,
  DOCUMENT_COLUMNS,
  ORGANIZATION_COLUMNS,
  PREVIEW_COLUMNS,
  SUBMISSION_COLUMNS,
  apiKeyValues,
  assertFileSize,
  decideIdempotencyClaim,
  documentValues,
  previewValues,
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
import type { SqlDatabase } from './sql-database.js';
import * as sealing from './sealing-store.js';
import * as webhooks from './webhook-store.js';
import * as signers from './signer-store.js';
import * as declines from './decline-store.js';
import { readChunks, writeChunks } from './chunks.js';
import { byOccurrence } from './sealing-rows.js';
import { DocumentDeclinedError } from './types.js';
import type {
  ApiKeyRecord,
  AuditEvent,
  AuthenticatedKey,
  DocumentCursor,
  DocumentPreview,
  DocumentRecord,
  IdempotencyClaim,
  IdempotencyScope,
  IsoTime,
  NewDocument,
  Organization,
  NewAuditEvent,
  RecordSubmissionOutcome,
  SessionKeyRecord,
  SignerState,
  DocumentDecline,
  SealJob,
  SealJobStatus,
  SealState,
  SealedDocument,
  Storage,
  StoredSubmission,
  NewWebhookEvent,
  WebhookCursor,
  WebhookDeliveryRecord,
  WebhookEndpointChanges,
  WebhookEndpointRecord,
} from './types.js';

/** A claim retries when the row it conflicted with was released before it could be read; this bounds the loop. */
const MAX_CLAIM_ATTEMPTS = 5;

// Queries built from column lists, composed once (each text is also the key its prepared statement is kept under).
const ORGANIZATION_BY_SLUG = `SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE slug = ?`;
const INSERT_ORGANIZATION = `INSERT INTO organizations (${ORGANIZATION_COLUMNS}) VALUES (?, ?, ?, ?)
  ON CONFLICT (slug) DO NOTHING`;
const INSERT_API_KEY = `INSERT INTO api_keys (${API_KEY_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const API_KEY_BY_HASH = `${AUTHENTICATED_KEY_SELECT} WHERE k.hash = ?`;
const API_KEY_BY_ID = `${AUTHENTICATED_KEY_SELECT} WHERE k.id = ?`;
/** A new `documents` row (`documentValues`); also the benchmark's bulk fixtures' insert. */
export const INSERT_DOCUMENT = `INSERT INTO documents (${DOCUMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const DOCUMENT_BY_ID = `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ?`;
const DOCUMENTS_FIRST_PAGE = `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE organization_id = ?
  ORDER BY created_at DESC, id DESC LIMIT ?`;
const DOCUMENTS_AFTER = `SELECT ${DOCUMENT_COLUMNS} FROM documents
  WHERE organization_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`;
const INSERT_PREVIEW = `INSERT INTO document_previews (document_id, ${PREVIEW_COLUMNS}, created_at)
  VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (document_id) DO NOTHING`;
const PREVIEW_BY_DOCUMENT = `SELECT ${PREVIEW_COLUMNS} FROM document_previews WHERE document_id = ?`;
const INSERT_SUBMISSION = `INSERT INTO submissions (${SUBMISSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const SUBMISSION_BY_DOCUMENT = `SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE document_id = ?`;
const COMPLETE_IDEMPOTENCY = `UPDATE idempotency_keys SET status = 'completed', response_status = ?, response_body = ?
  WHERE organization_id = ? AND key = ?`;

/**
 * Signet's storage, one implementation for both engines (`SqliteDatabase`, `PostgresDatabase`): each query is
 * written once, in SQL both accept (`sql-database.ts`).
 * @example
 * const storage = new SqlStorage(new SqliteDatabase(':memory:'));
 * await storage.migrate();
 */
export class SqlStorage implements Storage {
  readonly engine: 'sqlite' | 'postgres';
  readonly db: SqlDatabase;
  readonly #db: SqlDatabase;
  readonly #webhookListeners = new Set<() => void>();

  constructor(db: SqlDatabase) {
    this.#db = db;
    this.db = db;
    this.engine = db.engine;
  }

  migrate(): Promise<void> {
    return migrate(this.#db);
  }

  close(): Promise<void> {
    return this.#db.close();
  }

  async ensureOrganization(slug: string, name: string): Promise<Organization> {
    await this.#db.run(INSERT_ORGANIZATION, [newId('org'), slug, name, Date.now()]);
    return (await this.getOrganizationBySlug(slug))!;
  }

  async getOrganizationBySlug(slug: string): Promise<Organization | null> {
    const row = await this.#db.get<OrganizationRow>(ORGANIZATION_BY_SLUG, [slug]);
    return row ? toOrganization(row) : null;
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    await this.#db.run(INSERT_API_KEY, apiKeyValues(key));
  }

  async findApiKeyByHash(hash: string): Promise<AuthenticatedKey | null> {
    const row = await this.#db.get<AuthenticatedKeyRow>(API_KEY_BY_HASH, [hash]);
    return row ? toAuthenticatedKey(row) : null;
  }

  async findApiKeyById(id: string): Promise<AuthenticatedKey | null> {
    const row = await this.#db.get<AuthenticatedKeyRow>(API_KEY_BY_ID, [id]);
    return row ? toAuthenticatedKey(row) : null;
  }

  async revokeApiKey(id: string, revokedAt: IsoTime): Promise<boolean> {
    const revoked = await this.#db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [
      toMillis(revokedAt),
      id,
    ]);
    if (revoked === 1) return true;
    return (await this.#db.get('SELECT 1 AS found FROM api_keys WHERE id = ?', [id])) !== undefined;
  }

  async createDocument(document: NewDocument, content: Uint8Array): Promise<DocumentRecord> {
    assertFileSize(document, content);
    const record: DocumentRecord = { ...document, updatedAt: document.createdAt, version: 1, status: 'pending' };
    await this.#db.transaction(async (tx) => {
      await tx.run(INSERT_DOCUMENT, documentValues(record));
      if (record.signers) await signers.insertSigners(tx, record.id, record.signers);
      await writeChunks(tx, 'document_chunks', record.id, content);
      await sealing.recordAuditEvent(tx, record.id, { type: 'document.created', occurredAt: record.createdAt });
      return webhooks.enqueueWebhookEvent(tx, {
        type: 'document.created',
        organizationId: record.organizationId,
        documentId: record.id,
        occurredAt: record.createdAt,
        data: { documentId: record.id, filename: record.filename, pageCount: record.pageCount, createdAt: record.createdAt },
      });
    }).then((enqueued) => this.#enqueued(enqueued));
    return record;
  }

  async getDocument(id: string): Promise<DocumentRecord | null> {
    const row = await this.#db.get<DocumentRow>(DOCUMENT_BY_ID, [id]);
    return row ? toDocument(row) : null;
  }

  async listDocuments(
    organizationId: string,
    options: { limit: number; after?: DocumentCursor },
  ): Promise<DocumentRecord[]> {
    const { limit, after } = options;
    const rows = after
      ? await this.#db.all<DocumentRow>(DOCUMENTS_AFTER, [organizationId, toMillis(after.createdAt), after.id, limit])
      : await this.#db.all<DocumentRow>(DOCUMENTS_FIRST_PAGE, [organizationId, limit]);
    return rows.map(toDocument);
  }

  readDocumentContent(id: string, start: number, end: number): Promise<Uint8Array> {
    return readChunks(this.#db, 'document_chunks', id, start, end);
  }

  async putDocumentPreview(documentId: string, preview: DocumentPreview): Promise<void> {
    await this.#db.run(INSERT_PREVIEW, previewValues(documentId, preview));
  }

  async getDocumentPreview(documentId: string): Promise<DocumentPreview | null> {
    const row = await this.#db.get<PreviewRow>(PREVIEW_BY_DOCUMENT, [documentId]);
    return row ? toPreview(row) : null;
  }

  async recordSubmission(
    submission: StoredSubmission,
    idempotency?: IdempotencyScope,
  ): Promise<RecordSubmissionOutcome> {
    const { signerId } = submission;
    if (signerId !== undefined) return this.#recordSignerSubmission({ ...submission, signerId }, idempotency);
    let enqueued = 0;
    try {
      // The UPDATE takes the document's row lock (on SQLite, the transaction holds the database's write lock): a
      // concurrent call waits, then finds it completed (0 rows).
      const created = await this.#db.groupCommit(async (tx) => {
        const completed = await tx.run(
          "UPDATE documents SET status = 'completed', updated_at = ? WHERE id = ? AND status = 'pending' AND declined_at IS NULL",
          [toMillis(submission.receivedAt), submission.documentId],
        );
        if (completed !== 1) return false;
        await tx.run(INSERT_SUBMISSION, submissionValues(submission));
        // The audit event and the seal job commit with the submission, or not at all (the outbox).
        await sealing.recordAuditEvent(tx, submission.documentId, {
          type: 'document.submitted',
          occurredAt: submission.receivedAt,
          ip: submission.clientIp,
          userAgent: submission.userAgent,
        });
        await sealing.enqueueSealJob(tx, submission.documentId, submission.id, submission.receivedAt);
        enqueued = await webhooks.enqueueWebhookEvent(tx, {
          type: 'document.completed',
          organizationId: submission.organizationId,
          documentId: submission.documentId,
          occurredAt: submission.receivedAt,
          data: {
            documentId: submission.documentId,
            submissionId: submission.id,
            submittedAt: submission.receivedAt,
            checksum: submission.checksum,
          },
        });
        if (idempotency) {
          const body = JSON.stringify(submission.result);
          await tx.run(COMPLETE_IDEMPOTENCY, [201, body, idempotency.organizationId, idempotency.key]);
        }
        return true;
      });
      if (created) {
        this.#enqueued(enqueued);
        return { created: true, submission };
      }
    } catch (error) {
      // UNIQUE (document_id) backs the row lock up: losing that race also means "already submitted".
      if (!this.#db.isUniqueViolation(error)) throw error;
    }
    const existing = await this.getSubmissionForDocument(submission.documentId);
    if (existing) return { created: false, existing };
    if ((await this.getDocument(submission.documentId))?.declined) throw new DocumentDeclinedError(submission.documentId);
    throw new Error(`Cannot record a submission: no pending document ${submission.documentId}`);
  }

  async #recordSignerSubmission(
    submission: StoredSubmission & { signerId: string },
    idempotency: IdempotencyScope | undefined,
  ): Promise<RecordSubmissionOutcome> {
    const { outcome, enqueued } = await this.#db.groupCommit((tx) => signers.recordSignerSubmission(tx, submission, idempotency));
    if (outcome === 'created') {
      this.#enqueued(enqueued);
      return { created: true, submission };
    }
    if (outcome === 'document-declined') throw new DocumentDeclinedError(submission.documentId);
    const existing = await this.getSubmissionForSigner(submission.documentId, submission.signerId);
    if (!existing) throw new Error(`Cannot record a submission: document ${submission.documentId} is completed`);
    return { created: false, existing };
  }

  async getSubmissionForDocument(documentId: string): Promise<StoredSubmission | null> {
    const row = await this.#db.get<SubmissionRow>(SUBMISSION_BY_DOCUMENT, [documentId]);
    return row ? toSubmission(row) : null;
  }

  async getSubmissionForSigner(documentId: string, signerId: string | undefined): Promise<StoredSubmission | null> {
    const row = await signers.submissionOfSigner(this.#db, documentId, signerId);
    return row ? toSubmission(row) : null;
  }

  async listSubmissionsForDocument(documentId: string): Promise<StoredSubmission[]> {
    return (await signers.submissionsOfDocument(this.#db, documentId)).map(toSubmission);
  }

  getSignerStates(documentId: string): Promise<SignerState[]> {
    return signers.getSignerStates(this.#db, documentId);
  }

  async recordSignerOpened(
    documentId: string,
    signer: { id: string; name: string },
    event: Omit<NewAuditEvent, 'type'>,
  ): Promise<boolean> {
    const { first, enqueued } = await signers.recordSignerOpened(this.#db, documentId, signer, event);
    this.#enqueued(enqueued);
    return first;
  }

  async declineDocument(documentId: string, decline: DocumentDecline & { signerName?: string }): Promise<DocumentRecord | null> {
    const { enqueued } = await declines.declineDocument(this.#db, documentId, decline);
    this.#enqueued(enqueued);
    return this.getDocument(documentId);
  }

  revokeSessionKey(documentId: string, keyId: string, revokedAt: IsoTime): Promise<SessionKeyRecord | null> {
    return signers.revokeSessionKey(this.#db, documentId, keyId, revokedAt);
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
      const inserted = await this.#db.run(
        `INSERT INTO idempotency_keys (organization_id, key, fingerprint, status, created_at)
         VALUES (?, ?, ?, 'in_flight', ?) ON CONFLICT (organization_id, key) DO NOTHING`,
        [organizationId, key, fingerprint, now],
      );
      if (inserted === 1) return { state: 'claimed' };

      const claim = await this.#db.transaction(async (tx) => {
        const row = await tx.get<IdempotencyRow>(
          `SELECT fingerprint, status, response_status, response_body, created_at FROM idempotency_keys
           WHERE organization_id = ? AND key = ? FOR UPDATE`,
          [organizationId, key],
        );
        if (!row) return null;
        const { claim, write } = decideIdempotencyClaim(row, fingerprint, options);
        if (write) {
          await tx.run(
            `UPDATE idempotency_keys SET fingerprint = ?, status = 'in_flight', response_status = NULL,
               response_body = NULL, created_at = ?
             WHERE organization_id = ? AND key = ?`,
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
    await this.#db.run(COMPLETE_IDEMPOTENCY, [status, body, scope.organizationId, scope.key]);
  }

  async releaseIdempotencyKey(scope: IdempotencyScope): Promise<void> {
    await this.#db.run(
      "DELETE FROM idempotency_keys WHERE organization_id = ? AND key = ? AND status = 'in_flight'",
      [scope.organizationId, scope.key],
    );
  }

  async recordDocumentOpened(documentId: string, event: Omit<NewAuditEvent, 'type'>): Promise<void> {
    const enqueued = await this.#db.transaction(async (tx) => {
      const first = await sealing.recordAuditEvent(tx, documentId, { ...event, type: 'document.opened' });
      if (!first) return 0;
      return webhooks.enqueueDocumentEvent(tx, documentId, {
        type: 'document.viewed',
        occurredAt: event.occurredAt,
        data: { documentId, viewedAt: event.occurredAt },
      });
    });
    this.#enqueued(enqueued);
  }

  async listAuditEvents(documentId: string): Promise<AuditEvent[]> {
    const [events, signerEvents, declineEvents] = await Promise.all([
      sealing.listAuditEvents(this.#db, documentId),
      signers.listSignerEvents(this.#db, documentId),
      declines.declineEvents(this.#db, documentId),
    ]);
    const derived = [...signerEvents, ...declineEvents];
    return derived.length === 0 ? events : [...events, ...derived].sort(byOccurrence);
  }

  retrySealJob(documentId: string, now: Date): Promise<boolean> {
    return sealing.retrySealJob(this.#db, documentId, now);
  }

  listSealJobs(options: { status?: SealJobStatus; limit: number }): Promise<SealJob[]> {
    return sealing.listSealJobs(this.#db, options);
  }

  getSealState(documentId: string): Promise<SealState> {
    return sealing.getSealState(this.#db, documentId);
  }

  findSealedBySha256(sha256: string): Promise<SealedDocument[]> {
    return sealing.findSealedBySha256(this.#db, sha256);
  }

  readSealedContent(documentId: string, start: number, end: number): Promise<Uint8Array> {
    return readChunks(this.#db, 'sealed_chunks', documentId, start, end);
  }

  getStoredSecret(name: string): Promise<Uint8Array | null> {
    return sealing.getStoredSecret(this.#db, name);
  }

  putStoredSecretIfAbsent(name: string, value: Uint8Array): Promise<Uint8Array> {
    return sealing.putStoredSecretIfAbsent(this.#db, name, value);
  }

  createWebhookEndpoint(endpoint: WebhookEndpointRecord, options: { maxEndpoints: number }): Promise<boolean> {
    return webhooks.createWebhookEndpoint(this.#db, endpoint, options);
  }

  listWebhookEndpoints(organizationId: string, options: { limit: number; after?: WebhookCursor }): Promise<WebhookEndpointRecord[]> {
    return webhooks.listWebhookEndpoints(this.#db, organizationId, options);
  }

  getWebhookEndpoint(organizationId: string, id: string): Promise<WebhookEndpointRecord | null> {
    return webhooks.getWebhookEndpoint(this.#db, organizationId, id);
  }

  updateWebhookEndpoint(organizationId: string, id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpointRecord | null> {
    return webhooks.updateWebhookEndpoint(this.#db, organizationId, id, changes);
  }

  deleteWebhookEndpoint(organizationId: string, id: string): Promise<WebhookEndpointRecord | null> {
    return webhooks.deleteWebhookEndpoint(this.#db, organizationId, id);
  }

  async enqueueWebhookEventTo(endpointId: string, event: NewWebhookEvent): Promise<WebhookDeliveryRecord> {
    const delivery = await webhooks.enqueueWebhookEventTo(this.#db, endpointId, event);
    this.#enqueued(1);
    return delivery;
  }

  fanOutWebhookEvents(options: { limit: number }): Promise<number> {
    return webhooks.fanOutWebhookEvents(this.#db, options);
  }

  listWebhookDeliveries(endpointId: string, options: { limit: number; after?: WebhookCursor }): Promise<WebhookDeliveryRecord[]> {
    return webhooks.listWebhookDeliveries(this.#db, endpointId, options);
  }

  async retryWebhookDelivery(endpointId: string, deliveryId: string, now: IsoTime): Promise<WebhookDeliveryRecord | null> {
    const delivery = await webhooks.retryWebhookDelivery(this.#db, endpointId, deliveryId, now);
    if (delivery?.status === 'pending') this.#enqueued(1);
    return delivery;
  }

  onWebhookEvents(listener: () => void): () => void {
    this.#webhookListeners.add(listener);
    return () => this.#webhookListeners.delete(listener);
  }

  /** Tells this process's dispatchers that a commit enqueued deliveries. */
  #enqueued(deliveries: number): void {
    if (deliveries > 0) for (const listener of this.#webhookListeners) listener();
  }
}
