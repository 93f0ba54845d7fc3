import { WEBHOOK_EVENT_TYPES } from '@signet/contract';
import { prepare } from './prepared.js';
import { sql } from 'kysely';
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
  DELIVERY_SELECT,
  ENDPOINT_COLUMNS,
  toDelivery,
  toEndpoint,
  type EndpointRow,
} from './webhook-rows.js';

/*
 * The webhook half of `SqlStorage` (its `Storage` methods delegate here): endpoints and their subscriptions, the
 * events, and the deliveries' outbox, on both engines. `enqueueWebhookEvent` runs in the transaction of the change
 * that causes the event (a new document, its first opening, a submission, a seal).
 */

const ENDPOINT_BY_ID = `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = ? AND id = ?`;

/** `id` as the SQL text of a delivery id: `dlv_`, the event's random part, and ten of the endpoint's. */
const DELIVERY_ID_SQL = sql<string>`'dlv_' || substr(ev.id, 5) || substr(s.endpoint_id, 4, 10)`;

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
  await tx.query
    .insertInto('webhook_events')
    .values({
      id,
      organization_id: event.organizationId,
      type: event.type,
      document_id: event.documentId,
      body,
      occurred_at: toMillis(event.occurredAt),
      fanned_out: fannedOut ? 1 : 0,
    })
    .execute();
}

/** Whether an enabled endpoint of the organization subscribes to the type: on every submission's path, compiled once. */
const SUBSCRIBED = prepare<{ endpoint_id: string }, [string, string]>(
  (db, organizationId, type) =>
    db
      .selectFrom('webhook_subscriptions as s')
      .innerJoin('webhook_endpoints as e', 'e.id', 's.endpoint_id')
      .select('s.endpoint_id')
      .where('s.organization_id', '=', organizationId as string)
      .where('s.event_type', '=', type as string)
      .where('e.enabled', '=', 1)
      .limit(1),
  2,
);

/**
 * Enqueues `event`, in the caller's transaction, when an enabled endpoint of its organization subscribes to its
 * type: one row, however many endpoints (a dispatcher fans it out: `fanOutWebhookEvents`). Resolves with 1 when it
 * was stored, 0 when no endpoint wants it (nothing is stored).
 */
export async function enqueueWebhookEvent(tx: Queryable, event: NewWebhookEvent): Promise<number> {
  const { rows } = await SUBSCRIBED(tx.query, event.organizationId, event.type);
  if (rows.length === 0) return 0;
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
    const events = await tx.query
      .selectFrom('webhook_events')
      .select('id')
      .where('fanned_out', '=', 0)
      .orderBy('occurred_at')
      .limit(options.limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (events.length === 0) return 0;
    const ids = events.map((event) => event.id);
    const now = Date.now();
    await tx.query
      .insertInto('webhook_deliveries')
      .columns(['id', 'event_id', 'endpoint_id', 'event_type', 'document_id', 'occurred_at', 'status', 'attempts', 'next_attempt_at', 'created_at', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('webhook_events as ev')
          .innerJoin('webhook_subscriptions as s', (join) => join.onRef('s.organization_id', '=', 'ev.organization_id').onRef('s.event_type', '=', 'ev.type'))
          .innerJoin('webhook_endpoints as e', 'e.id', 's.endpoint_id')
          .select([
            DELIVERY_ID_SQL.as('id'),
            'ev.id as event_id',
            's.endpoint_id',
            'ev.type as event_type',
            'ev.document_id',
            'ev.occurred_at',
            sql.lit('pending').as('status'),
            sql.lit(0).as('attempts'),
            sql<number>`CAST(${now} AS BIGINT)`.as('next_attempt_at'),
            sql<number>`CAST(${now} AS BIGINT)`.as('created_at'),
            sql<number>`CAST(${now} AS BIGINT)`.as('updated_at'),
          ])
          .where('ev.id', 'in', ids)
          .where('e.enabled', '=', 1)
          .whereRef('e.created_at', '<=', 'ev.occurred_at'),
      )
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    await tx.query.updateTable('webhook_events').set({ fanned_out: 1 }).where('id', 'in', ids).execute();
    return ids.length;
  });
}

/** `enqueueWebhookEvent` for an event of a document, whose organization the document's row names. */
export async function enqueueDocumentEvent(
  tx: Queryable,
  documentId: string,
  event: Omit<NewWebhookEvent, 'organizationId' | 'documentId'>,
): Promise<number> {
  const row = await tx.query.selectFrom('documents').select('organization_id').where('id', '=', documentId).executeTakeFirst();
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
    await tx.query
      .insertInto('webhook_deliveries')
      .values({
        id: deliveryId(id, endpointId),
        event_id: id,
        endpoint_id: endpointId,
        event_type: event.type,
        document_id: event.documentId,
        occurred_at: toMillis(event.occurredAt),
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const row = await tx.query.selectFrom('webhook_deliveries as d').select(DELIVERY_SELECT).where('d.event_id', '=', id).executeTakeFirstOrThrow();
    return toDelivery(row);
  });
}

/** An endpoint's deliveries, newest first by (created_at, id), after `after` when given. */
export async function listWebhookDeliveries(
  db: SqlDatabase,
  endpointId: string,
  options: { limit: number; after?: WebhookCursor },
): Promise<WebhookDeliveryRecord[]> {
  const { limit, after } = options;
  let query = db.query.selectFrom('webhook_deliveries as d').select(DELIVERY_SELECT).where('d.endpoint_id', '=', endpointId);
  if (after) {
    const at = toMillis(after.createdAt);
    query = query.where((eb) => eb.or([eb('d.created_at', '<', at), eb.and([eb('d.created_at', '=', at), eb('d.id', '<', after.id)])]));
  }
  const rows = await query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(limit).execute();
  return rows.map(toDelivery);
}

/**
 * Makes a delivery due now with a fresh count of attempts, whatever its status (a resend), except one being sent
 * right now: that one is left to its attempt, and is due again only if the attempt fails.
 */
export async function retryWebhookDelivery(
  db: SqlDatabase,
  endpointId: string,
  deliveryId: string,
  now: IsoTime,
): Promise<WebhookDeliveryRecord | null> {
  const ms = toMillis(now);
  return db.transaction(async (tx) => {
    await tx.query
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: ms, updated_at: ms })
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', deliveryId)
      .where('status', '<>', 'sending')
      .execute();
    const row = await tx.query
      .selectFrom('webhook_deliveries as d')
      .select(DELIVERY_SELECT)
      .where('d.endpoint_id', '=', endpointId)
      .where('d.id', '=', deliveryId)
      .executeTakeFirst();
    return row ? toDelivery(row) : null;
  });
}
