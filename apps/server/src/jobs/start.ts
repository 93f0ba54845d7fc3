import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PdfPool } from '../pdf/pool/index.js';
import type { Storage } from '../storage/types.js';
import { webhookJobKind } from '../webhooks/start.js';
import { onWebhookEvents } from '../webhooks/wake.js';
import { JobRunner } from './runner.js';

/** The one job runner of a process, started, and what it owns. */
export interface RunningJobs {
  readonly runner: JobRunner;
  readonly owner: string;
  /** Looks for due jobs of `kind` (every kind without one) now: this process just enqueued some. */
  wake(kind?: string): void;
  /** Takes no more jobs, waits for the ones under way, and closes the webhook sender's connections. */
  stop(): Promise<void>;
}

/**
 * Starts this process's job runner with the kinds it runs: `seal` (unless `seal: false`) and `webhook` (unless
 * `webhooks: false`). Commits in this process wake it (`webhooks/wake.ts`, `wake`); it polls for the others'.
 * @example const jobs = await startJobs({ config, storage, pdfPool, secret, logger }); … await jobs.stop();
 */
export async function startJobs(options: {
  config: Config;
  storage: Storage;
  pdfPool: PdfPool;
  secret: string;
  logger: Logger;
  seal?: boolean;
  webhooks?: boolean;
  /** Whether the process is answering API requests right now (webhook deliveries then yield to them). */
  busy?: () => boolean;
}): Promise<RunningJobs> {
  const { storage, logger } = options;
  const runner = new JobRunner({ db: storage.db, logger });
  if (options.seal ?? true) {
    // Loaded only here: the signing libraries (@libpdf/core, ~33 MiB, 0.4 s) stay out of a process that does not seal.
    const { sealJobKind } = await import('../sealing/start.js');
    runner.register(await sealJobKind(options));
  }
  let closeSender = async () => {};
  let unsubscribe = () => {};
  if (options.webhooks ?? true) {
    const { kind, close } = webhookJobKind(options);
    runner.register(kind);
    closeSender = close;
    unsubscribe = onWebhookEvents(storage.db, () => runner.wake('webhook'));
  }
  runner.start();
  return {
    runner,
    owner: runner.owner,
    wake: (kind) => runner.wake(kind),
    async stop() {
      unsubscribe();
      await runner.stop();
      await closeSender();
    },
  };
}
