import type { Migration } from '../migrations.js';

/*
 * `jobs`: the queue of the job kinds that keep no table of their own (`jobs/generic-queue.ts`): a kind registered
 * with a handler, a payload schema and options lands here. Seals keep `seal_jobs` and webhook deliveries keep
 * `webhook_deliveries` (the API shows their state and history); the one runner takes all three with the same lease
 * columns. See docs/decisions.md, "One job runner". `key` makes an enqueue idempotent per kind (NULL: none).
 */
export const jobs: Migration = {
  version: 9,
  name: 'generic jobs',
  up: ({ bigint }) => `
    CREATE TABLE jobs (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      key TEXT,
      payload TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'dead')),
      attempts INTEGER NOT NULL,
      run_at ${bigint} NOT NULL,
      lease_owner TEXT,
      lease_until ${bigint},
      last_error TEXT,
      created_at ${bigint} NOT NULL,
      updated_at ${bigint} NOT NULL
    );
    CREATE UNIQUE INDEX jobs_by_key ON jobs (kind, key);
    CREATE INDEX jobs_due ON jobs (kind, status, run_at);
    CREATE INDEX jobs_newest ON jobs (created_at, id);
  `,
};
