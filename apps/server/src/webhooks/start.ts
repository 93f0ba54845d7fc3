import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Storage } from '../storage/types.js';
import { WebhookDispatcher } from './dispatcher.js';
import { webhookSecrets } from './secrets.js';
import { createWebhookSender } from './send.js';

/** A running dispatcher and what it owns. */
export interface RunningDispatcher {
  readonly owner: string;
  wake(): void;
  /** Takes no more deliveries, waits for the attempts under way, and closes its connections. */
  stop(): Promise<void>;
}

/**
 * A webhook dispatcher for this process, started: it sends what the store's outbox holds, woken by this process's
 * commits and polling for the others'.
 * @example const dispatcher = startWebhookDispatcher({ config, storage, secret, logger }); … await dispatcher.stop();
 */
export function startWebhookDispatcher(options: {
  config: Config;
  storage: Storage;
  secret: string;
  logger: Logger;
  /** Whether the process is answering API requests right now (the dispatcher then sends in small, spaced batches). */
  busy?: () => boolean;
}): RunningDispatcher {
  const { config, storage, secret, logger, busy } = options;
  const sender = createWebhookSender({
    allowPrivate: config.webhooks.allowPrivate,
    timeoutMs: config.webhooks.timeoutMs,
    connections: config.webhooks.concurrency,
  });
  const dispatcher = new WebhookDispatcher({ storage, sender, secrets: webhookSecrets(secret), config: config.webhooks, logger, busy });
  dispatcher.start();
  return {
    owner: dispatcher.owner,
    wake: () => dispatcher.wake(),
    async stop() {
      await dispatcher.stop();
      await sender.close();
    },
  };
}

/**
 * The URL of a document's sealed PDF for a key holder, as `document.sealed` events carry it: under
 * `PUBLIC_BASE_URL`, or the address `signet serve` listens on.
 */
export function signedDocumentUrlBase(config: Config): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return config.publicBaseUrl ?? `http://${host}:${config.port}`;
}
