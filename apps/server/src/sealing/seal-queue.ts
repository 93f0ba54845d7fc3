import { sql } from 'kysely';
import { countStates, releaseLeases, renewLeases, settledColumns, type LeaseTable } from '../jobs/lease.js';
import type { JobQueue, JobState, Settlement } from '../jobs/types.js';
import { listSealJobs, retrySealJob, toSealJob } from '../storage/queries/seals.js';
import type { SqlDatabase } from '../storage/sql-database.js';
import type { SealJob, SealJobSizeLimit, SealJobStatus } from '../storage/types.js';

/*
 * The seal kind's queue: `seal_jobs`, one row per completed document (its id is the document's), with the runner's
 * lease columns. Its states in the runner's words: `sealed` is done, `failed` is dead (the API shows `sealing`
 * in its own words, unchanged). Claims are fair between organizations, and a lane may take only documents that are
 * not large (docs/decisions.md, "Seal work that scales with the document").
 */

/** A seal job taken with a lease; `id` is its document's. */
export type ClaimedSeal = SealJob & { id: string };

const STATUS: Record<JobState, SealJobStatus> = { pending: 'pending', running: 'running', done: 'sealed', dead: 'failed' };
const STATE: Record<SealJobStatus, JobState> = { pending: 'pending', running: 'running', sealed: 'done', failed: 'dead' };
const TABLE: LeaseTable = { name: 'seal_jobs', id: 'document_id', running: 'running', due: 'run_at' };

/**
 * The document of a due job, fairly: first of the organizations with the fewest seals running now (so one
 * organization's backlog, or one document's retries, never keep another's seals waiting), then the longest due;
 * `size` is the lane's condition on the document's size. `FOR UPDATE OF j SKIP LOCKED` on PostgreSQL; SQLite's
 * BEGIN IMMEDIATE serialises the claims.
 */
async function dueDocument(db: Pick<SqlDatabase, 'query'>, now: number, size: SealJobSizeLimit | undefined): Promise<string | undefined> {
  let query = db.query
    .selectFrom('seal_jobs as j')
    .innerJoin('documents as d', 'd.id', 'j.document_id')
    .select('j.document_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('j.status', '=', 'pending'), eb('j.run_at', '<=', now)]),
        eb.and([eb('j.status', '=', 'running'), eb('j.lease_until', '<', now)]),
      ]),
    );
  if (size) {
    // Weights as floating point on both engines (PostgreSQL would otherwise take the parameters for integers).
    const cost = sql<number>`d.page_count * CAST(${size.perPage} AS DOUBLE PRECISION) + d.file_size * CAST(${size.perByte} AS DOUBLE PRECISION)`;
    query = query.where(cost, '<=', sql<number>`CAST(${size.max} AS DOUBLE PRECISION)`);
  }
  const row = await query
    .orderBy((eb) =>
      eb
        .selectFrom('seal_jobs as r')
        .innerJoin('documents as o', 'o.id', 'r.document_id')
        .select((inner) => inner.fn.countAll().as('running'))
        .where('r.status', '=', 'running')
        .where('r.lease_until', '>=', now)
        .whereRef('o.organization_id', '=', 'd.organization_id'),
    )
    .orderBy('j.run_at')
    .orderBy('j.document_id')
    .limit(1)
    .forUpdate('j')
    .skipLocked()
    .executeTakeFirst();
  return row?.document_id;
}

/**
 * The queue of `seal_jobs`. `lanes` names the claims' size conditions (`smallDocumentSize`); a lane not named takes
 * any document.
 */
export function sealQueue(options: { lanes?: Record<string, SealJobSizeLimit> } = {}): JobQueue<ClaimedSeal> {
  return {
    async claim(db, { owner, now, leaseMs, limit, lane }) {
      const at = now.getTime();
      const size = lane === undefined ? undefined : options.lanes?.[lane];
      return db.transaction(async (tx) => {
        const claimed: ClaimedSeal[] = [];
        while (claimed.length < limit) {
          const documentId = await dueDocument(tx, at, size);
          if (!documentId) break;
          await tx.query
            .updateTable('seal_jobs')
            .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), lease_owner: owner, lease_until: at + leaseMs, run_at: at, updated_at: at }))
            .where('document_id', '=', documentId)
            .execute();
          const row = await tx.query.selectFrom('seal_jobs').selectAll().where('document_id', '=', documentId).executeTakeFirstOrThrow();
          claimed.push({ id: documentId, ...toSealJob(row) });
        }
        return claimed;
      });
    },
    renew: (db, owner, ids, until) => renewLeases(db, TABLE, owner, ids, until),
    release: (db, owner, ids, at) => releaseLeases(db, TABLE, owner, ids, at),
    counts: (db) => countStates(db, 'seal_jobs', STATE),
    async settle(tx, owner, job, settlement: Settlement) {
      const result = await tx.query
        .updateTable('seal_jobs')
        .set(settledColumns(settlement, STATUS[settlement.state]))
        .where('document_id', '=', job.id)
        .where('status', '=', 'running')
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async nextDue(db) {
      const row = await db.query.selectFrom('seal_jobs').select('run_at').where('status', '=', 'pending').orderBy('run_at').limit(1).executeTakeFirst();
      return row ? Number(row.run_at) : null;
    },
    async list(db, { state, limit }) {
      const jobs = await listSealJobs(db.query, { ...(state ? { status: STATUS[state] } : {}), limit });
      return jobs.map((job) => ({ kind: 'seal', id: job.documentId, state: STATE[job.status], ...job }));
    },
    retry: (db, id, now) => retrySealJob(db.query, id, now),
    owns: (id) => id.startsWith('doc_'),
  };
}
