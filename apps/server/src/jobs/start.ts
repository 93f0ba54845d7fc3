import { expireJob } from '../documents/expiry.js';
import { retentionJob, scheduleRetention } from '../documents/retention.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PdfPool } from '../pdf/pool/index.js';
import type { Storage } from '../storage/types.js';
import type { RequestActivity } from '../app-context.js';
import { webhookJobKind } from '../webhooks/start.js';
import { onWebhookEvents } from '../webhooks/wake.js';
import { JobRunner } from './runner.js';
import { bulkJobKind } from '../templates/bulk/bulk-kind.js';
import { onJobsEnqueued } from './wake.js';
import { mailJobKind } from '../mail/mail-kind.js';
import { deliveryJobKinds } from '../mail/delivery-kinds.js';
import type { SealEnd } from '../sealing/seal-kind.js';
import type { DeliveryOutcome } from '../webhooks/delivery-kind.js';

/** What is told how jobs end: metrics (`metrics/`). */
export interface JobObservers {
  sealEnded?(end: SealEnd): void;
  webhookAttempt?(outcome: DeliveryOutcome): void;
}

/** The one job runner of a process, started, and what it owns. */
export interface RunningJobs {
  readonly runner: JobRunner;
  readonly owner: string;
  /** Looks for due jobs of `kind` (every kind without one) now: this process just enqueued some. */
  wake(kind?: string): void;
  /**
   * Takes no more jobs, waits for the ones under way (`graceMs` at most: the rest are given back, due at once, for
   * another instance), and closes the webhook sender's connections.
   */
  stop(options?: { graceMs?: number }): Promise<{ released: number }>;
}

/**
 * Starts this process's job runner with the kinds it runs: `seal` (unless `seal: false`), `webhook` (unless
 * `webhooks: false`), `expire`, `bulk`, `mail` when an SMTP server is set, and `retention` when `RETENTION_DAYS` is set (its first run enqueued). Commits in
 * this process wake it (`webhooks/wake.ts`, `wake`); it polls for the others'.
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
  /** The requests the process answers: a bulk job yields to those begun since its last batch too. */
  activity?: RequestActivity;
  /** Told how seals and webhook attempts end (`metrics/`). */
  observe?: JobObservers;
}): Promise<RunningJobs> {
  const { storage, logger } = options;
  const runner = new JobRunner({ db: storage.db, logger });
  if (options.seal ?? true) {
    // Loaded only here: the signing libraries (@libpdf/core, ~33 MiB, 0.4 s) stay out of a process that does not seal.
    const { sealJobKind } = await import('../sealing/start.js');
    runner.register(await sealJobKind({ ...options, ...(options.observe?.sealEnded ? { onSealEnded: options.observe.sealEnded } : {}) }));
  }
  let closeSender = async (_options?: { abort?: boolean }) => {};
  let unsubscribe = () => {};
  if (options.webhooks ?? true) {
    const { kind, close } = webhookJobKind({ ...options, ...(options.observe?.webhookAttempt ? { onAttempt: options.observe.webhookAttempt } : {}) });
    runner.register(kind);
    closeSender = close;
    unsubscribe = onWebhookEvents(storage.db, () => runner.wake('webhook'));
  }
  runner.register(expireJob);
  // Bulk creation from a template (templates/bulk/): woken by the requests that start a job.
  runner.register(bulkJobKind({ secret: options.secret, ...(options.busy || options.activity ? { busy: requestsSince(options) } : {}) }));
  // Kinds a request enqueues (bulk creation, e-mail) are woken after its commit (`jobs/wake.ts`).
  const unsubscribeEnqueued = onJobsEnqueued(storage.db, (kind) => runner.wake(kind));
  let closeMail = () => {};
  if (options.config.mail) {
    // E-mail (mail/): sent by whichever process runs jobs; a process with no SMTP server configured leaves it queued.
    const { kind, close } = mailJobKind({ mail: options.config.mail, secret: options.secret });
    runner.register(kind);
    closeMail = close;
    // Invitations, reminders and expiry notices to sign, and the signed copy's link (mail/delivery-kinds.ts): each
    // queues a message for the kind above.
    for (const delivery of deliveryJobKinds({ config: options.config, secret: options.secret })) runner.register(delivery);
  }
  if (options.config.retentionDays !== undefined) {
    const retention = retentionJob(options.config.retentionDays);
    runner.register(retention);
    await scheduleRetention(storage.db, retention, new Date());
  }
  runner.start();
  return {
    runner,
    owner: runner.owner,
    wake: (kind) => runner.wake(kind),
    async stop(stopOptions = {}) {
      unsubscribe();
      unsubscribeEnqueued();
      const stopped = await runner.stop(stopOptions);
      // Attempts still under way were given back to the queue: their requests end now, not at their timeout.
      await closeSender({ abort: stopped.released > 0 });
      closeMail();
      return stopped;
    },
  };
}

/** Whether requests are in flight, or began since the last time it was asked (see `RequestActivity.started`). */
function requestsSince(options: { busy?: () => boolean; activity?: RequestActivity }): () => boolean {
  let seen = options.activity?.started ?? 0;
  return () => {
    const started = options.activity?.started ?? 0;
    const begun = started !== seen;
    seen = started;
    return begun || (options.busy?.() ?? false) || (options.activity ? options.activity.inFlight > 0 : false);
  };
}
