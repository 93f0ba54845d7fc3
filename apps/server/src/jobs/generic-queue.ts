import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Queryable } from '../storage/sql-database.js';
import { countStates, releaseLeases, renewLeases, settledColumns, type LeaseTable } from './lease.js';
import type { Tables } from '../storage/tables.js';
import type { ClaimedJob, HandlerResult, JobContext, JobKind, JobKindOptions, JobQueue, JobState, JobSummary } from './types.js';

/*
 * The `jobs` table (`migrations/009_jobs.ts`): the queue of every kind that keeps no table of its own. A kind is
 * `defineJobKind({ name, schema, handler, options })`; a caller enqueues with `enqueueJob(tx, kind, payload)` in the
 * transaction of the change that causes it, and wakes the runner after the commit (`runner.wake(kind.name)`).
 */

type JobRow = Tables['jobs'];

const TABLE: LeaseTable = { name: 'jobs', id: 'id', running: 'running', due: 'run_at' };
/** The `jobs` table's statuses are the runner's states. */
const GENERIC_STATES: Record<JobState, JobState> = { pending: 'pending', running: 'running', done: 'done', dead: 'dead' };

/** A job of the `jobs` table, taken with a lease; its kind's handler gets its payload checked by the schema. */
export interface GenericJob<P = unknown> extends ClaimedJob {
  kind: string;
  key: string | null;
  payload: P;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(Number(ms)).toISOString());

function toSummary(row: JobRow): JobSummary {
  return {
    kind: row.kind,
    id: row.id,
    state: row.status,
    status: row.status,
    attempts: Number(row.attempts),
    runAt: iso(row.run_at),
    leaseOwner: row.lease_owner,
    lastError: row.last_error,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    key: row.key,
  };
}

/** A new job id: `job_` and 24 random characters. */
const newJobId = () => `job_${randomBytes(18).toString('base64url')}`;

/**
 * Enqueues a job of `kind` in `tx` (the caller's transaction, or the database), its payload checked by the kind's
 * schema; with a `key`, once per kind and key (a second enqueue adds nothing). Resolves with the job's id, or null
 * when its key was taken.
 * @example await db.transaction((tx) => enqueueJob(tx, emailKind, { to: 'a@example.com' }, { key: documentId }));
 */
export async function enqueueJob<P>(
  tx: Queryable,
  kind: { name: string; payloadSchema: z.ZodType<P> },
  payload: P,
  options: { key?: string; runAt?: Date } = {},
): Promise<string | null> {
  const checked = kind.payloadSchema.parse(payload);
  const now = Date.now();
  const id = newJobId();
  const result = await tx.query
    .insertInto('jobs')
    .values({
      id,
      kind: kind.name,
      key: options.key ?? null,
      payload: JSON.stringify(checked),
      status: 'pending',
      attempts: 0,
      run_at: options.runAt?.getTime() ?? now,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? id : null;
}

/**
 * Deletes, in `tx`, the pending jobs of `kinds` whose payload names `documentId` (as `documentId`): what an erased
 * document must no longer cause. A job already running finishes; its kind checks the document itself. Resolves with
 * how many were deleted.
 * @example await dropPendingDocumentJobs(tx, ['mail', 'reminder'], document.id)
 */
export async function dropPendingDocumentJobs(tx: Queryable, kinds: readonly string[], documentId: string): Promise<number> {
  const candidates = await tx.query
    .selectFrom('jobs')
    .select(['id', 'payload'])
    .where('status', '=', 'pending')
    .where('kind', 'in', [...kinds])
    .where('payload', 'like', `%${JSON.stringify(documentId).slice(1, -1)}%`)
    .execute();
  const ids = candidates.filter((row) => (JSON.parse(row.payload) as { documentId?: unknown }).documentId === documentId).map((row) => row.id);
  if (ids.length === 0) return 0;
  await tx.query.deleteFrom('jobs').where('id', 'in', ids).where('status', '=', 'pending').execute();
  return ids.length;
}

/** The queue of one kind in the `jobs` table; payloads come as stored (JSON), unchecked. */
export function genericQueue(name: string): JobQueue<GenericJob> {
  return {
    async claim(db, { owner, now, leaseMs, limit }) {
      const at = now.getTime();
      return db.transaction(async (tx) => {
        const due = await tx.query
          .selectFrom('jobs')
          .select('id')
          .where('kind', '=', name)
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', at)]),
              eb.and([eb('status', '=', 'running'), eb('lease_until', '<', at)]),
            ]),
          )
          .orderBy('run_at')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute();
        if (due.length === 0) return [];
        const ids = due.map((row) => row.id);
        await tx.query
          .updateTable('jobs')
          .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), lease_owner: owner, lease_until: at + leaseMs, updated_at: at }))
          .where('id', 'in', ids)
          .execute();
        const rows = await tx.query.selectFrom('jobs').selectAll().where('id', 'in', ids).orderBy('run_at').execute();
        return rows.map((row) => ({ id: row.id, kind: row.kind, key: row.key, attempts: Number(row.attempts), payload: JSON.parse(row.payload) as unknown }));
      });
    },
    renew: (db, owner, ids, until) => renewLeases(db, TABLE, owner, ids, until),
    release: (db, owner, ids, at) => releaseLeases(db, TABLE, owner, ids, at),
    counts: (db) => countStates(db, 'jobs', GENERIC_STATES, name),
    async settle(tx, owner, job, settlement) {
      const result = await tx.query
        .updateTable('jobs')
        .set(settledColumns(settlement, settlement.state))
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async nextDue(db) {
      const row = await db.query
        .selectFrom('jobs')
        .select('run_at')
        .where('kind', '=', name)
        .where('status', '=', 'pending')
        .orderBy('run_at')
        .limit(1)
        .executeTakeFirst();
      return row ? Number(row.run_at) : null;
    },
    async list(db, { state, limit }) {
      let query = db.query.selectFrom('jobs').selectAll().where('kind', '=', name);
      if (state) query = query.where('status', '=', state);
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toSummary);
    },
    async retry(db, id, now) {
      const result = await db.query
        .updateTable('jobs')
        .set({ status: 'pending', attempts: 0, run_at: now.getTime(), updated_at: now.getTime() })
        .where('id', '=', id)
        .where('kind', '=', name)
        .where('status', 'in', ['pending', 'dead'] satisfies JobState[])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    owns: (id) => id.startsWith('job_'),
  };
}

/**
 * A kind of job on the `jobs` table: what the next kinds (e-mail, bulk creation, imports) need to run under the one
 * runner. The handler gets the checked payload; a thrown error is retried on `options.backoff` (a `NonRetryable`
 * one, or a payload the schema refuses, dies at once with its reason).
 * @example
 * const email = defineJobKind({
 *   name: 'email',
 *   schema: z.object({ to: z.string().email(), template: z.string() }),
 *   options: { leaseMs: 60_000, pollMs: 1000, concurrency: 4, backoff: { kind: 'exponential', baseMs: 1000, maxMs: 3_600_000, maxAttempts: 8, jitter: 0.1 } },
 *   handler: async (job) => { await send(job.payload) },
 * });
 * runner.register(email);
 */
export function defineJobKind<P>(definition: {
  name: string;
  schema: z.ZodType<P>;
  options: JobKindOptions;
  handler(job: GenericJob<P>, context: JobContext & { lane: string }): Promise<HandlerResult>;
}): JobKind<GenericJob<P>> & { payloadSchema: z.ZodType<P> } {
  const { name, schema, options, handler } = definition;
  return {
    name,
    // The runner checks each claimed job (its stored payload included) against this before the handler runs.
    schema: z.object({ id: z.string(), kind: z.literal(name), key: z.string().nullable(), attempts: z.number().int(), payload: schema }) as z.ZodType<GenericJob<P>>,
    payloadSchema: schema,
    options,
    queue: genericQueue(name) as unknown as JobQueue<GenericJob<P>>,
    handler,
    retryable: (error) => !(error instanceof NonRetryable),
  };
}

/** An error a generic kind's handler throws when trying again cannot help: the job dies at once with its message. */
export class NonRetryable extends Error {}
