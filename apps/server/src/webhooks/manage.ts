import { WEBHOOK_SECRET_OVERLAP_HOURS, type WebhookEventType } from '@signet/contract';
import { newId } from '../ids.js';
import { createWebhookEndpoint, updateWebhookEndpoint } from '../storage/queries/webhook-endpoints.js';
import type { Storage, WebhookEndpointRecord } from '../storage/types.js';
import { webhookSecrets } from './secrets.js';
import { newWebhookSecret } from './signature.js';
import { checkWebhookUrl } from './url-safety.js';

const OVERLAP_MS = WEBHOOK_SECRET_OVERLAP_HOURS * 60 * 60 * 1000;

/**
 * What registering and rotating need: the store, the server's secret (the secrets' box), the address policy and
 * how many endpoints an organization may have (`WEBHOOK_MAX_ENDPOINTS`).
 */
export interface WebhookManagement {
  storage: Storage;
  secret: string;
  allowPrivate: boolean;
  maxEndpoints: number;
}

/** The organization already has as many endpoints as it may; `limit` is that number. */
export class WebhookLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`the organization already has ${limit} webhook endpoints, the most it may have (WEBHOOK_MAX_ENDPOINTS)`);
    this.name = 'WebhookLimitReached';
  }
}

/**
 * Registers an endpoint for `organizationId` after checking its URL (`WebhookUrlRefused` when it is not http(s) or
 * reaches a private address without the flag) and that the organization is below its cap of endpoints
 * (`WebhookLimitReached`); resolves with it and its signing secret, which is not shown again. The cap also bounds
 * the deliveries one event can create: one per endpoint subscribed to it.
 * @example const { endpoint, secret } = await registerWebhook(management, { organizationId, url, events: ['document.sealed'] });
 */
export async function registerWebhook(
  management: WebhookManagement,
  input: { organizationId: string; url: string; events: WebhookEventType[]; description?: string | null },
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  await checkWebhookUrl(input.url, { allowPrivate: management.allowPrivate });
  const now = new Date().toISOString();
  const secret = newWebhookSecret();
  const endpoint: WebhookEndpointRecord = {
    id: newId('wh'),
    organizationId: input.organizationId,
    url: input.url,
    description: input.description ?? null,
    events: input.events,
    enabled: true,
    disabledReason: null,
    secret: webhookSecrets(management.secret).seal(Buffer.from(secret, 'utf8')),
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const created = await createWebhookEndpoint(management.storage.db, endpoint, { maxEndpoints: management.maxEndpoints });
  if (!created) throw new WebhookLimitReached(management.maxEndpoints);
  return { endpoint, secret };
}

/**
 * Gives `endpoint` a new signing secret; the current one keeps signing beside it for 24 hours (a second signature
 * in `webhook-signature`). Null when the endpoint no longer exists.
 * @example const rotated = await rotateWebhookSecret(management, endpoint);
 */
export async function rotateWebhookSecret(
  management: WebhookManagement,
  endpoint: WebhookEndpointRecord,
): Promise<{ secret: string; previousSecretExpiresAt: string } | null> {
  const now = Date.now();
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = new Date(now + OVERLAP_MS).toISOString();
  const rotated = await updateWebhookEndpoint(management.storage.db, endpoint.organizationId, endpoint.id, {
    secret: webhookSecrets(management.secret).seal(Buffer.from(secret, 'utf8')),
    previousSecret: endpoint.secret,
    previousSecretExpiresAt,
    updatedAt: new Date(now).toISOString(),
  });
  return rotated ? { secret, previousSecretExpiresAt } : null;
}
