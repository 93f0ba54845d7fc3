import type { z } from 'zod';
import type { Logger } from '../logger.js';
import type { Queryable, SqlDatabase } from '../storage/sql-database.js';
import type { BackoffPolicy } from './backoff.js';

/*
 * The job runner's vocabulary (docs/decisions.md, "One job runner"). A kind is a handler, a payload schema and
 * options; its queue is the generic `jobs` table unless it brings its own (seals and webhook deliveries do: the API
 * shows their rows). Every queue has the same lease columns and the same four states.
 */

/** A job's state in every kind's words: `dead` is a job that gave up (its reason in `lastError`). */
export type JobState = 'pending' | 'running' | 'done' | 'dead';

export const JOB_STATES: readonly JobState[] = ['pending', 'running', 'done', 'dead'];

/** A job taken with a lease: its id, its attempt (this one included), and what its kind needs to run it. */
export interface ClaimedJob {
  id: string;
  attempts: number;
}

/** A job as `signet jobs list` shows it; a kind's own columns (a seal's `documentId`) come along. */
export interface JobSummary {
  kind: string;
  id: string;
  state: JobState;
  /** The state in its kind's words (a seal is `sealed` when done, `failed` when dead). */
  status: string;
  attempts: number;
  runAt: string | null;
  leaseOwner: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  [column: string]: unknown;
}

/** How an attempt ends, as its queue records it under the lease. */
export type Settlement<D = unknown> =
  | { state: 'done'; at: Date; details?: D }
  | { state: 'pending'; at: Date; runAt: Date; error: string; details?: D }
  | { state: 'dead'; at: Date; error: string; details?: D; /** Whether waiting could have helped (its attempts ran out). */ retryable?: boolean };

/** What claims a kind's due jobs and records how they end, each query checking the lease. */
export interface JobQueue<J extends ClaimedJob = ClaimedJob, D = unknown> {
  /** Takes up to `limit` due jobs (pending and due, or running with a lease that ran out) for `owner`. */
  claim(db: SqlDatabase, request: { owner: string; now: Date; leaseMs: number; limit: number; lane?: string }): Promise<J[]>;
  /** Extends the leases `owner` still holds; resolves with how many it did. */
  renew(db: SqlDatabase, owner: string, ids: readonly string[], until: Date): Promise<number>;
  /** Records an attempt's end if `owner` still holds the lease, in `tx`; false when the lease was lost. */
  settle(tx: Queryable, owner: string, job: J, settlement: Settlement<D>): Promise<boolean>;
  /** When the next pending job is due (epoch ms), or null. */
  nextDue(db: SqlDatabase): Promise<number | null>;
  /** How many jobs are in each state, for metrics (a state without jobs may be absent). */
  counts(db: SqlDatabase): Promise<Partial<Record<JobState, number>>>;
  /**
   * Makes the jobs `ids` that `owner` still runs pending and due at `at` (a runner stopping before they ended);
   * resolves with how many it did.
   */
  release(db: SqlDatabase, owner: string, ids: readonly string[], at: Date): Promise<number>;
  /** Newest first. */
  list(db: SqlDatabase, options: { state?: JobState; limit: number }): Promise<JobSummary[]>;
  /** Makes a dead (or pending) job due now with a fresh count of attempts; false when there is none, or it runs. */
  retry(db: SqlDatabase, id: string, now: Date): Promise<boolean>;
  /** Whether `id` names a job of this queue (by its prefix), for `signet jobs retry <id>`. */
  owns(id: string): boolean;
}

/** What a handler is given besides its job. */
export interface JobContext {
  db: SqlDatabase;
  logger: Logger;
  /** The runner's clock. */
  now(): Date;
  /** The lease holder's name: this runner. */
  owner: string;
}

/**
 * How a handler's attempt ended. Returning nothing is `done`. `effects` run in the transaction that records the
 * end, after its lease check, so they happen once (a sealed file, an audit event, a webhook event); they may name
 * kinds to wake once it commits.
 */
export type HandlerResult<D = unknown> =
  | void
  | {
      state?: 'done';
      details?: D;
      effects?: (tx: Queryable) => Promise<{ wake?: string[] } | void>;
    }
  | { state: 'retry'; error: string; details?: D; requestedDelayMs?: number | null }
  | { state: 'dead'; error: string; details?: D; effects?: (tx: Queryable) => Promise<{ wake?: string[] } | void> };

/** A lane: loops that take only some of a kind's jobs (a seal lane for documents that are not large). */
export interface Lane {
  name: string;
  /** Its jobs at once. */
  concurrency: number;
}

/** How the runner runs a kind. */
export interface JobKindOptions {
  /** The lease of an attempt; a runner that dies loses its jobs once it runs out. */
  leaseMs: number;
  /** The longest sleep before looking for other processes' jobs. */
  pollMs: number;
  /** When a failed attempt runs again, and when a job is dead. */
  backoff: BackoffPolicy;
  /** Jobs at once (one lane `default`), or `lanes`. */
  concurrency?: number;
  lanes?: Lane[];
  /** Most jobs one claim takes (default 1). */
  claimBatch?: number;
  /** Renews the leases of running jobs every third of `leaseMs` (for jobs that may outlast it). */
  renewLeases?: boolean;
  /**
   * While this says the process is busy (answering API requests), the kind takes at most `busyBatch` jobs a claim
   * and pauses `busyPauseMs` after each: the requests come first.
   */
  busy?: () => boolean;
  busyBatch?: number;
  busyPauseMs?: number;
}

/**
 * A kind of job: `name`, the `schema` of a job as claimed (its payload), the `handler` that runs one, `options`, and
 * its `queue`. The runner checks each claimed job against the schema and hands the handler what it parsed; a job
 * that does not match is dead at once, with the reason. A thrown error is a failed attempt, retried on the backoff
 * when `retryable` says so (default: always) and dead once the attempts are used up.
 */
export interface JobKind<J extends ClaimedJob = ClaimedJob, D = unknown> {
  name: string;
  schema: z.ZodType<J>;
  queue: JobQueue<J, D>;
  options: JobKindOptions;
  handler(job: J, context: JobContext & { lane: string }): Promise<HandlerResult<D>>;
  /** Whether a thrown error may pass by itself (default: yes). */
  retryable?(error: unknown): boolean;
  /** The reason recorded for a thrown error (default: its message). */
  reason?(error: unknown): string;
  /** Work to do before each claim (webhook events fanned out into deliveries); resolves with how much it did. */
  prepare?(db: SqlDatabase, busy: boolean): Promise<number>;
  /** Effects of a job that dies, in the transaction that records it (a `document.sealing_failed` event). */
  onDead?(tx: Queryable, job: J, error: string, at: Date): Promise<{ wake?: string[] } | void>;
  /** Fields that name a job in log lines. */
  logFields?(job: J): Record<string, unknown>;
  /** Logs how an attempt ended (default: one line a failure). */
  logSettled?(job: J, settlement: Settlement<D>, recorded: boolean, log: Logger): void;
}
