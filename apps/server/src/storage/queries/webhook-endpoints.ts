import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@signet/contract';
import type { Updateable } from 'kysely';
import type { SqlDatabase } from '../sql-database.js';
import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import type { WebhookCursor, WebhookEndpointChanges, WebhookEndpointRecord } from '../types.js';
import { toIso, toIsoOrNull, toMillis, toMillisOrNull } from '../schema.js';

/*
 * Webhook endpoints (`webhook_endpoints`, their secrets encrypted by `webhooks/secrets.ts`) and the event types each
 * subscribes to (`webhook_subscriptions`). Their events and deliveries are in `webhook-deliveries.ts`.
 */

type EndpointRow = Tables['webhook_endpoints'];

/** An endpoint's row with its subscriptions (in `WEBHOOK_EVENT_TYPES` order). */
export function toEndpoint(row: EndpointRow, events: readonly string[]): WebhookEndpointRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    description: row.description,
    events: events as WebhookEventType[],
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: toIsoOrNull(row.previous_secret_expires_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** Subscriptions in the order of `WEBHOOK_EVENT_TYPES`, by endpoint. */
async function subscriptionsOf(db: Db, endpointIds: string[]): Promise<Map<string, string[]>> {
  const byEndpoint = new Map<string, string[]>(endpointIds.map((id) => [id, []]));
  if (endpointIds.length === 0) return byEndpoint;
  const rows = await db.selectFrom('webhook_subscriptions').select(['endpoint_id', 'event_type']).where('endpoint_id', 'in', endpointIds).execute();
  for (const row of rows) byEndpoint.get(row.endpoint_id)?.push(row.event_type);
  const order = (type: string) => (WEBHOOK_EVENT_TYPES as readonly string[]).indexOf(type);
  for (const events of byEndpoint.values()) events.sort((a, b) => order(a) - order(b));
  return byEndpoint;
}

async function withSubscriptions(db: Db, rows: EndpointRow[]): Promise<WebhookEndpointRecord[]> {
  const events = await subscriptionsOf(db, rows.map((row) => row.id));
  return rows.map((row) => toEndpoint(row, events.get(row.id) ?? []));
}

async function subscribe(db: Db, endpoint: { id: string; organizationId: string }, events: readonly string[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('webhook_subscriptions')
    .values(events.map((type) => ({ endpoint_id: endpoint.id, organization_id: endpoint.organizationId, event_type: type })))
    .execute();
}

/**
 * Registers `endpoint` and its subscriptions unless its organization already has `maxEndpoints` of them (enabled or
 * not); false then, with nothing written. The organization's row is locked first, so concurrent registrations on any
 * instance cannot pass the cap together.
 */
export async function createWebhookEndpoint(
  database: SqlDatabase,
  endpoint: WebhookEndpointRecord,
  { maxEndpoints }: { maxEndpoints: number },
): Promise<boolean> {
  return database.transaction(async (tx) => {
    await tx.query.selectFrom('organizations').select('id').where('id', '=', endpoint.organizationId).forUpdate().executeTakeFirst();
    const count = await tx.query
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', endpoint.organizationId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= maxEndpoints) return false;
    await tx.query
      .insertInto('webhook_endpoints')
      .values({
        id: endpoint.id,
        organization_id: endpoint.organizationId,
        url: endpoint.url,
        description: endpoint.description,
        enabled: endpoint.enabled ? 1 : 0,
        disabled_reason: endpoint.disabledReason,
        secret: endpoint.secret,
        previous_secret: endpoint.previousSecret,
        previous_secret_expires_at: toMillisOrNull(endpoint.previousSecretExpiresAt),
        created_at: toMillis(endpoint.createdAt),
        updated_at: toMillis(endpoint.updatedAt),
      })
      .execute();
    await subscribe(tx.query, endpoint, endpoint.events);
    return true;
  });
}

/** The organization's endpoints, newest first by (createdAt, id); strictly after `after` when given. */
export async function listWebhookEndpoints(
  db: Db,
  organizationId: string,
  options: { limit: number; after?: WebhookCursor },
): Promise<WebhookEndpointRecord[]> {
  const { limit, after } = options;
  let query = db.selectFrom('webhook_endpoints').selectAll().where('organization_id', '=', organizationId);
  if (after) {
    const at = toMillis(after.createdAt);
    query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', after.id)])]));
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return withSubscriptions(db, rows);
}

/** An endpoint of the organization with its subscriptions, or null. */
export async function getWebhookEndpoint(db: Db, organizationId: string, id: string): Promise<WebhookEndpointRecord | null> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return row ? (await withSubscriptions(db, [row]))[0]! : null;
}

/** The columns `changes` sets: each member given, and `updated_at` always. */
function changedColumns(changes: WebhookEndpointChanges): Updateable<EndpointRow> {
  const set: Updateable<EndpointRow> = { updated_at: toMillis(changes.updatedAt) };
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.enabled !== undefined) set.enabled = changes.enabled ? 1 : 0;
  if (changes.disabledReason !== undefined) set.disabled_reason = changes.disabledReason;
  if (changes.secret !== undefined) set.secret = changes.secret;
  if (changes.previousSecret !== undefined) set.previous_secret = changes.previousSecret;
  if (changes.previousSecretExpiresAt !== undefined) set.previous_secret_expires_at = toMillisOrNull(changes.previousSecretExpiresAt);
  return set;
}

/** Applies `changes` (and replaces the subscriptions when `events` is given); null when there is no such endpoint. */
export async function updateWebhookEndpoint(
  database: SqlDatabase,
  organizationId: string,
  id: string,
  changes: WebhookEndpointChanges,
): Promise<WebhookEndpointRecord | null> {
  return database.transaction(async (tx) => {
    const changed = await tx.query
      .updateTable('webhook_endpoints')
      .set(changedColumns(changes))
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (changed.numUpdatedRows !== 1n) return null;
    if (changes.events) {
      await tx.query.deleteFrom('webhook_subscriptions').where('endpoint_id', '=', id).execute();
      await subscribe(tx.query, { id, organizationId }, changes.events);
    }
    return getWebhookEndpoint(tx.query, organizationId, id);
  });
}

/** Deletes an endpoint with its subscriptions and deliveries; null when there is none. */
export async function deleteWebhookEndpoint(database: SqlDatabase, organizationId: string, id: string): Promise<WebhookEndpointRecord | null> {
  return database.transaction(async (tx) => {
    const endpoint = await getWebhookEndpoint(tx.query, organizationId, id);
    if (!endpoint) return null;
    // Deliveries and subscriptions go with it (ON DELETE CASCADE); events no delivery refers to any more, too.
    await tx.query.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    await tx.query
      .deleteFrom('webhook_events')
      .where('organization_id', '=', organizationId)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'webhook_events.id'))))
      .execute();
    return endpoint;
  });
}
