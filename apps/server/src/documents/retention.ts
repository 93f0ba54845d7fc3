import { z } from 'zod';
import { defineJobKind, enqueueJob } from '../jobs/generic-queue.js';
import type { Queryable, SqlDatabase } from '../storage/sql-database.js';
import { eraseDocumentOnce } from './erase.js';

/*
 * Retention (docs/lifecycle.md, "Retention"): with `RETENTION_DAYS` set, a completed document is erased, as
 * `DELETE /documents/{id}` erases one, once every signer completed it at least that many days ago. The `retention`
 * job runs once an hour: each run erases what is due and enqueues the next hour's run in the transaction that records
 * its own end. A run is keyed by its hour, so instances started in the same hour enqueue it once.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Documents read per query; a run goes on until a query finds fewer. */
const BATCH = 100;
/** `erasedBy` of an erasure the retention job made (an API key's id or `cli` otherwise). */
export const RETENTION_ACTOR = 'retention';

/** The key of the run due in the hour `at` falls in: `2026-11-27T21`. */
export const retentionKey = (at: Date): string => at.toISOString().slice(0, 13);

/** Up to `limit` ids of completed documents not yet erased whose every signer completed at or before `cutoff` (ms). */
async function dueForErasure(db: Queryable, cutoff: number, limit: number): Promise<string[]> {
  const rows = await db.query
    .selectFrom('documents')
    .select('documents.id')
    .where('documents.status', '=', 'completed')
    .where('documents.erased_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('document_signers')
            .select('document_signers.document_id')
            .whereRef('document_signers.document_id', '=', 'documents.id')
            .where((signer) => signer.or([signer('document_signers.completed_at', 'is', null), signer('document_signers.completed_at', '>', cutoff)])),
        ),
      ),
    )
    .orderBy('documents.id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The `retention` job kind for a retention of `days`: erases the completed documents due (`erasedBy: "retention"`,
 * `erasedAt` the run's time) and enqueues the run of the next hour. Register it only where `RETENTION_DAYS` is set;
 * `scheduleRetention` enqueues the first run.
 */
export function retentionJob(days: number) {
  const kind = defineJobKind({
    name: 'retention',
    schema: z.object({}),
    options: {
      leaseMs: 60_000,
      pollMs: 60_000,
      concurrency: 1,
      // A run over many documents outlasts a minute; a runner that dies leaves the rest to the next one.
      renewLeases: true,
      backoff: { kind: 'exponential', baseMs: 10_000, maxMs: HOUR_MS, maxAttempts: 5, jitter: 0.1 },
    },
    async handler(_job, context) {
      const at = context.now();
      const cutoff = at.getTime() - days * DAY_MS;
      let erased = 0;
      for (;;) {
        const due = await dueForErasure(context.db, cutoff, BATCH);
        for (const id of due) {
          // Null: erased meanwhile, by a request or another run.
          if (await eraseDocumentOnce(context.db, id, { at: at.toISOString(), by: RETENTION_ACTOR })) erased += 1;
        }
        if (due.length < BATCH) break;
      }
      if (erased > 0) context.logger.info({ erased, days }, 'retention: erased completed documents');
      const next = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
      return {
        details: { erased },
        effects: async (tx) => {
          await enqueueJob(tx, kind, {}, { key: retentionKey(next), runAt: next });
        },
      };
    },
  });
  return kind;
}

/** Enqueues the run of `now`'s hour, due now (once per hour, whichever instance asks first); true if it did. */
export async function scheduleRetention(db: SqlDatabase, kind: ReturnType<typeof retentionJob>, now: Date): Promise<boolean> {
  return (await enqueueJob(db, kind, {}, { key: retentionKey(now), runAt: now })) !== null;
}
