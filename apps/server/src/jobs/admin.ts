import type { SqlDatabase } from '../storage/sql-database.js';
import type { JobQueue, JobState, JobSummary } from './types.js';

/*
 * What `signet jobs list|retry` and the runner do with the queues of every kind: list their jobs together, and run
 * a dead one again.
 */

/** A kind's name and what its queue lists and retries. */
export interface NamedQueue {
  name: string;
  queue: Pick<JobQueue, 'list' | 'retry' | 'owns'>;
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
