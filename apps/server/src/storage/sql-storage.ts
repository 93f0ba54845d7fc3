import { migrate } from './migrations.js';
import type { SqlDatabase } from './sql-database.js';
import * as sealing from './sealing-store.js';
import * as webhooks from './webhook-store.js';
import { readChunks } from './chunks.js';
import type {
  IsoTime,
  SealJob,
  SealJobStatus,
  SealState,
  SealedDocument,
  Storage,
  NewWebhookEvent,
  WebhookCursor,
  WebhookDeliveryRecord,
  WebhookEndpointChanges,
  WebhookEndpointRecord,
} from './types.js';

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
    return readChunks(this.#db.query, 'sealed_chunks', documentId, start, end);
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
    this.webhookEventsEnqueued(1);
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
    if (delivery?.status === 'pending') this.webhookEventsEnqueued(1);
    return delivery;
  }

  onWebhookEvents(listener: () => void): () => void {
    this.#webhookListeners.add(listener);
    return () => this.#webhookListeners.delete(listener);
  }

  webhookEventsEnqueued(count: number): void {
    if (count > 0) for (const listener of this.#webhookListeners) listener();
  }
}
