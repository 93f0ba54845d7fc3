import { WEBHOOK_EVENT_TYPES } from '@signet/contract';
import { newId } from '../ids.js';
import { toMillis } from './schema.js';
import type { Queryable, SqlDatabase } from './sql-database.js';
import type {
  IsoTime,
  NewWebhookEvent,
  WebhookCursor,
  WebhookDeliveryRecord,
  WebhookEndpointChanges,
  WebhookEndpointRecord,
} from './types.js';
import {
  DELIVERY_COLUMNS,
  ENDPOINT_COLUMNS,
  toDelivery,
  toEndpoint,
  type DeliveryRow,
  type EndpointRow,
} from './webhook-rows.js';

/*
 * The webhook half of `SqlStorage` (its `Storage` methods delegate here): endpoints and their subscriptions, the
 * events, and the deliveries' outbox, on both engines. `enqueueWebhookEvent` runs in the transaction of the change
 * that causes the event (a new document, its first opening, a submission, a seal).
 */

const ENDPOINT_BY_ID = `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = ? AND id = ?`;
const DELIVERY_BY_ID = `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.endpoint_id = ? AND d.id = ?`;

/** `id` as the SQL text of a delivery id: `dlv_`, the event's random part, and ten of the endpoint's. */
const DELIVERY_ID_SQL = "'dlv_' || substr(ev.id, 5) || substr(s.endpoint_id, 4, 10)";

/** The same id, made here: for a delivery to one endpoint. */
const deliveryId = (eventId: string, endpointId: string) => `dlv_${eventId.slice(4)}${endpointId.slice(3, 13)}`;

/** Subscriptions in the order of `WEBHOOK_EVENT_TYPES`, by endpoint. */
async function subscriptionsOf(db: Queryable, endpointIds: string[]): Promise<Map<string, string[]>> {
  const byEndpoint = new Map<string, string[]>(endpointIds.map((id) => [id, []]));
  if (endpointIds.length === 0) return byEndpoint;
  const rows = await db.all<{ endpoint_id: string; event_type: string }>(
    `SELECT endpoint_id, event_type FROM webhook_subscriptions WHERE endpoint_id IN (${endpointIds.map(() => '?').join(', ')})`,
    endpointIds,
  );
  for (const row of rows) byEndpoint.get(row.endpoint_id)?.push(row.event_type);
  const order = (type: string) => (WEBHOOK_EVENT_TYPES as readonly string[]).indexOf(type);
  for (const events of byEndpoint.values()) events.sort((a, b) => order(a) - order(b));
  return byEndpoint;
}

async function withSubscriptions(db: Queryable, rows: EndpointRow[]): Promise<WebhookEndpointRecord[]> {
  const events = await subscriptionsOf(db, rows.map((row) => row.id));
  return rows.map((row) => toEndpoint(row, events.get(row.id) ?? []));
}

async function subscribe(tx: Queryable, endpoint: { id: string; organizationId: string }, events: readonly string[]) {
  for (const type of events) {
    await tx.run('INSERT INTO webhook_subscriptions (endpoint_id, organization_id, event_type) VALUES (?, ?, ?)', [
      endpoint.id,
      endpoint.organizationId,
      type,
    ]);
  }
}

async function insertEvent(tx: Queryable, id: string, event: NewWebhookEvent, fannedOut: boolean): Promise<void> {
  const body = JSON.stringify({ type: event.type, timestamp: event.occurredAt, data: event.data });
  await tx.run(
    'INSERT INTO webhook_events (id, organization_id, type, document_id, body, occurred_at, fanned_out) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [id, event.organizationId, event.type, event.documentId, body, toMillis(event.occurredAt), fannedOut ? 1 : 0],
  );
}

/**
 * Enqueues `event`, in the caller's transaction, when an enabled endpoint of its organization subscribes to its
 * type: one row, however many endpoints (a dispatcher fans it out: `fanOutWebhookEvents`). Resolves with 1 when it
 * was stored, 0 when no endpoint wants it (nothing is stored).
 */
export async function enqueueWebhookEvent(tx: Queryable, event: NewWebhookEvent): Promise<number> {
  const subscribed = await tx.get(
    `SELECT 1 AS found FROM webhook_subscriptions s JOIN webhook_endpoints e ON e.id = s.endpoint_id
     WHERE s.organization_id = ? AND s.event_type = ? AND e.enabled = 1 LIMIT 1`,
    [event.organizationId, event.type],
  );
  if (!subscribed) return 0;
  await insertEvent(tx, newId('msg'), event, false);
  return 1;
}

/**
 * Turns up to `limit` events not fanned out yet, oldest first, into one pending delivery per endpoint that was
 * enabled, subscribed to the type and registered when the event happened; resolves with the events handled.
 * Instances sharing a PostgreSQL database never fan out the same event (`SKIP LOCKED`; a delivery's id is made of
 * its event's and its endpoint's, so a repeat would add nothing).
 */
export async function fanOutWebhookEvents(db: SqlDatabase, options: { limit: number }): Promise<number> {
  return db.transaction(async (tx) => {
    const events = await tx.all<{ id: string }>(
      'SELECT id FROM webhook_events WHERE fanned_out = 0 ORDER BY occurred_at LIMIT ? FOR UPDATE SKIP LOCKED',
      [options.limit],
    );
    if (events.length === 0) return 0;
    const ids = events.map((event) => event.id);
    const list = ids.map(() => '?').join(', ');
    const now = Date.now();
    await tx.run(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, event_type, document_id, occurred_at, status, attempts,
         next_attempt_at, created_at, updated_at)
       SELECT ${DELIVERY_ID_SQL}, ev.id, s.endpoint_id, ev.type, ev.document_id, ev.occurred_at, 'pending', 0,
         CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT)
       FROM webhook_events ev
       JOIN webhook_subscriptions s ON s.organization_id = ev.organization_id AND s.event_type = ev.type
       JOIN webhook_endpoints e ON e.id = s.endpoint_id
       WHERE ev.id IN (${list}) AND e.enabled = 1 AND e.created_at <= ev.occurred_at
       ON CONFLICT DO NOTHING`,
      [now, now, now, ...ids],
    );
    await tx.run(`UPDATE webhook_events SET fanned_out = 1 WHERE id IN (${list})`, ids);
    return ids.length;
  });
}

/** `enqueueWebhookEvent` for an event of a document, whose organization the document's row names. */
export async function enqueueDocumentEvent(
  tx: Queryable,
  documentId: string,
  event: Omit<NewWebhookEvent, 'organizationId' | 'documentId'>,
): Promise<number> {
  const row = await tx.get<{ organization_id: string }>('SELECT organization_id FROM documents WHERE id = ?', [documentId]);
  if (!row) return 0;
  return enqueueWebhookEvent(tx, { ...event, organizationId: row.organization_id, documentId });
}

/**
 * Registers `endpoint` unless its organization already has `maxEndpoints` of them (enabled or not); false then.
 * The organization's row is locked first, so concurrent registrations on any instance cannot pass the cap together.
 */
export async function createWebhookEndpoint(
  db: SqlDatabase,
  endpoint: WebhookEndpointRecord,
  { maxEndpoints }: { maxEndpoints: number },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.get('SELECT id FROM organizations WHERE id = ? FOR UPDATE', [endpoint.organizationId]);
    const count = await tx.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE organization_id = ?', [
      endpoint.organizationId,
    ]);
    if (Number(count?.n ?? 0) >= maxEndpoints) return false;
    await tx.run(`INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      endpoint.id,
      endpoint.organizationId,
      endpoint.url,
      endpoint.description,
      endpoint.enabled ? 1 : 0,
      endpoint.disabledReason,
      endpoint.secret,
      endpoint.previousSecret,
      endpoint.previousSecretExpiresAt === null ? null : toMillis(endpoint.previousSecretExpiresAt),
      toMillis(endpoint.createdAt),
      toMillis(endpoint.updatedAt),
    ]);
    await subscribe(tx, endpoint, endpoint.events);
    return true;
  });
}

export async function listWebhookEndpoints(
  db: SqlDatabase,
  organizationId: string,
  options: { limit: number; after?: WebhookCursor },
): Promise<WebhookEndpointRecord[]> {
  const { limit, after } = options;
  const rows = after
    ? await db.all<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
         WHERE organization_id = ? AND (created_at < ? OR (created_at = ? AND id < ?))
         ORDER BY created_at DESC, id DESC LIMIT ?`,
        [organizationId, toMillis(after.createdAt), toMillis(after.createdAt), after.id, limit],
      )
    : await db.all<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = ?
         ORDER BY created_at DESC, id DESC LIMIT ?`,
        [organizationId, limit],
      );
  return withSubscriptions(db, rows);
}

export async function getWebhookEndpoint(db: Queryable, organizationId: string, id: string): Promise<WebhookEndpointRecord | null> {
  const row = await db.get<EndpointRow>(ENDPOINT_BY_ID, [organizationId, id]);
  return row ? (await withSubscriptions(db, [row]))[0]! : null;
}

/** Column of each member of `WebhookEndpointChanges` that is one. */
const CHANGE_COLUMNS = {
  url: 'url',
  description: 'description',
  enabled: 'enabled',
  disabledReason: 'disabled_reason',
  secret: 'secret',
  previousSecret: 'previous_secret',
  previousSecretExpiresAt: 'previous_secret_expires_at',
  updatedAt: 'updated_at',
} as const;

function columnValue(key: keyof typeof CHANGE_COLUMNS, value: unknown): unknown {
  if (key === 'enabled') return value ? 1 : 0;
  if (key === 'updatedAt' || key === 'previousSecretExpiresAt') return value === null ? null : toMillis(value as IsoTime);
  return value;
}

export async function updateWebhookEndpoint(
  db: SqlDatabase,
  organizationId: string,
  id: string,
  changes: WebhookEndpointChanges,
): Promise<WebhookEndpointRecord | null> {
  return db.transaction(async (tx) => {
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const key of Object.keys(CHANGE_COLUMNS) as (keyof typeof CHANGE_COLUMNS)[]) {
      if (changes[key] === undefined) continue;
      sets.push(`${CHANGE_COLUMNS[key]} = ?`);
      values.push(columnValue(key, changes[key]));
    }
    const changed = await tx.run(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE organization_id = ? AND id = ?`, [
      ...values,
      organizationId,
      id,
    ]);
    if (changed !== 1) return null;
    if (changes.events) {
      await tx.run('DELETE FROM webhook_subscriptions WHERE endpoint_id = ?', [id]);
      await subscribe(tx, { id, organizationId }, changes.events);
    }
    return getWebhookEndpoint(tx, organizationId, id);
  });
}

export async function deleteWebhookEndpoint(db: SqlDatabase, organizationId: string, id: string): Promise<WebhookEndpointRecord | null> {
  return db.transaction(async (tx) => {
    const endpoint = await getWebhookEndpoint(tx, organizationId, id);
    if (!endpoint) return null;
    // Deliveries and subscriptions go with it (ON DELETE CASCADE); events no delivery refers to any more, too.
    await tx.run('DELETE FROM webhook_endpoints WHERE id = ?', [id]);
    await tx.run(
      `DELETE FROM webhook_events WHERE organization_id = ?
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
      [organizationId],
    );
    return endpoint;
  });
}

export async function enqueueWebhookEventTo(db: SqlDatabase, endpointId: string, event: NewWebhookEvent): Promise<WebhookDeliveryRecord> {
  return db.transaction(async (tx) => {
    const id = newId('msg');
    await insertEvent(tx, id, event, true);
    const now = Date.now();
    await tx.run(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, event_type, document_id, occurred_at, status, attempts,
         next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      [deliveryId(id, endpointId), id, endpointId, event.type, event.documentId, toMillis(event.occurredAt), now, now, now],
    );
    const row = await tx.get<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.event_id = ?`, [id]);
    return toDelivery(row!);
  });
}

export async function listWebhookDeliveries(
  db: SqlDatabase,
  endpointId: string,
  options: { limit: number; after?: WebhookCursor },
): Promise<WebhookDeliveryRecord[]> {
  const { limit, after } = options;
  const rows = after
    ? await db.all<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
         WHERE d.endpoint_id = ? AND (d.created_at < ? OR (d.created_at = ? AND d.id < ?))
         ORDER BY d.created_at DESC, d.id DESC LIMIT ?`,
        [endpointId, toMillis(after.createdAt), toMillis(after.createdAt), after.id, limit],
      )
    : await db.all<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.endpoint_id = ?
         ORDER BY d.created_at DESC, d.id DESC LIMIT ?`,
        [endpointId, limit],
      );
  return rows.map(toDelivery);
}

export async function retryWebhookDelivery(
  db: SqlDatabase,
  endpointId: string,
  deliveryId: string,
  now: IsoTime,
): Promise<WebhookDeliveryRecord | null> {
  const ms = toMillis(now);
  return db.transaction(async (tx) => {
    // One being sent right now is left to its attempt: it is due again only if that attempt fails.
    await tx.run(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ?
       WHERE endpoint_id = ? AND id = ? AND status <> 'sending'`,
      [ms, ms, endpointId, deliveryId],
    );
    const row = await tx.get<DeliveryRow>(DELIVERY_BY_ID, [endpointId, deliveryId]);
    return row ? toDelivery(row) : null;
  });
}
