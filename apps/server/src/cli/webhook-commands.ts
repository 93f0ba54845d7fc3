/**
 * The webhook commands of `signet`: register an endpoint, list and delete them, see an endpoint's
 * deliveries and send one again. They work on the store directly, as `keys` and `documents` do.
 */
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { resolveSecret } from '../secret.js';
import type { Organization, Storage, WebhookDeliveryRecord, WebhookEndpointRecord } from '../storage/types.js';
import { WebhookLimitReached, registerWebhook } from '../webhooks/manage.js';
import { WebhookUrlRefused } from '../webhooks/url-safety.js';
import { CliError, print, withStorage } from './common.js';
import { parseWebhookEvents, parseWholeNumber } from './options.js';
import { findOrganizationBySlug } from '../storage/queries/organizations.js';
import { listWebhookDeliveries, retryWebhookDelivery } from '../storage/queries/webhook-deliveries.js';
import { deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints } from '../storage/queries/webhook-endpoints.js';

async function organization(storage: Storage, slug: string): Promise<Organization> {
  const found = await findOrganizationBySlug(storage.db.query, slug);
  if (!found) throw new CliError(`no organization ${slug}`);
  return found;
}

async function endpointOf(storage: Storage, slug: string, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await getWebhookEndpoint(storage.db.query, (await organization(storage, slug)).id, id);
  if (!endpoint) throw new CliError(`no webhook ${id} in organization ${slug}`);
  return endpoint;
}

const shown = ({ id, url, events, description, enabled, disabledReason, createdAt }: WebhookEndpointRecord) => ({
  id,
  url,
  events,
  description,
  enabled,
  disabledReason,
  createdAt,
});

function endpointLine(endpoint: WebhookEndpointRecord): string {
  const state = endpoint.enabled ? 'enabled' : `disabled${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ''}`;
  return `${endpoint.id}  ${state}  ${endpoint.url}  ${endpoint.events.join(',')}`;
}

function deliveryLine(delivery: WebhookDeliveryRecord): string {
  const last = delivery.lastStatusCode ?? delivery.lastError ?? '-';
  const next = delivery.nextAttemptAt ? `  next ${delivery.nextAttemptAt}` : '';
  return `${delivery.id}  ${delivery.eventType}  ${delivery.status}  attempts ${delivery.attempts}  last ${last}${next}`;
}

/** Adds `webhooks create|list|delete|deliveries|retry` to the program. */
export function registerWebhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description('the endpoints that receive webhook events');

  webhooks
    .command('create')
    .description('register an endpoint; prints its signing secret once')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--url <url>', 'where events are POSTed (http or https)')
    .requiredOption('--events <list>', 'comma-separated event types, or all', parseWebhookEvents)
    .option('--description <text>', 'what the endpoint is for')
    .option('--json', 'print one JSON object')
    .action((options: { org: string; url: string; events: ReturnType<typeof parseWebhookEvents>; description?: string; json?: boolean }) =>
      withStorage(async (storage) => {
        const config = loadConfig();
        const org = await organization(storage, options.org);
        const { allowPrivate, maxEndpoints } = config.webhooks;
        const management = { storage, secret: await resolveSecret(config), allowPrivate, maxEndpoints };
        const input = { organizationId: org.id, url: options.url, events: options.events, description: options.description ?? null };
        const { endpoint, secret } = await registerWebhook(management, input).catch((error: unknown) => {
          if (error instanceof WebhookUrlRefused) throw new CliError(`--url ${options.url}: ${error.reason}`);
          if (error instanceof WebhookLimitReached) throw new CliError(`--org ${options.org}: ${error.message}`);
          throw error;
        });
        if (options.json) return print({ ...shown(endpoint), secret });
        print(
          [
            `Created webhook ${endpoint.id} for ${org.slug}: ${endpoint.url}`,
            `  Events:  ${endpoint.events.join(', ')}`,
            `  Secret:  ${secret}`,
            'Store the secret now: it will not be shown again. Verify requests with it (Standard Webhooks).',
          ].join('\n'),
        );
      }),
    );

  webhooks
    .command('list')
    .description("list an organization's endpoints, newest first")
    .requiredOption('--org <slug>', 'organization slug')
    .option('--json', 'print JSON')
    .action((options: { org: string; json?: boolean }) =>
      withStorage(async (storage) => {
        const list = await listWebhookEndpoints(storage.db.query, (await organization(storage, options.org)).id, { limit: 1000 });
        if (options.json) return print(list.map(shown));
        print(list.length ? list.map(endpointLine).join('\n') : 'No webhooks.');
      }),
    );

  webhooks
    .command('delete')
    .description('delete an endpoint and its pending deliveries')
    .argument('<webhookId>', 'the endpoint (wh_…)')
    .requiredOption('--org <slug>', 'organization slug')
    .action((webhookId: string, options: { org: string }) =>
      withStorage(async (storage) => {
        const deleted = await deleteWebhookEndpoint(storage.db, (await organization(storage, options.org)).id, webhookId);
        if (!deleted) throw new CliError(`no webhook ${webhookId} in organization ${options.org}`);
        print(`Deleted ${webhookId}.`);
      }),
    );

  webhooks
    .command('deliveries')
    .description("an endpoint's deliveries, newest first: event, status, attempts, last answer, next attempt")
    .argument('<webhookId>', 'the endpoint (wh_…)')
    .requiredOption('--org <slug>', 'organization slug')
    .option('--limit <n>', 'at most this many (default 50)', parseWholeNumber(1, 10_000))
    .option('--json', 'print JSON')
    .action((webhookId: string, options: { org: string; limit?: number; json?: boolean }) =>
      withStorage(async (storage) => {
        const endpoint = await endpointOf(storage, options.org, webhookId);
        const list = await listWebhookDeliveries(storage.db.query, endpoint.id, { limit: options.limit ?? 50 });
        if (options.json) return print(list.map(({ leaseOwner: _, ...delivery }) => delivery));
        print(list.length ? list.map(deliveryLine).join('\n') : 'No deliveries.');
      }),
    );

  webhooks
    .command('retry')
    .description('send a delivery again now, with a fresh round of attempts')
    .argument('<webhookId>', 'the endpoint (wh_…)')
    .argument('<deliveryId>', 'the delivery (dlv_…)')
    .requiredOption('--org <slug>', 'organization slug')
    .action((webhookId: string, deliveryId: string, options: { org: string }) =>
      withStorage(async (storage) => {
        const endpoint = await endpointOf(storage, options.org, webhookId);
        if (!endpoint.enabled) throw new CliError(`webhook ${webhookId} is disabled: enable it first`);
        const delivery = await retryWebhookDelivery(storage.db, endpoint.id, deliveryId, new Date().toISOString());
        if (!delivery) throw new CliError(`no delivery ${deliveryId} of webhook ${webhookId}`);
        print(`Delivery ${deliveryId} is due now (a running dispatcher sends it: signet serve or signet worker).`);
      }),
    );
}
