import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import { toIso, toMillis } from '../schema.js';

/*
 * Bulk jobs (docs/templates.md, "Bulk"): the job, its rows with their results, and the row keys that made a
 * document of a template. Storage stores; `templates/bulk/` decides.
 */

export type BulkJobStatus = Tables['bulk_jobs']['status'];
export type BulkRowStatus = Tables['bulk_job_rows']['status'];

/** A bulk job as stored. */
export interface BulkJobRecord {
  id: string;
  organizationId: string;
  templateId: string;
  templateVersion: number;
  apiKeyId: string;
  sessions: { expiresInSeconds?: number; origins?: string[] } | null;
  status: BulkJobStatus;
  total: number;
  created: number;
  failed: number;
  createdAt: string;
  completedAt: string | null;
}

/** A row of a bulk job as stored: its request (JSON), result and sealed session keys. */
export interface BulkRowRecord {
  index: number;
  key: string;
  request: string;
  status: BulkRowStatus;
  documentId: string | null;
  error: { field: string; reason: string } | null;
  sessions: Uint8Array | null;
}

/** How a row ended, as the job records it. */
export type BulkRowOutcome =
  | { index: number; status: 'created'; documentId: string; sessions: Uint8Array | null }
  | { index: number; status: 'failed'; error: { field: string; reason: string } };

function toJob(row: Tables['bulk_jobs']): BulkJobRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    templateId: row.template_id,
    templateVersion: Number(row.template_version),
    apiKeyId: row.api_key_id,
    sessions: row.sessions === null ? null : (JSON.parse(row.sessions) as BulkJobRecord['sessions']),
    status: row.status,
    total: Number(row.total),
    created: Number(row.created),
    failed: Number(row.failed),
    createdAt: toIso(row.created_at),
    completedAt: row.completed_at === null ? null : toIso(row.completed_at),
  };
}

function toRow(row: Tables['bulk_job_rows']): BulkRowRecord {
  return {
    index: Number(row.idx),
    key: row.row_key,
    request: row.request,
    status: row.status,
    documentId: row.document_id,
    error: row.error_field === null ? null : { field: row.error_field, reason: row.error_reason ?? '' },
    sessions: row.sessions,
  };
}

/** Rows written per statement: far below SQLite's limit of bound parameters. */
const INSERT_CHUNK = 500;

/** Stores a new job and its rows (each pending), in the caller's transaction. */
export async function insertBulkJob(db: Db, job: BulkJobRecord, rows: ReadonlyArray<{ key: string; request: string }>): Promise<void> {
  await db
    .insertInto('bulk_jobs')
    .values({
      id: job.id,
      organization_id: job.organizationId,
      template_id: job.templateId,
      template_version: job.templateVersion,
      api_key_id: job.apiKeyId,
      sessions: job.sessions === null ? null : JSON.stringify(job.sessions),
      status: job.status,
      total: job.total,
      created: 0,
      failed: 0,
      created_at: toMillis(job.createdAt),
      completed_at: null,
    })
    .execute();
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await db
      .insertInto('bulk_job_rows')
      .values(
        rows.slice(start, start + INSERT_CHUNK).map((row, offset) => ({
          bulk_job_id: job.id,
          idx: start + offset,
          row_key: row.key,
          request: row.request,
          status: 'pending' as const,
          document_id: null,
          error_field: null,
          error_reason: null,
          sessions: null,
        })),
      )
      .execute();
  }
}

/** The job `id` of `organizationId` (any other organization's is none). */
export async function findBulkJob(db: Db, organizationId: string, id: string): Promise<BulkJobRecord | null> {
  const row = await db.selectFrom('bulk_jobs').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return row ? toJob(row) : null;
}

/** The job `id`, whatever its organization (the job runner's). */
export async function findBulkJobById(db: Db, id: string): Promise<BulkJobRecord | null> {
  const row = await db.selectFrom('bulk_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toJob(row) : null;
}

/** Up to `limit` rows after `afterIndex` (exclusive; -1 for the first), in the request's order; `lock`: until the transaction ends. */
export async function listBulkRows(
  db: Db,
  jobId: string,
  options: { afterIndex: number; limit: number; status?: BulkRowStatus; lock?: boolean },
): Promise<BulkRowRecord[]> {
  let query = db.selectFrom('bulk_job_rows').selectAll().where('bulk_job_id', '=', jobId).where('idx', '>', options.afterIndex);
  if (options.status) query = query.where('status', '=', options.status);
  if (options.lock) query = query.forUpdate();
  const rows = await query.orderBy('idx').limit(options.limit).execute();
  return rows.map(toRow);
}

/** Forgets the sealed session keys of rows `indexes` (given out once); resolves with the rows that still had them. */
export async function clearRowSessions(db: Db, jobId: string, indexes: readonly number[]): Promise<number> {
  if (indexes.length === 0) return 0;
  const result = await db
    .updateTable('bulk_job_rows')
    .set({ sessions: null })
    .where('bulk_job_id', '=', jobId)
    .where('idx', 'in', [...indexes])
    .where('sessions', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The documents the row keys `keys` already made of the template, by key. */
export async function findRowKeyDocuments(db: Db, organizationId: string, templateId: string, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('bulk_row_keys')
    .select(['row_key', 'document_id'])
    .where('organization_id', '=', organizationId)
    .where('template_id', '=', templateId)
    .where('row_key', 'in', [...keys])
    .execute();
  return new Map(rows.map((row) => [row.row_key, row.document_id]));
}

/** Records that `key` made `documentId` of the template; false when the key had made one already. */
export async function claimRowKey(db: Db, organizationId: string, templateId: string, key: string, documentId: string): Promise<boolean> {
  const result = await db
    .insertInto('bulk_row_keys')
    .values({ organization_id: organizationId, template_id: templateId, row_key: key, document_id: documentId })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Records how rows ended (only rows still pending) and adds them to the job's counts, in the caller's transaction. */
export async function settleBulkRows(db: Db, jobId: string, outcomes: readonly BulkRowOutcome[]): Promise<void> {
  let [created, failed] = [0, 0];
  for (const outcome of outcomes) {
    const result = await db
      .updateTable('bulk_job_rows')
      .set(
        outcome.status === 'created'
          ? { status: 'created', document_id: outcome.documentId, sessions: outcome.sessions }
          : { status: 'failed', error_field: outcome.error.field, error_reason: outcome.error.reason },
      )
      .where('bulk_job_id', '=', jobId)
      .where('idx', '=', outcome.index)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      if (outcome.status === 'created') created += 1;
      else failed += 1;
    }
  }
  if (created + failed === 0) return;
  await db
    .updateTable('bulk_jobs')
    .set((eb) => ({ created: eb('created', '+', created), failed: eb('failed', '+', failed) }))
    .where('id', '=', jobId)
    .execute();
}

/** Marks a pending job running. */
export async function markBulkJobRunning(db: Db, jobId: string): Promise<void> {
  await db.updateTable('bulk_jobs').set({ status: 'running' }).where('id', '=', jobId).where('status', '=', 'pending').execute();
}

/** Marks the job completed at `at`; resolves with it, or null when it was completed already. */
export async function completeBulkJob(db: Db, jobId: string, at: Date): Promise<BulkJobRecord | null> {
  const result = await db
    .updateTable('bulk_jobs')
    .set({ status: 'completed', completed_at: at.getTime() })
    .where('id', '=', jobId)
    .where('status', '!=', 'completed')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  return findBulkJobById(db, jobId);
}
