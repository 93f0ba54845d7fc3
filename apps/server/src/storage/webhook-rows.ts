import type { WebhookEventType } from '@signet/contract';
import type { ClaimedWebhookDelivery, WebhookDeliveryRecord, WebhookDeliveryStatus, WebhookEndpointRecord } from './types.js';

/*
 * The rows of the webhook tables (`migrations/004_webhooks.ts`) and how a row becomes a record. Times are epoch
 * milliseconds in rows, ISO strings in records.
 */

/** Epoch milliseconds as a row holds them: a number from SQLite, a string from PostgreSQL's BIGINT. */
type Millis = number | string;

const toIso = (ms: Millis): string => new Date(Number(ms)).toISOString();
const toIsoOrNull = (ms: Millis | null): string | null => (ms === null ? null : toIso(ms));
const toNumberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

export const ENDPOINT_COLUMNS =
  'id, organization_id, url, description, enabled, disabled_reason, secret, previous_secret, previous_secret_expires_at, created_at, updated_at';

export interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  enabled: number | string;
  disabled_reason: string | null;
  secret: Uint8Array;
  previous_secret: Uint8Array | null;
  previous_secret_expires_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
}

/** An endpoint's row with its subscriptions (in `WEBHOOK_EVENT_TYPES` order, as the caller sorts them). */
export function toEndpoint(row: EndpointRow, events: string[]): WebhookEndpointRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    description: row.description,
    events: events as WebhookEventType[],
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: toIsoOrNull(row.previous_secret_expires_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

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

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  document_id: string | null;
  status: string;
  attempts: number | string;
  next_attempt_at: Millis | null;
  lease_owner: string | null;
  last_status_code: number | string | null;
  last_error: string | null;
  last_response_body: string | null;
  last_duration_ms: number | string | null;
  created_at: Millis;
  delivered_at: Millis | null;
}

export function toDelivery(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    webhookId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    documentId: row.document_id,
    status: row.status as WebhookDeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: toIsoOrNull(row.next_attempt_at),
    leaseOwner: row.lease_owner,
    lastStatusCode: toNumberOrNull(row.last_status_code),
    lastError: row.last_error,
    lastResponseBody: row.last_response_body,
    lastDurationMs: toNumberOrNull(row.last_duration_ms),
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
export interface ClaimedRow extends DeliveryRow {
  organization_id: string;
  url: string;
  secret: Uint8Array;
  previous_secret: Uint8Array | null;
  previous_secret_expires_at: Millis | null;
  body: string;
}

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
