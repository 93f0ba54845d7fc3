import type { SqlDatabase } from '../../storage/sql-database.js';

/*
 * How this process's job runner hears of a bulk job at once (as webhooks/wake.ts does for webhook events): the
 * request that enqueued it says so after its commit; other processes' jobs the runner finds by polling.
 */

const listeners = new WeakMap<SqlDatabase, Set<() => void>>();

/** Calls `listener` after each commit to `database` in this process that enqueued a bulk job; returns the unsubscribe. */
export function onBulkJobs(database: SqlDatabase, listener: () => void): () => void {
  const set = listeners.get(database) ?? new Set();
  listeners.set(database, set.add(listener));
  return () => {
    set.delete(listener);
  };
}

/** A commit to `database` enqueued a bulk job: its listeners hear of it. */
export function bulkJobEnqueued(database: SqlDatabase): void {
  for (const listener of listeners.get(database) ?? []) listener();
}
