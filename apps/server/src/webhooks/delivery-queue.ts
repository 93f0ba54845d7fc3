import type { ExpressionBuilder } from 'kysely';
import { countStates, releaseLeases, renewLeases, type LeaseTable } from '../jobs/lease.js';
import type { JobQueue, JobState, JobSummary, Settlement } from '../jobs/types.js';
import { toMillis } from '../storage/schema.js';
import type { Queryable, SqlDatabase } from '../storage/sql-database.js';
import type { Tables } from '../storage/tables.js';
import type { ClaimedWebhookDelivery, IsoTime, WebhookAttemptOutcome, WebhookDeliveryStatus } from '../storage/types.js';
import { CLAIMED_SELECT, toClaimed } from '../storage/queries/webhook-deliveries.js';

/*
 * The webhook kind's queue: `webhook_deliveries`, one row per event and endpoint, which is also the delivery history
 * the API lists (`GET /webhooks/{id}/deliveries`): the runner's lease columns, and how the last attempt ended. Its
 * states in the runner's words: `sending` is running, `succeeded` done, `failed` dead.
 */

const STATUS: Record<JobState, WebhookDeliveryStatus> = { pending: 'pending', running: 'sending', done: 'succeeded', dead: 'failed' };
const STATE: Record<WebhookDeliveryStatus, JobState> = { pending: 'pending', sending: 'running', succeeded: 'done', failed: 'dead' };
const TABLE: LeaseTable = { name: 'webhook_deliveries', id: 'id', running: 'sending', due: 'next_attempt_at' };

/** How an attempt ended, as the delivery history keeps it. */
export interface DeliveryAttempt {
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
}

type Deliveries = ExpressionBuilder<Tables & { d: Tables['webhook_deliveries'] }, 'd'>;

/*
 * A delivery of an enabled endpoint that may go now. It waits while an earlier event of its document to the same
 * endpoint is being sent or not tried yet, so that a document's events arrive in order when none fails; an earlier
 * one that failed (waiting for its retry) no longer holds the later ones back.
 */
function claimable(eb: Deliveries) {
  return eb.and([
    eb.exists(eb.selectFrom('webhook_endpoints as e').select('e.id').whereRef('e.id', '=', 'd.endpoint_id').where('e.enabled', '=', 1)),
    eb.not(
      eb.exists(
        eb
          .selectFrom('webhook_deliveries as p')
          .select('p.id')
          .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
          .whereRef('p.document_id', '=', 'd.document_id')
          .whereRef('p.occurred_at', '<', 'd.occurred_at')
          .where((inner) => inner.or([inner('p.status', '=', 'sending'), inner.and([inner('p.status', '=', 'pending'), inner('p.attempts', '=', 0)])])),
      ),
    ),
  ]);
}

/** Ids of claimable deliveries in `status` whose `column` is before `before`, oldest first, locked (skipping locked ones). */
function claimableIds(
  tx: Queryable,
  { status, column, before, limit }: { status: WebhookDeliveryStatus; column: 'd.lease_until' | 'd.next_attempt_at'; before: number; limit: number },
): Promise<Array<{ id: string }>> {
  return tx.query
    .selectFrom('webhook_deliveries as d')
    .select('d.id')
    .where('d.status', '=', status)
    .where(column, '<', before)
    .where(claimable)
    .orderBy(column)
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/**
 * Takes up to `limit` due deliveries (pending and due, or sending with a lease that ran out) of enabled endpoints
 * for `owner` until `now + leaseMs`, counting an attempt each, oldest event first. Pending ones are read in the
 * order of the (status, next_attempt_at) index, so a claim stops after `limit` rows however long the backlog; ones
 * whose lease ran out (their runner died) are few, and read apart. Instances sharing a PostgreSQL database never
 * take the same delivery (`FOR UPDATE SKIP LOCKED`).
 */
export async function claimWebhookDeliveries(
  db: SqlDatabase,
  owner: string,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<ClaimedWebhookDelivery[]> {
  const now = options.now.getTime();
  return db.transaction(async (tx) => {
    const expired = await claimableIds(tx, { status: 'sending', column: 'd.lease_until', before: now, limit: options.limit });
    const due = expired.length < options.limit ? await claimableIds(tx, { status: 'pending', column: 'd.next_attempt_at', before: now + 1, limit: options.limit - expired.length }) : [];
    const ids = [...expired, ...due].map((row) => row.id);
    if (ids.length === 0) return [];
    await tx.query
      .updateTable('webhook_deliveries')
      .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1), lease_owner: owner, lease_until: now + options.leaseMs, updated_at: now }))
      .where('id', 'in', ids)
      .execute();
    const rows = await tx.query
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
      .select(CLAIMED_SELECT)
      .where('d.id', 'in', ids)
      .orderBy('d.occurred_at')
      .execute();
    return rows.map(toClaimed);
  });
}

/** Records how `owner`'s attempt ended, in `tx`; false when `owner` no longer holds the delivery (taken over). */
export async function recordDeliveryAttempt(tx: Queryable, owner: string, deliveryId: string, outcome: WebhookAttemptOutcome): Promise<boolean> {
  const at = toMillis(outcome.at);
  const result = await tx.query
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      next_attempt_at: outcome.nextAttemptAt === null ? null : toMillis(outcome.nextAttemptAt),
      lease_owner: null,
      lease_until: null,
      last_status_code: outcome.statusCode,
      last_error: outcome.error,
      last_response_body: outcome.responseBody,
      last_duration_ms: Math.round(outcome.durationMs),
      updated_at: at,
      delivered_at: outcome.status === 'succeeded' ? at : null,
    })
    .where('id', '=', deliveryId)
    .where('status', '=', 'sending')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** `recordDeliveryAttempt` in a transaction of its own (a group commit). */
export function finishWebhookDelivery(db: SqlDatabase, owner: string, deliveryId: string, outcome: WebhookAttemptOutcome): Promise<boolean> {
  return db.groupCommit((tx) => recordDeliveryAttempt(tx, owner, deliveryId, outcome));
}

/** When the next pending delivery of an enabled endpoint is due, or null. */
export async function nextWebhookDeliveryDue(db: SqlDatabase): Promise<IsoTime | null> {
  const due = await nextDue(db);
  return due === null ? null : new Date(due).toISOString();
}

async function nextDue(db: SqlDatabase): Promise<number | null> {
  const row = await db.query
    .selectFrom('webhook_deliveries as d')
    .select('d.next_attempt_at')
    .where('d.status', '=', 'pending')
    .where((eb) => eb.exists(eb.selectFrom('webhook_endpoints as e').select('e.id').whereRef('e.id', '=', 'd.endpoint_id').where('e.enabled', '=', 1)))
    .orderBy('d.next_attempt_at')
    .limit(1)
    .executeTakeFirst();
  return row?.next_attempt_at == null ? null : Number(row.next_attempt_at);
}

/** The outcome a settlement records. */
function toOutcome(settlement: Settlement<DeliveryAttempt>): WebhookAttemptOutcome {
  const attempt = settlement.details ?? { statusCode: null, error: settlement.state === 'done' ? null : settlement.error, responseBody: null, durationMs: 0 };
  const common = { ...attempt, at: settlement.at.toISOString() };
  if (settlement.state === 'done') return { ...common, status: 'succeeded', nextAttemptAt: null };
  if (settlement.state === 'dead') return { ...common, status: 'failed', nextAttemptAt: null };
  return { ...common, status: 'pending', nextAttemptAt: settlement.runAt.toISOString() };
}

/** The queue of `webhook_deliveries`. */
export function deliveryQueue(): JobQueue<ClaimedWebhookDelivery, DeliveryAttempt> {
  return {
    claim: (db, { owner, now, leaseMs, limit }) => claimWebhookDeliveries(db, owner, { now, leaseMs, limit }),
    renew: (db, owner, ids, until) => renewLeases(db, TABLE, owner, ids, until),
    release: (db, owner, ids, at) => releaseLeases(db, TABLE, owner, ids, at),
    counts: (db) => countStates(db, 'webhook_deliveries', STATE),
    settle: (tx, owner, job, settlement) => recordDeliveryAttempt(tx, owner, job.id, toOutcome(settlement)),
    nextDue,
    async list(db, { state, limit }) {
      let query = db.query
        .selectFrom('webhook_deliveries')
        .select(['id', 'endpoint_id', 'event_id', 'event_type', 'document_id', 'status', 'attempts', 'next_attempt_at', 'lease_owner', 'last_status_code', 'last_error', 'created_at', 'updated_at']);
      if (state) query = query.where('status', '=', STATUS[state]);
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(
        (row): JobSummary => ({
          kind: 'webhook',
          id: row.id,
          state: STATE[row.status],
          status: row.status,
          attempts: Number(row.attempts),
          runAt: row.next_attempt_at == null ? null : new Date(Number(row.next_attempt_at)).toISOString(),
          leaseOwner: row.lease_owner,
          lastError: row.last_error,
          createdAt: new Date(Number(row.created_at)).toISOString(),
          updatedAt: new Date(Number(row.updated_at)).toISOString(),
          webhookId: row.endpoint_id,
          eventId: row.event_id,
          eventType: row.event_type,
          documentId: row.document_id,
          lastStatusCode: row.last_status_code == null ? null : Number(row.last_status_code),
        }),
      );
    },
    async retry(db, id, now) {
      const result = await db.query
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now.getTime(), updated_at: now.getTime() })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'failed'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    owns: (id) => id.startsWith('dlv_'),
  };
}
