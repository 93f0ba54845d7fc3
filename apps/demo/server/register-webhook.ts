import type { SigningClient, WebhookEventType } from '@signet/api';
import { WEBHOOK_EVENT_TYPES } from '@signet/api/webhooks';

/** Every event Signet sends: the demo shows them all. */
const DEMO_EVENTS: WebhookEventType[] = [...WEBHOOK_EVENT_TYPES];

/**
 * Registers `url` as a webhook endpoint of the sk key's organization for every document event, and returns the
 * endpoint with its signing secret. An endpoint already registered for `url` (an earlier run's) is deleted first:
 * its secret was shown only to that run, and one endpoint per URL keeps each event arriving once.
 * @example const { secret } = await registerDemoWebhook(signet, `${demoUrl}/webhooks/signet`);
 */
export async function registerDemoWebhook(signet: SigningClient, url: string): Promise<{ id: string; secret: string }> {
  let cursor: string | null = null;
  do {
    const page = await signet.listWebhooks({ limit: 100, cursor });
    for (const endpoint of page.data) if (endpoint.url === url) await signet.deleteWebhook(endpoint.id);
    cursor = page.pagination.hasMore ? page.pagination.cursor : null;
  } while (cursor);
  return signet.createWebhook({ url, events: DEMO_EVENTS, description: 'Signet demo page (pnpm start)' });
}
