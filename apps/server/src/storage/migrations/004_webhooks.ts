import type { Migration } from '../migrations.js';

/*
 * Webhooks: endpoints, what each subscribes to, the events, and one delivery per event and endpoint.
 * - `webhook_endpoints`: the URL and its signing secret, encrypted with `SIGNET_SECRET` (AES-256-GCM); after a
 *   rotation the previous secret keeps signing until `previous_secret_expires_at`. `enabled` is 0 or 1 on both
 *   engines; `disabled_reason` says why Signet turned one off (a 410).
 * - `webhook_subscriptions`: one row per endpoint and event type, so that enqueueing an event is one indexed
 *   INSERT … SELECT in the transaction of the change that causes it.
 * - `webhook_events`: the outbox written in the transaction of the change, one row however many endpoints: the
 *   body as signed and sent (the same bytes on every attempt and to every endpoint; its id is the `webhook-id`
 *   header). A dispatcher fans each out (`fanned_out`) into one delivery per subscribed endpoint, apart from the
 *   request that caused it.
 * - `webhook_deliveries`: the outbox. A dispatcher takes due ones with a lease (`sending`, `lease_owner`,
 *   `lease_until`); a lease that ran out (a crash) is taken over and the delivery sent again with the same id.
 *   `occurred_at` orders a document's events for one endpoint.
 * Existing sk keys that hold every default scope of version 3 get `webhooks:write`, the new default.
 */
export const webhooks: Migration = {
  version: 4,
  name: 'webhook endpoints, subscriptions, events and deliveries',
  up: ({ bigint, bytes }) => `
    CREATE TABLE webhook_endpoints (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      description TEXT,
      enabled INTEGER NOT NULL,
      disabled_reason TEXT,
      secret ${bytes} NOT NULL,
      previous_secret ${bytes},
      previous_secret_expires_at ${bigint},
      created_at ${bigint} NOT NULL,
      updated_at ${bigint} NOT NULL
    );
    CREATE INDEX webhook_endpoints_by_organization ON webhook_endpoints (organization_id, created_at, id);
    CREATE TABLE webhook_subscriptions (
      endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      organization_id TEXT NOT NULL,
      event_type TEXT NOT NULL,
      PRIMARY KEY (endpoint_id, event_type)
    );
    CREATE INDEX webhook_subscriptions_by_event ON webhook_subscriptions (organization_id, event_type);
    CREATE TABLE webhook_events (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL,
      type TEXT NOT NULL,
      document_id TEXT,
      body TEXT NOT NULL,
      occurred_at ${bigint} NOT NULL,
      fanned_out INTEGER NOT NULL
    );
    CREATE INDEX webhook_events_to_fan_out ON webhook_events (occurred_at) WHERE fanned_out = 0;
    CREATE TABLE webhook_deliveries (
      id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
      endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      event_type TEXT NOT NULL,
      document_id TEXT,
      occurred_at ${bigint} NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'succeeded', 'failed')),
      attempts INTEGER NOT NULL,
      next_attempt_at ${bigint},
      lease_owner TEXT,
      lease_until ${bigint},
      last_status_code INTEGER,
      last_error TEXT,
      last_response_body TEXT,
      last_duration_ms INTEGER,
      created_at ${bigint} NOT NULL,
      updated_at ${bigint} NOT NULL,
      delivered_at ${bigint}
    );
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
    CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (endpoint_id, document_id, occurred_at);
    CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at, id);
    CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
    UPDATE api_keys SET scopes = substr(scopes, 1, length(scopes) - 1) || ',"webhooks:write"]'
      WHERE kind = 'sk' AND scopes LIKE '%"documents:read"%' AND scopes LIKE '%"documents:submit"%'
        AND scopes LIKE '%"documents:write"%' AND scopes NOT LIKE '%"webhooks:write"%';
  `,
};
