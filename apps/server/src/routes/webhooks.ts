import type { Context } from 'hono';
import { PAGE_LIMIT, endpoints, type Webhook, type WebhookDelivery } from '@signet/contract';
import { decodeCursor } from '../documents/cursor.js';
import { sendPage } from './page.js';
import { ApiError, validationError } from '../errors.js';
import type { AppEnv } from '../http/env.js';
import type { AppContext } from '../app-context.js';
import { sendEnvelope } from '../http/envelope.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { parseOrThrow } from '../http/validation.js';
import { enqueueWebhookEventTo, listWebhookDeliveries, retryWebhookDelivery } from '../storage/queries/webhook-deliveries.js';
import { deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, updateWebhookEndpoint } from '../storage/queries/webhook-endpoints.js';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../storage/types.js';
import { WebhookLimitReached, registerWebhook, rotateWebhookSecret, type WebhookManagement } from '../webhooks/manage.js';
import { WebhookUrlRefused, checkWebhookUrl } from '../webhooks/url-safety.js';
import { webhookEventsEnqueued } from '../webhooks/wake.js';
import { handler, type EndpointHandlers } from './serve.js';

/** A webhook request body is a URL, a list of events and a description: 16 KiB is plenty. */
const MAX_WEBHOOK_BODY_BYTES = 16 * 1024;

type WebhookHandlers = Pick<
  EndpointHandlers,
  | 'createWebhook'
  | 'listWebhooks'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'rotateWebhookSecret'
  | 'listWebhookDeliveries'
  | 'retryWebhookDelivery'
  | 'testWebhook'
>;

/** An endpoint as the API shows it: never its secrets. */
export function presentWebhook(endpoint: WebhookEndpointRecord): Webhook {
  const { id, url, events, description, enabled, disabledReason, createdAt, updatedAt } = endpoint;
  return { id, url, events, description, enabled, disabledReason, createdAt, updatedAt };
}

/** A delivery as the API shows it: without its lease. */
export function presentDelivery(delivery: WebhookDeliveryRecord): WebhookDelivery {
  const { leaseOwner: _, ...shown } = delivery;
  return shown;
}

const limitBody = smallJsonBodyLimit(MAX_WEBHOOK_BODY_BYTES);

/**
 * `work`, with an endpoint URL that is not http(s) or reaches a private address refused as a 422 naming `url`, and
 * an organization at its cap of endpoints as a 422 giving the cap (`details.limit`).
 */
async function refusingUrls<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof WebhookUrlRefused) throw validationError('url', error.reason, 422);
    if (error instanceof WebhookLimitReached) {
      throw new ApiError('VALIDATION_ERROR', `Webhook endpoint refused: ${error.message}`, {
        status: 422,
        details: { reason: error.message, limit: error.limit },
      });
    }
    throw error;
  }
}

const webhookNotFound = (webhookId: string) =>
  new ApiError('NOT_FOUND', `Webhook ${webhookId} not found`, { details: { field: 'webhookId' } });

async function findOwnWebhook(deps: AppContext, c: Context<AppEnv>, webhookId: string): Promise<WebhookEndpointRecord> {
  const endpoint = await getWebhookEndpoint(deps.storage.db.query, c.get('apiKey').organizationId, webhookId);
  if (!endpoint) throw webhookNotFound(webhookId);
  return endpoint;
}

function requireEnabled(endpoint: WebhookEndpointRecord): void {
  if (endpoint.enabled) return;
  const why = endpoint.disabledReason ? ` (${endpoint.disabledReason})` : '';
  throw new ApiError('WEBHOOK_DISABLED', `Webhook ${endpoint.id} is disabled${why}: enable it with PATCH first`, {
    details: { reason: endpoint.disabledReason ?? 'disabled' },
  });
}

/** The webhook management endpoints: sk keys with `webhooks:write`. */
export function webhookHandlers(deps: AppContext): WebhookHandlers {
  const management: WebhookManagement = {
    storage: deps.storage,
    secret: deps.secret,
    allowPrivate: deps.config.webhooks.allowPrivate,
    maxEndpoints: deps.config.webhooks.maxEndpoints,
  };

  return {
    createWebhook: handler(endpoints.createWebhook, {
      before: [limitBody],
      readsItself: ['body'],
      async handle(c) {
        const body = parseOrThrow(endpoints.createWebhook.request.body.schema, await readJsonObject(c));
        const organizationId = c.get('apiKey').organizationId;
        const { endpoint, secret } = await refusingUrls(() => registerWebhook(management, { organizationId, ...body }));
        return sendEnvelope(c, { ...presentWebhook(endpoint), secret }, 201);
      },
    }),

    listWebhooks: handler(endpoints.listWebhooks, {
      async handle(c, { query }) {
        const limit = query.limit ?? PAGE_LIMIT.default;
        const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
        const rows = await listWebhookEndpoints(deps.storage.db.query, c.get('apiKey').organizationId, { limit: limit + 1, after });
        return sendPage(c, rows, limit, presentWebhook);
      },
    }),

    getWebhook: handler(endpoints.getWebhook, {
      async handle(c, { params }) {
        return sendEnvelope(c, presentWebhook(await findOwnWebhook(deps, c, params.webhookId)), 200);
      },
    }),

    updateWebhook: handler(endpoints.updateWebhook, {
      before: [limitBody],
      readsItself: ['body'],
      async handle(c, { params }) {
        const body = parseOrThrow(endpoints.updateWebhook.request.body.schema, await readJsonObject(c));
        await findOwnWebhook(deps, c, params.webhookId);
        if (body.url !== undefined) {
          const url = body.url;
          await refusingUrls(() => checkWebhookUrl(url, { allowPrivate: management.allowPrivate }));
        }
        const updated = await updateWebhookEndpoint(deps.storage.db, c.get('apiKey').organizationId, params.webhookId, {
          ...body,
          // Enabled or disabled by hand: whatever Signet had said about it no longer holds.
          ...(body.enabled === undefined ? {} : { disabledReason: null }),
          updatedAt: new Date().toISOString(),
        });
        if (!updated) throw webhookNotFound(params.webhookId);
        if (updated.enabled && body.enabled) deps.webhookDispatcher?.wake();
        return sendEnvelope(c, presentWebhook(updated), 200);
      },
    }),

    deleteWebhook: handler(endpoints.deleteWebhook, {
      async handle(c, { params }) {
        const deleted = await deleteWebhookEndpoint(deps.storage.db, c.get('apiKey').organizationId, params.webhookId);
        if (!deleted) throw webhookNotFound(params.webhookId);
        return sendEnvelope(c, presentWebhook(deleted), 200);
      },
    }),

    rotateWebhookSecret: handler(endpoints.rotateWebhookSecret, {
      async handle(c, { params }) {
        const endpoint = await findOwnWebhook(deps, c, params.webhookId);
        const rotated = await rotateWebhookSecret(management, endpoint);
        if (!rotated) throw webhookNotFound(params.webhookId);
        return sendEnvelope(c, { id: endpoint.id, ...rotated }, 200);
      },
    }),

    listWebhookDeliveries: handler(endpoints.listWebhookDeliveries, {
      async handle(c, { params, query }) {
        const endpoint = await findOwnWebhook(deps, c, params.webhookId);
        const limit = query.limit ?? PAGE_LIMIT.default;
        const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
        const rows = await listWebhookDeliveries(deps.storage.db.query, endpoint.id, { limit: limit + 1, after });
        return sendPage(c, rows, limit, presentDelivery);
      },
    }),

    retryWebhookDelivery: handler(endpoints.retryWebhookDelivery, {
      async handle(c, { params }) {
        const endpoint = await findOwnWebhook(deps, c, params.webhookId);
        requireEnabled(endpoint);
        const delivery = await retryWebhookDelivery(deps.storage.db, endpoint.id, params.deliveryId, new Date().toISOString());
        if (delivery?.status === 'pending') webhookEventsEnqueued(deps.storage.db, 1);
        if (!delivery) {
          throw new ApiError('NOT_FOUND', `Delivery ${params.deliveryId} of webhook ${endpoint.id} not found`, {
            details: { field: 'deliveryId' },
          });
        }
        return sendEnvelope(c, presentDelivery(delivery), 202);
      },
    }),

    testWebhook: handler(endpoints.testWebhook, {
      async handle(c, { params }) {
        const endpoint = await findOwnWebhook(deps, c, params.webhookId);
        requireEnabled(endpoint);
        const delivery = await enqueueWebhookEventTo(deps.storage.db, endpoint.id, {
          type: 'webhook.test',
          organizationId: endpoint.organizationId,
          documentId: null,
          occurredAt: new Date().toISOString(),
          data: { webhookId: endpoint.id, message: 'A test event from Signet: your endpoint receives and verifies webhooks.' },
        });
        webhookEventsEnqueued(deps.storage.db, 1);
        return sendEnvelope(c, presentDelivery(delivery), 202);
      },
    }),
  };
}
