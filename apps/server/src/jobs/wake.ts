import type { SqlDatabase } from '../storage/sql-database.js';

/*
 * How this process's job runner hears at once of jobs a request enqueued (as webhooks/wake.ts does for webhook
 * events): the feature says so after its commit, naming the kind; other processes' jobs the runner finds by polling.
 */

const listeners = new WeakMap<SqlDatabase, Set<(kind: string) => void>>();

/** Calls `listener` with the kind after each commit to `database` in this process that enqueued jobs; returns the unsubscribe. */
export function onJobsEnqueued(database: SqlDatabase, listener: (kind: string) => void): () => void {
  const set = listeners.get(database) ?? new Set();
  listeners.set(database, set.add(listener));
  return () => {
    set.delete(listener);
  };
}

/**
 * A commit to `database` enqueued jobs of `kind`: its listeners hear of it.
 * @example await storage.db.transaction((tx) => enqueueMail(tx.query, …)); jobsEnqueued(storage.db, 'mail');
 */
export function jobsEnqueued(database: SqlDatabase, kind: string): void {
  for (const listener of listeners.get(database) ?? []) listener(kind);
}
