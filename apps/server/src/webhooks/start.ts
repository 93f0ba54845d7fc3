import type { Config } from '../config.js';
import type { JobKind } from '../jobs/types.js';
import type { ClaimedWebhookDelivery, Storage } from '../storage/types.js';
import type { DeliveryAttempt } from './delivery-queue.js';
import { deliveryKind, type DeliveryOutcome } from './delivery-kind.js';
import { webhookSecrets } from './secrets.js';
import { createWebhookSender } from './send.js';

/**
 * The `webhook` job kind of this process, with the HTTP sender it owns (`close` once the runner has stopped; with
 * `abort`, the requests still under way end at once: their deliveries were given back to the queue).
 * @example const { kind, close } = webhookJobKind({ config, storage, secret }); runner.register(kind); … await close();
 */
export function webhookJobKind(options: {
  config: Config;
  storage: Storage;
  secret: string;
  /** Whether the process is answering API requests right now (deliveries then go in small, spaced batches). */
  busy?: () => boolean;
  onAttempt?: (outcome: DeliveryOutcome) => void;
}): { kind: JobKind<ClaimedWebhookDelivery, DeliveryAttempt>; close(options?: { abort?: boolean }): Promise<void> } {
  const { config, storage, secret, busy, onAttempt } = options;
  const sender = createWebhookSender({
    allowPrivate: config.webhooks.allowPrivate,
    timeoutMs: config.webhooks.timeoutMs,
    connections: config.webhooks.concurrency,
  });
  const kind = deliveryKind({ storage, sender, secrets: webhookSecrets(secret), config: config.webhooks, busy, ...(onAttempt ? { onAttempt } : {}) });
  return { kind, close: (closing = {}) => (closing.abort ? sender.abort() : sender.close()) };
}

/**
 * The URL of a document's sealed PDF for a key holder, as `document.sealed` events carry it: under
 * `PUBLIC_BASE_URL`, or the address `signet serve` listens on.
 */
export function signedDocumentUrlBase(config: Config): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return config.publicBaseUrl ?? `http://${host}:${config.port}`;
}
