import type { Logger } from '../../logger.js';
import { JobRunner } from '../../jobs/runner.js';
import { findBulkJobById, type BulkJobRecord } from '../../storage/queries/bulk-jobs.js';
import type { Storage } from '../../storage/types.js';
import { bulkJobKind } from './bulk-kind.js';

export { CLI_STARTER } from './bulk-kind.js';

/**
 * Runs bulk jobs in this process until the job `id` is completed (`signet templates bulk` without `--no-wait`): a
 * runner of its own takes whatever bulk job is due, under the same leases as a server's, so a server running beside it
 * may take the job instead; then this waits for its end.
 */
export async function runBulkJobHere(storage: Storage, options: { id: string; secret: string; logger: Logger; pollMs?: number }): Promise<BulkJobRecord> {
  const runner = new JobRunner({ db: storage.db, logger: options.logger }).register(bulkJobKind({ secret: options.secret }));
  for (;;) {
    const job = await findBulkJobById(storage.db.query, options.id);
    if (!job) throw new Error(`no bulk job ${options.id}`);
    if (job.status === 'completed') return job;
    if (!(await runner.runOnce('bulk'))) await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 500));
  }
}
