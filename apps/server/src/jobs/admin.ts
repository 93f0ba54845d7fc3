import type { SqlDatabase } from '../storage/sql-database.js';
import { genericQueue } from './generic-queue.js';
import { JOB_STATES, type JobQueue, type JobState, type JobSummary } from './types.js';

/*
 * What `signet jobs list|retry`, the runner and `/metrics` do with the queues of every kind: list their jobs
 * together, run a dead one again, count them.
 */

/** A kind's name and what its queue lists and retries. */
export interface NamedQueue {
  name: string;
  queue: Pick<JobQueue, 'list' | 'retry' | 'owns' | 'counts' | 'nextDue'>;
}

/** A kind's jobs in each state, and how long its longest-waiting due job has waited (0 when none is due). */
export interface JobKindStats {
  kind: string;
  counts: Record<JobState, number>;
  oldestDueMs: number;
}

/**
 * The jobs of the given queues and of every other kind in the `jobs` table, counted by state, with the age of each
 * kind's oldest due job at `now` (for `/metrics`, read when scraped).
 */
export async function jobStats(db: SqlDatabase, queues: readonly NamedQueue[], now: Date): Promise<JobKindStats[]> {
  const named = new Set(queues.map((queue) => queue.name));
  const others = await db.query.selectFrom('jobs').select('kind').distinct().execute();
  const all = [...queues, ...others.filter((row) => !named.has(row.kind)).map((row) => ({ name: row.kind, queue: genericQueue(row.kind) }))];
  return Promise.all(
    all.map(async ({ name, queue }) => {
      const [counts, due] = await Promise.all([queue.counts(db), queue.nextDue(db)]);
      return {
        kind: name,
        counts: Object.fromEntries(JOB_STATES.map((state) => [state, counts[state] ?? 0])) as Record<JobState, number>,
        oldestDueMs: due === null ? 0 : Math.max(0, now.getTime() - due),
      };
    }),
  );
}

/** Jobs of the given queues, newest first (by when they were enqueued), at most `limit`. */
export async function listJobs(db: SqlDatabase, queues: readonly NamedQueue[], options: { state?: JobState; limit: number }): Promise<JobSummary[]> {
  const lists = await Promise.all(queues.map(({ queue }) => queue.list(db, options)));
  return lists
    .flat()
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
    .slice(0, options.limit);
}

/**
 * Makes the job `id` of whichever queue owns it (by its id's prefix) due at `now` with a fresh count of attempts
 * (dead → pending); resolves with its kind's name, or null when no queue has such a job dead or waiting.
 */
export async function retryJob(db: SqlDatabase, queues: readonly NamedQueue[], id: string, now: Date): Promise<string | null> {
  for (const { name, queue } of queues) {
    if (queue.owns(id) && (await queue.retry(db, id, now))) return name;
  }
  return null;
}
