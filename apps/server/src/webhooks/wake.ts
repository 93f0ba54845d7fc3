import type { SqlDatabase } from '../storage/sql-database.js';

/*
 * How this process's webhook dispatcher hears of work at once: a feature whose commit enqueued webhook events (or
 * made a delivery due) says so after the commit, and the listeners of that database in this process wake the
 * dispatcher (`jobs/start.ts`); other processes' commits it finds by polling. Storage knows nothing of it: the
 * features compose their transactions and announce what they enqueued (docs/decisions.md, "One job runner").
 */

const listeners = new WeakMap<SqlDatabase, Set<() => void>>();

/**
 * Calls `listener` after each commit to `database` in this process that enqueued webhook events or deliveries;
 * returns the unsubscribe.
 * @example const stop = onWebhookEvents(storage.db, () => runner.wake('webhook'));
 */
export function onWebhookEvents(database: SqlDatabase, listener: () => void): () => void {
  const set = listeners.get(database) ?? new Set();
  listeners.set(database, set.add(listener));
  return () => {
    set.delete(listener);
  };
}

/**
 * A commit to `database` enqueued `count` webhook events or deliveries: its listeners hear of it (none for 0).
 * @example webhookEventsEnqueued(storage.db, await storage.db.transaction((tx) => enqueueWebhookEvent(tx.query, event)));
 */
export function webhookEventsEnqueued(database: SqlDatabase, count: number): void {
  if (count > 0) for (const listener of listeners.get(database) ?? []) listener();
}
