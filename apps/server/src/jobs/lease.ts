import { sql } from 'kysely';
import type { SqlDatabase } from '../storage/sql-database.js';
import type { Settlement } from './types.js';

/*
 * The lease columns every queue's table has (`status`, `run_at` or `next_attempt_at`, `lease_owner`, `lease_until`,
 * `last_error`, `updated_at`), and the statements that are the same on each.
 */

/** A queue's table: its name, its id column and its word for "running". */
export interface LeaseTable {
  name: 'jobs' | 'seal_jobs' | 'webhook_deliveries';
  id: string;
  running: string;
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
