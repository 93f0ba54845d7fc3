import {
  CreateBulkJobRequestSchema,
  type BulkJob,
  type BulkRow,
  type BulkRowResult,
  type CreateBulkJobRequest,
} from '@signet/contract';
import { ApiError, validationError } from '../../errors.js';
import { issueDetails } from '../../http/validation.js';
import { newId } from '../../ids.js';
import { enqueueJob } from '../../jobs/generic-queue.js';
import type { SecretBox } from '../../secret-box.js';
import { findTemplate } from '../../storage/queries/templates.js';
import { insertBulkJob, type BulkJobRecord, type BulkRowRecord } from '../../storage/queries/bulk-jobs.js';
import type { Storage, TemplateRecord } from '../../storage/types.js';
import { prepareTemplateDocument } from '../template-documents.js';
import { templateNotFound } from '../templates.js';
import { bulkJob } from './bulk-kind.js';
export { bulkSessionBox } from './bulk-kind.js';
import { csvRows } from './csv-rows.js';
import { jobsEnqueued } from '../../jobs/wake.js';

/*
 * Starting a bulk job and showing it (docs/templates.md, "Bulk"). The request is checked whole before anything is
 * stored; what only its field's rules refuse (a 422 of `POST /templates/{templateId}/documents`) is left for the job,
 * which records it against its row.
 */

/** A request as the route read it: JSON (already parsed) or CSV text. */
export type BulkBody = { json: unknown } | { csv: string };

/** Checks each row as `POST /templates/{templateId}/documents` would; a 400 is the request's, named after `where(i)`. */
function checkRows(template: TemplateRecord, rows: readonly BulkRow[], where: (index: number) => string, now: Date, mailConfigured: boolean): void {
  rows.forEach((row, index) => {
    try {
      const { key: _key, ...request } = row;
      prepareTemplateDocument(template, request, now, { mailConfigured });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) return;
      const field = typeof error.details?.field === 'string' ? error.details.field : '';
      const reason = typeof error.details?.reason === 'string' ? error.details.reason : error.message;
      throw where(index).startsWith('line ') ? validationError(where(index), `${field}: ${reason}`) : validationError(`${where(index)}.${field}`, reason);
    }
  });
}

/**
 * Starts a bulk job of `templateId` for the key `apiKeyId`: checks the whole request (400 naming `rows[i].…` or the CSV
 * line; 404 for no such template), stores the job and its rows with the job that runs them, and wakes this
 * process's runner. Resolves with the job, `pending`.
 * @example const job = await startBulkJob(storage, { organizationId, apiKeyId, templateId, body: { json }, now: new Date(), mailConfigured: true })
 */
export async function startBulkJob(
  storage: Storage,
  input: {
    organizationId: string;
    apiKeyId: string;
    templateId: string;
    body: BulkBody;
    now: Date;
    /** Whether the server sends e-mail: when false, a row's signer with `auth: "email_code"` is a 400. */
    mailConfigured: boolean;
  },
): Promise<BulkJobRecord> {
  const template = await findTemplate(storage.db.query, input.organizationId, input.templateId);
  if (!template) throw templateNotFound(input.templateId);
  let request: CreateBulkJobRequest;
  let where: (index: number) => string;
  if ('json' in input.body) {
    const parsed = CreateBulkJobRequestSchema.safeParse(input.body.json);
    if (!parsed.success) {
      const { field, reason } = issueDetails(parsed.error);
      throw validationError(field, reason);
    }
    request = parsed.data;
    where = (index) => `rows[${index}]`;
  } else {
    const rows = csvRows(template, input.body.csv);
    const lines = rows.map((row) => row.line);
    where = (index) => `line ${lines[index]}`;
    const parsed = CreateBulkJobRequestSchema.safeParse({ rows: rows.map((row) => row.row) });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const [, index] = issue.path;
      const line = typeof index === 'number' ? where(index) : 'body';
      const { field, reason } = issueDetails(parsed.error);
      throw validationError(line, `${field.replace(/^rows\[\d+\]\.?/, '') || 'row'}: ${reason}`);
    }
    request = parsed.data;
  }
  checkRows(template, request.rows, where, input.now, input.mailConfigured);
  const job: BulkJobRecord = {
    id: newId('blk'),
    organizationId: input.organizationId,
    templateId: template.id,
    templateVersion: template.version,
    apiKeyId: input.apiKeyId,
    sessions: request.sessions ?? null,
    status: 'pending',
    total: request.rows.length,
    created: 0,
    failed: 0,
    createdAt: input.now.toISOString(),
    completedAt: null,
  };
  await storage.db.transaction(async (tx) => {
    await insertBulkJob(tx.query, job, request.rows.map((row) => ({ key: row.key, request: JSON.stringify(row) })));
    await enqueueJob(tx, bulkJob, { bulkJobId: job.id }, { key: job.id });
  });
  jobsEnqueued(storage.db, 'bulk');
  return job;
}

/** A bulk job as the API shows it. */
export function presentBulkJob(job: BulkJobRecord): BulkJob {
  return {
    id: job.id,
    templateId: job.templateId,
    templateVersion: job.templateVersion,
    status: job.status,
    total: job.total,
    created: job.created,
    failed: job.failed,
    createdAt: job.createdAt,
    ...(job.completedAt ? { completedAt: job.completedAt } : {}),
  };
}

/** A row as the API shows it; `box` opens its session keys (given only to the key that started the job). */
export function presentBulkRow(row: BulkRowRecord, box?: SecretBox): BulkRowResult {
  const sessions =
    box && row.sessions ? (JSON.parse(new TextDecoder().decode(box.open(row.sessions))) as NonNullable<BulkRowResult['sessions']>) : undefined;
  return {
    index: row.index,
    key: row.key,
    status: row.status,
    ...(row.documentId ? { documentId: row.documentId } : {}),
    ...(row.error ? { error: row.error } : {}),
    ...(sessions ? { sessions } : {}),
  };
}
