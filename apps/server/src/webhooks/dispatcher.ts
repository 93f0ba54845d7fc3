import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { WebhooksConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { SecretBox } from '../secret-box.js';
import type { ClaimedWebhookDelivery, Storage, WebhookAttemptOutcome } from '../storage/types.js';
import { nextAttemptDelay } from './schedule.js';
import type { WebhookAttempt, WebhookSender } from './send.js';

/** Most deliveries taken in one claim. */
const CLAIM_BATCH = 100;
/**
 * While the process answers API requests, the dispatcher takes at most this many deliveries at a time and pauses
 * `BUSY_PAUSE_MS` after each claim: a few percent of the event loop, so that a burst of submissions is not
 * slowed by the deliveries it causes. The outbox keeps them; they go at full speed once the requests stop.
 */
const BUSY_BATCH = 8;
const BUSY_PAUSE_MS = 50;
/** Events fanned out per pause while busy: each may become a delivery per endpoint (rows the store writes). */
const BUSY_FAN_OUT = 1;

export interface WebhookDispatcherOptions {
  storage: Storage;
  sender: WebhookSender;
  /** Opens the endpoints' stored secrets (`webhooks/secrets.ts`). */
  secrets: SecretBox;
  config: Pick<WebhooksConfig, 'pollMs' | 'leaseMs' | 'concurrency' | 'retryScheduleMs'>;
  logger: Logger;
  /** Whether the process is answering API requests right now (default: never). */
  busy?: () => boolean;
  now?: () => Date;
  random?: () => number;
}

/**
 * Sends the deliveries of the `webhook_deliveries` outbox: takes due ones with a lease, up to `concurrency` at once,
 * signs and POSTs each (`send.ts`), and records how each attempt ended: succeeded, due again on the retry schedule
 * (or after the endpoint's `Retry-After`, if later), or failed once the schedule is used up. A 410 turns the
 * endpoint off. A delivery whose dispatcher died is taken over when its lease runs out and sent again with the same
 * `webhook-id` (at least once).
 * @example const dispatcher = new WebhookDispatcher({ storage, sender, secrets, config, logger }); dispatcher.start();
 */
export class WebhookDispatcher {
  /** Who holds a taken delivery's lease: this dispatcher, uniquely. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  readonly #options: WebhookDispatcherOptions;
  readonly #now: () => Date;
  readonly #random: () => number;
  readonly #inFlight = new Set<Promise<void>>();
  #running = false;
  #loop: Promise<void> | undefined;
  #wakeUp: (() => void) | undefined;
  #woken = false;
  #unsubscribe: (() => void) | undefined;

  constructor(options: WebhookDispatcherOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#random = options.random ?? Math.random;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe = this.#options.storage.onWebhookEvents(() => this.wake());
    this.#loop = this.#run();
  }

  /** Looks for due deliveries now rather than at the next poll (a commit just enqueued some). */
  wake(): void {
    this.#woken = true;
    this.#wakeUp?.();
  }

  /** Takes no more deliveries and waits for the attempts under way. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#unsubscribe?.();
    this.wake();
    await this.#loop;
    await Promise.all(this.#inFlight);
  }

  async #run(): Promise<void> {
    const { concurrency } = this.#options.config;
    while (this.#running) {
      this.#woken = false;
      let [fanned, claimed] = [0, 0];
      const busy = this.#options.busy?.() ?? false;
      const room = Math.min(busy ? BUSY_BATCH : CLAIM_BATCH, concurrency - this.#inFlight.size);
      try {
        // Events first: each becomes a delivery per subscribed endpoint, which the claim may take at once.
        fanned = await this.#options.storage.fanOutWebhookEvents({ limit: busy ? BUSY_FAN_OUT : CLAIM_BATCH });
        if (room > 0) claimed = await this.#claim(room);
      } catch (error) {
        // Storage failed (a restart of the database): wait for the next poll and try again.
        this.#options.logger.error({ err: error }, 'webhook dispatcher: could not take deliveries');
      }
      if (!this.#running) break;
      // Busy: a pause, so the requests come first. Full: wait for an attempt to end. Took a whole batch (or fanned
      // events out): there may be more. Otherwise sleep until due or woken.
      if (busy && fanned + claimed > 0) await new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS));
      else if (this.#inFlight.size >= concurrency) await Promise.race(this.#inFlight);
      else if (claimed < room && fanned === 0) await this.#sleep();
      // The embedded store answers without real I/O: yield, so that the answers of the attempts under way are read.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async #claim(limit: number): Promise<number> {
    const { storage, config } = this.#options;
    const deliveries = await storage.claimWebhookDeliveries(this.owner, { now: this.#now(), leaseMs: config.leaseMs, limit });
    for (const delivery of deliveries) {
      const attempt: Promise<void> = this.#attempt(delivery).finally(() => {
        this.#inFlight.delete(attempt);
        this.wake();
      });
      this.#inFlight.add(attempt);
    }
    return deliveries.length;
  }

  /**
   * Until the next pending delivery is due, at most a poll interval, or until woken. One already due that could not
   * be taken (an earlier event of its document is under way) waits for that attempt's end, which wakes this loop.
   */
  async #sleep(): Promise<void> {
    if (this.#woken) return;
    const { storage, config } = this.#options;
    let wait = config.pollMs;
    try {
      const due = await storage.nextWebhookDeliveryDue();
      const until = due ? Date.parse(due) - this.#now().getTime() : Infinity;
      if (until > 0) wait = Math.min(wait, until);
    } catch {
      // The poll interval, then.
    }
    if (this.#woken) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      this.#wakeUp = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
    this.#wakeUp = undefined;
  }

  async #attempt(delivery: ClaimedWebhookDelivery): Promise<void> {
    const { storage, sender, logger } = this.#options;
    const log = logger.child({ deliveryId: delivery.id, webhookId: delivery.webhookId, eventId: delivery.eventId });
    try {
      const now = this.#now();
      const attempt = await sender.send({
        url: delivery.url,
        id: delivery.eventId,
        timestamp: now,
        body: delivery.body,
        secrets: this.#signingSecrets(delivery, now),
      });
      const outcome = this.#outcome(delivery, attempt);
      if (attempt.gone) await this.#disable(delivery, outcome.at);
      const recorded = await storage.finishWebhookDelivery(this.owner, delivery.id, outcome);
      const fields = { eventType: delivery.eventType, attempt: delivery.attempts, status: attempt.statusCode, ms: Math.round(attempt.durationMs) };
      if (!recorded) log.warn(fields, 'webhook attempt ended after its lease was taken over; its outcome is not recorded');
      else if (outcome.status === 'succeeded') log.debug(fields, 'webhook delivered');
      else if (outcome.status === 'pending') log.info({ ...fields, reason: attempt.error, nextAttemptAt: outcome.nextAttemptAt }, 'webhook attempt failed; it will be retried');
      else log.warn({ ...fields, reason: attempt.error }, 'webhook delivery failed; `signet webhooks retry` sends it again');
    } catch (error) {
      // Storage failed while recording: the lease runs out and another attempt sends it again (same webhook-id).
      log.error({ err: error }, 'webhook dispatcher: could not record an attempt');
    }
  }

  /** The endpoint's secret, and the one it replaced while that still signs beside it. */
  #signingSecrets(delivery: ClaimedWebhookDelivery, now: Date): string[] {
    const { secrets } = this.#options;
    const open = (sealed: Uint8Array) => Buffer.from(secrets.open(sealed)).toString('utf8');
    const current = [open(delivery.secret)];
    const previousValid = delivery.previousSecret && delivery.previousSecretExpiresAt && Date.parse(delivery.previousSecretExpiresAt) > now.getTime();
    return previousValid ? [...current, open(delivery.previousSecret!)] : current;
  }

  #outcome(delivery: ClaimedWebhookDelivery, attempt: WebhookAttempt): WebhookAttemptOutcome {
    const at = this.#now();
    const common = {
      statusCode: attempt.statusCode,
      error: attempt.error,
      responseBody: attempt.responseBody,
      durationMs: attempt.durationMs,
      at: at.toISOString(),
    };
    if (attempt.ok) return { ...common, status: 'succeeded', nextAttemptAt: null };
    const delay = attempt.gone
      ? null
      : nextAttemptDelay(this.#options.config.retryScheduleMs, delivery.attempts, attempt.retryAfterMs, this.#random);
    if (delay === null) return { ...common, status: 'failed', nextAttemptAt: null };
    return { ...common, status: 'pending', nextAttemptAt: new Date(at.getTime() + delay).toISOString() };
  }

  async #disable(delivery: ClaimedWebhookDelivery, at: string): Promise<void> {
    await this.#options.storage.updateWebhookEndpoint(delivery.organizationId, delivery.webhookId, {
      enabled: false,
      disabledReason: `answered 410 Gone at ${at}`,
      updatedAt: at,
    });
    this.#options.logger.warn({ webhookId: delivery.webhookId }, 'webhook endpoint answered 410 Gone: it is disabled');
  }
}
