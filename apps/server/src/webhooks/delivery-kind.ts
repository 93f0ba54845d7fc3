import { z } from 'zod';
import type { WebhooksConfig } from '../config.js';
import type { JobKind } from '../jobs/types.js';
import type { Logger } from '../logger.js';
import type { SecretBox } from '../secret-box.js';
import { fanOutWebhookEvents } from '../storage/queries/webhook-deliveries.js';
import { updateWebhookEndpoint } from '../storage/queries/webhook-endpoints.js';
import type { ClaimedWebhookDelivery, Storage } from '../storage/types.js';
import { deliveryQueue, type DeliveryAttempt } from './delivery-queue.js';
import { WEBHOOK_JITTER } from './schedule.js';
import type { WebhookSender } from './send.js';

/** A delivery as claimed: what is sent (the event's id and body), where, and the endpoint's secrets. */
const deliverySchema = z.looseObject({
  id: z.string().startsWith('dlv_'),
  eventId: z.string().startsWith('msg_'),
  eventType: z.string().min(1),
  webhookId: z.string().min(1),
  organizationId: z.string().min(1),
  url: z.string().url(),
  body: z.string(),
  secret: z.instanceof(Uint8Array),
  attempts: z.number().int().positive(),
}) as unknown as z.ZodType<ClaimedWebhookDelivery>;

/** Most deliveries taken (and events fanned out) in one claim. */
const CLAIM_BATCH = 100;
/**
 * While the process answers API requests, at most this many deliveries are taken at a time, with a pause of
 * `BUSY_PAUSE_MS` after each claim: a few percent of the event loop, so that a burst of submissions is not slowed by
 * the deliveries it causes. The outbox keeps them; they go at full speed once the requests stop.
 */
const BUSY_BATCH = 8;
const BUSY_PAUSE_MS = 50;
/** Events fanned out per pause while busy: each may become a delivery per endpoint (rows the store writes). */
const BUSY_FAN_OUT = 1;

export interface DeliveryKindOptions {
  storage: Storage;
  sender: WebhookSender;
  /** Opens the endpoints' stored secrets (`webhooks/secrets.ts`). */
  secrets: SecretBox;
  config: Pick<WebhooksConfig, 'pollMs' | 'leaseMs' | 'concurrency' | 'retryScheduleMs'>;
  /** Whether the process is answering API requests right now (default: never). */
  busy?: () => boolean;
  /** Told how each recorded attempt ended (metrics, `metrics/`). */
  onAttempt?: (outcome: DeliveryOutcome) => void;
}

/** How a delivery attempt ended: `delivered`, `failed` (it is retried) or `dead` (no attempt left, or 410 Gone). */
export type DeliveryOutcome = 'delivered' | 'failed' | 'dead';

const OUTCOME = { done: 'delivered', pending: 'failed', dead: 'dead' } as const;

/**
 * The `webhook` job kind: sends the deliveries of the `webhook_deliveries` outbox, up to `concurrency` at once.
 * Before each claim it fans new events out into one delivery per subscribed endpoint. Each delivery is signed and
 * POSTed (`send.ts`) and its attempt recorded: succeeded, due again on the retry schedule (±10 % jitter, or after
 * the endpoint's `Retry-After` if later), or failed once the schedule is used up. A 410 turns the endpoint off. A
 * delivery whose runner died is taken over when its lease runs out and sent again with the same `webhook-id` (at
 * least once).
 * @example runner.register(deliveryKind({ storage, sender, secrets, config: config.webhooks }));
 */
export function deliveryKind(options: DeliveryKindOptions): JobKind<ClaimedWebhookDelivery, DeliveryAttempt> {
  const { storage, sender, config } = options;
  return {
    name: 'webhook',
    schema: deliverySchema,
    queue: deliveryQueue(),
    options: {
      leaseMs: config.leaseMs,
      pollMs: config.pollMs,
      concurrency: config.concurrency,
      claimBatch: CLAIM_BATCH,
      backoff: { kind: 'schedule', delaysMs: config.retryScheduleMs, jitter: WEBHOOK_JITTER },
      ...(options.busy ? { busy: options.busy, busyBatch: BUSY_BATCH, busyPauseMs: BUSY_PAUSE_MS } : {}),
    },
    // Events first: each becomes a delivery per subscribed endpoint, which the claim may take at once.
    prepare: (db, busy) => fanOutWebhookEvents(db, { limit: busy ? BUSY_FAN_OUT : CLAIM_BATCH }),
    async handler(delivery, { now, logger }) {
      const attempt = await sender.send({
        url: delivery.url,
        id: delivery.eventId,
        timestamp: now(),
        body: delivery.body,
        secrets: signingSecrets(options.secrets, delivery, now()),
      });
      const details: DeliveryAttempt = {
        statusCode: attempt.statusCode,
        error: attempt.error,
        responseBody: attempt.responseBody,
        durationMs: attempt.durationMs,
      };
      if (attempt.ok) return { details };
      if (attempt.gone) {
        await disable(storage, delivery, now().toISOString(), logger);
        return { state: 'dead', error: attempt.error ?? 'HTTP 410', details };
      }
      return { state: 'retry', error: attempt.error ?? `HTTP ${attempt.statusCode}`, details, requestedDelayMs: attempt.retryAfterMs };
    },
    logFields: (delivery) => ({ deliveryId: delivery.id, webhookId: delivery.webhookId, eventId: delivery.eventId }),
    logSettled(delivery, settlement, recorded, log) {
      if (recorded) options.onAttempt?.(OUTCOME[settlement.state]);
      const fields = { eventType: delivery.eventType, attempt: delivery.attempts, status: settlement.details?.statusCode ?? null, ms: Math.round(settlement.details?.durationMs ?? 0) };
      const reason = settlement.details?.error ?? (settlement.state === 'done' ? null : settlement.error);
      if (!recorded) log.warn(fields, 'webhook attempt ended after its lease was taken over; its outcome is not recorded');
      else if (settlement.state === 'done') log.debug(fields, 'webhook delivered');
      else if (settlement.state === 'pending') log.info({ ...fields, reason, nextAttemptAt: settlement.runAt.toISOString() }, 'webhook attempt failed; it will be retried');
      else log.warn({ ...fields, reason }, 'webhook delivery failed; `signet webhooks retry` sends it again');
    },
  };
}

/** The endpoint's secret, and the one it replaced while that still signs beside it. */
function signingSecrets(secrets: SecretBox, delivery: ClaimedWebhookDelivery, now: Date): string[] {
  const open = (sealed: Uint8Array) => Buffer.from(secrets.open(sealed)).toString('utf8');
  const current = [open(delivery.secret)];
  const previousValid = delivery.previousSecret && delivery.previousSecretExpiresAt && Date.parse(delivery.previousSecretExpiresAt) > now.getTime();
  return previousValid ? [...current, open(delivery.previousSecret!)] : current;
}

/** A 410 Gone: the endpoint is turned off, with the reason. */
async function disable(storage: Storage, delivery: ClaimedWebhookDelivery, at: string, logger: Logger): Promise<void> {
  await updateWebhookEndpoint(storage.db, delivery.organizationId, delivery.webhookId, {
    enabled: false,
    disabledReason: `answered 410 Gone at ${at}`,
    updatedAt: at,
  });
  logger.warn({ webhookId: delivery.webhookId }, 'webhook endpoint answered 410 Gone: it is disabled');
}
