import { sql } from 'kysely';
import { newId } from '../../ids.js';
import { prepare } from '../prepared.js';
import { toIso, toIsoOrNull, toMillis } from '../schema.js';
import type { SqlDatabase } from '../sql-database.js';
import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import type { ClaimedWebhookDelivery, IsoTime, NewWebhookEvent, WebhookCursor, WebhookDeliveryRecord } from '../types.js';

/*
 * Webhook events (`webhook_events`, the outbox a change writes in its own transaction: a new document, an opening, a
 * submission, a seal) and their deliveries (`webhook_deliveries`, one per event and endpoint, which is also the
 * history the API lists). The webhook kind's claims and settlements are its queue's (`webhooks/delivery-queue.ts`).
 */

/** A delivery's columns, for a typed query of `webhook_deliveries as d`. */
export const DELIVERY_SELECT = [
  'd.id',
  'd.endpoint_id',
  'd.event_id',
  'd.event_type',
  'd.document_id',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.lease_owner',
  'd.last_status_code',
  'd.last_error',
  'd.last_response_body',
  'd.last_duration_ms',
  'd.created_at',
  'd.delivered_at',
] as const;

type Unqualified<Column> = Column extends `${string}.${infer Name}` ? Name : never;

/** A delivery's row as `DELIVERY_SELECT` reads it. */
type DeliveryRow = Pick<Tables['webhook_deliveries'], Unqualified<(typeof DELIVERY_SELECT)[number]>>;

/** A delivery's row as a record. */
export function toDelivery(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    webhookId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    documentId: row.document_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: toIsoOrNull(row.next_attempt_at),
    leaseOwner: row.lease_owner,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastResponseBody: row.last_response_body,
    lastDurationMs: row.last_duration_ms,
    createdAt: toIso(row.created_at),
    deliveredAt: toIsoOrNull(row.delivered_at),
  };
}

/** What a runner needs of a taken delivery besides the delivery itself (`webhook_endpoints as e`, `webhook_events as ev`). */
export const CLAIMED_SELECT = [
  ...DELIVERY_SELECT,
  'e.organization_id',
  'e.url',
  'e.secret',
  'e.previous_secret',
  'e.previous_secret_expires_at',
  'ev.body',
] as const;

/** A taken delivery's row: the delivery's columns, its endpoint's and its event's body. */
type ClaimedRow = DeliveryRow &
  Pick<Tables['webhook_endpoints'], 'organization_id' | 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'> &
  Pick<Tables['webhook_events'], 'body'>;

/** A taken delivery's row as what its runner sends, where and signed with what. */
export function toClaimed(row: ClaimedRow): ClaimedWebhookDelivery {
  return {
    ...toDelivery(row),
    organizationId: row.organization_id,
    url: row.url,
    body: row.body,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: toIsoOrNull(row.previous_secret_expires_at),
  };
}

/** `id` as the SQL text of a delivery id: `dlv_`, the event's random part, and ten of the endpoint's. */
const DELIVERY_ID_SQL = sql<string>`'dlv_' || substr(ev.id, 5) || substr(s.endpoint_id, 4, 10)`;

/** The same id, made here: for a delivery to one endpoint. */
const deliveryId = (eventId: string, endpointId: string) => `dlv_${eventId.slice(4)}${endpointId.slice(3, 13)}`;

async function insertEvent(db: Db, id: string, event: NewWebhookEvent, fannedOut: boolean): Promise<void> {
  const body = JSON.stringify({ type: event.type, timestamp: event.occurredAt, data: event.data });
  await db
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
 * was stored, 0 when no endpoint wants it (nothing is stored). After its commit the caller wakes this process's
 * dispatcher (`webhooks/wake.ts`).
 */
export async function enqueueWebhookEvent(db: Db, event: NewWebhookEvent): Promise<number> {
  const { rows } = await SUBSCRIBED(db, event.organizationId, event.type);
  if (rows.length === 0) return 0;
  await insertEvent(db, newId('msg'), event, false);
  return 1;
}

/** `enqueueWebhookEvent` for an event of a document, whose organization the document's row names. */
export async function enqueueDocumentEvent(
  db: Db,
  documentId: string,
  event: Omit<NewWebhookEvent, 'organizationId' | 'documentId'>,
): Promise<number> {
  const row = await db.selectFrom('documents').select('organization_id').where('id', '=', documentId).executeTakeFirst();
  if (!row) return 0;
  return enqueueWebhookEvent(db, { ...event, organizationId: row.organization_id, documentId });
}

/**
 * Turns up to `limit` events not fanned out yet, oldest first, into one pending delivery per endpoint that was
 * enabled, subscribed to the type and registered when the event happened; resolves with the events handled.
 * Instances sharing a PostgreSQL database never fan out the same event (`SKIP LOCKED`; a delivery's id is made of
 * its event's and its endpoint's, so a repeat would add nothing).
 */
export async function fanOutWebhookEvents(database: SqlDatabase, options: { limit: number }): Promise<number> {
  return database.transaction(async (tx) => {
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

/** Enqueues `event` to this one endpoint, whatever it subscribes to (`webhook.test`): its delivery, due now. */
export async function enqueueWebhookEventTo(database: SqlDatabase, endpointId: string, event: NewWebhookEvent): Promise<WebhookDeliveryRecord> {
  return database.transaction(async (tx) => {
    const id = newId('msg');
    await insertEvent(tx.query, id, event, true);
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

/** An endpoint's deliveries, newest first by (createdAt, id); strictly after `after` when given. */
export async function listWebhookDeliveries(
  db: Db,
  endpointId: string,
  options: { limit: number; after?: WebhookCursor },
): Promise<WebhookDeliveryRecord[]> {
  const { limit, after } = options;
  let query = db.selectFrom('webhook_deliveries as d').select(DELIVERY_SELECT).where('d.endpoint_id', '=', endpointId);
  if (after) {
    const at = toMillis(after.createdAt);
    query = query.where((eb) => eb.or([eb('d.created_at', '<', at), eb.and([eb('d.created_at', '=', at), eb('d.id', '<', after.id)])]));
  }
  const rows = await query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(limit).execute();
  return rows.map(toDelivery);
}

/**
 * Makes a delivery due now with a fresh count of attempts, whatever its status (a resend), except one being sent
 * right now: that one is left to its attempt, and is due again only if the attempt fails. Null when there is none.
 */
export async function retryWebhookDelivery(
  database: SqlDatabase,
  endpointId: string,
  deliveryId: string,
  now: IsoTime,
): Promise<WebhookDeliveryRecord | null> {
  const ms = toMillis(now);
  return database.transaction(async (tx) => {
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
