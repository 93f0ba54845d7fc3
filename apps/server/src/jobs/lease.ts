import { sql } from 'kysely';
import type { SqlDatabase } from '../storage/sql-database.js';
import type { JobState, Settlement } from './types.js';

/*
 * The lease columns every queue's table has (`status`, `run_at` or `next_attempt_at`, `lease_owner`, `lease_until`,
 * `last_error`, `updated_at`), and the statements that are the same on each.
 */

/** A queue's table: its name, its id column, its word for "running" and the column saying when a job is due. */
export interface LeaseTable {
  name: 'jobs' | 'seal_jobs' | 'webhook_deliveries';
  id: string;
  running: string;
  due: 'run_at' | 'next_attempt_at';
}

/** Extends the leases `owner` still holds on `ids` to `until`; resolves with how many it did. */
export async function renewLeases(db: SqlDatabase, table: LeaseTable, owner: string, ids: readonly string[], until: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.query
    // One statement for the three tables: the columns it names are the lease columns all of them have.
    .updateTable(table.name as 'jobs')
    .set({ lease_until: until.getTime() })
    .where(sql.ref(table.id), 'in', ids)
    .where(sql.ref('status'), '=', table.running)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Gives back the leases `owner` still holds on `ids`: the jobs are pending and due at `at`, so that another runner
 * takes them at once rather than when their leases run out (a runner stopping before its jobs ended). Their
 * attempts stay counted. Resolves with how many it released.
 */
export async function releaseLeases(db: SqlDatabase, table: LeaseTable, owner: string, ids: readonly string[], at: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.query
    .updateTable(table.name as 'jobs')
    .set({ status: 'pending', lease_owner: null, lease_until: null, [table.due as 'run_at']: at.getTime(), updated_at: at.getTime() })
    .where(sql.ref(table.id), 'in', ids)
    .where(sql.ref('status'), '=', table.running)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * How many jobs of `table` (of one `kind` of the `jobs` table) are in each state, its statuses read as the runner's
 * states through `states` (a seal's `sealed` is `done`).
 */
export async function countStates(
  db: SqlDatabase,
  table: LeaseTable['name'],
  states: Readonly<Record<string, JobState>>,
  kind?: string,
): Promise<Partial<Record<JobState, number>>> {
  let query = db.query
    .selectFrom(table as 'jobs')
    .select((eb) => [sql.ref<string>('status').as('status'), eb.fn.countAll().as('count')])
    .groupBy(sql.ref('status'));
  if (kind !== undefined) query = query.where('kind', '=', kind);
  const counts: Partial<Record<JobState, number>> = {};
  for (const row of await query.execute()) {
    const state = states[String(row.status)];
    if (state) counts[state] = (counts[state] ?? 0) + Number(row.count);
  }
  return counts;
}

/** The lease columns of a job as `settlement` leaves it: `status` in its table's words, the lease released. */
export function settledColumns<S extends string>(settlement: Settlement, status: S) {
  const at = settlement.at.getTime();
  return {
    status,
    run_at: settlement.state === 'pending' ? settlement.runAt.getTime() : at,
    last_error: settlement.state === 'done' ? null : settlement.error,
    lease_owner: null,
    lease_until: null,
    updated_at: at,
  };
}
