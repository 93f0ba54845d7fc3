import type { Context } from 'hono';
import { PAGE_LIMIT, endpoints } from '@signet/contract';
import type { AppEnv } from '../http/env.js';
import { ApiError, validationError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import { responseMeta, sendEnvelope } from '../http/envelope.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { requestHeader } from '../http/request-header.js';
import { clearRowSessions, findBulkJob, listBulkRows } from '../storage/queries/bulk-jobs.js';
import { bulkSessionBox, presentBulkJob, presentBulkRow, startBulkJob, type BulkBody } from '../templates/bulk/bulk-jobs.js';
import { handler, type EndpointHandlers } from './serve.js';

/*
 * Bulk creation from a template (docs/templates.md, "Bulk"): `POST /templates/{templateId}/bulk` starts a job;
 * `GET /bulk-jobs/{bulkJobId}` and its `rows` follow it.
 */

const bulkJobNotFound = (id: string) => new ApiError('NOT_FOUND', `No bulk job ${id}`, { details: { field: 'bulkJobId' } });

/** A bulk request's body: JSON or CSV, by its `Content-Type` (415 for anything else). */
async function readBulkBody(c: Context<AppEnv>): Promise<BulkBody> {
  const declared = requestHeader(c, 'content-type') ?? '';
  const mediaType = declared.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType === 'application/json') return { json: await readJsonObject(c) };
  if (mediaType === 'text/csv') {
    const csv = await c.req.text();
    // Stored as text: PostgreSQL refuses a NUL, SQLite would cut the string there.
    if (csv.includes('\u0000')) throw validationError('body', 'must not contain the character U+0000 (NUL)');
    return { csv };
  }
  const reason = `${mediaType || 'a missing type'} is not accepted; send application/json or text/csv`;
  throw new ApiError('VALIDATION_ERROR', `Unsupported Content-Type: ${reason}`, { status: 415, details: { field: 'Content-Type', reason } });
}

/** The rows' cursor: the index of the last row of the page. */
function decodeRowCursor(cursor: string | undefined): number {
  if (cursor === undefined) return -1;
  if (!/^\d{1,6}$/.test(cursor)) throw validationError('cursor', 'must be the `pagination.cursor` of the previous page');
  return Number(cursor);
}

/** Rows asking for delivery by e-mail on a server that sends none: 422 naming the first (docs/email.md). */
function refuseEmailDelivery(body: BulkBody): void {
  if (!('json' in body) || typeof body.json !== 'object' || body.json === null) return;
  const rows = (body.json as { rows?: unknown }).rows;
  if (!Array.isArray(rows)) return;
  const index = rows.findIndex((row) => (row as { delivery?: unknown } | null)?.delivery === 'email');
  if (index >= 0) throw validationError(`rows[${index}].delivery`, 'this server sends no e-mail: SIGNET_SMTP_URL is not set (docs/email.md)', 422);
}

/** `POST /templates/{templateId}/bulk`, `GET /bulk-jobs/{bulkJobId}` and its rows. */
export function bulkJobHandlers(deps: AppContext): Pick<EndpointHandlers, 'createBulkJob' | 'getBulkJob' | 'listBulkJobRows'> {
  const now = () => (deps.now ? deps.now() : new Date());
  const box = bulkSessionBox(deps.secret);
  return {
    createBulkJob: handler(endpoints.createBulkJob, {
      before: [smallJsonBodyLimit(deps.config.maxBodyBytes)],
      readsItself: ['body'],
      async handle(c, { params }) {
        const key = c.get('apiKey');
        const body = await readBulkBody(c);
        if (!deps.config.mail) refuseEmailDelivery(body);
        const job = await startBulkJob(deps.storage, { organizationId: key.organizationId, apiKeyId: key.id, templateId: params.templateId, body, now: now(), mailConfigured: deps.config.mail !== undefined });
        return sendEnvelope(c, presentBulkJob(job), 202);
      },
    }),

    getBulkJob: handler(endpoints.getBulkJob, {
      async handle(c, { params }) {
        const job = await findBulkJob(deps.storage.db.query, c.get('apiKey').organizationId, params.bulkJobId);
        if (!job) throw bulkJobNotFound(params.bulkJobId);
        return sendEnvelope(c, presentBulkJob(job), 200);
      },
    }),

    listBulkJobRows: handler(endpoints.listBulkJobRows, {
      async handle(c, { params, query }) {
        const key = c.get('apiKey');
        const job = await findBulkJob(deps.storage.db.query, key.organizationId, params.bulkJobId);
        if (!job) throw bulkJobNotFound(params.bulkJobId);
        const limit = query.limit ?? PAGE_LIMIT.default;
        const afterIndex = decodeRowCursor(query.cursor);
        // The session keys are the starting key's, and given out once: read and forgotten in one transaction.
        const starter = key.id === job.apiKeyId;
        const rows = await deps.storage.db.transaction(async (tx) => {
          const found = await listBulkRows(tx.query, job.id, { afterIndex, limit: limit + 1, lock: starter });
          if (starter) await clearRowSessions(tx.query, job.id, found.slice(0, limit).flatMap((row) => (row.sessions ? [row.index] : [])));
          return found;
        });
        const hasMore = rows.length > limit;
        const page = rows.slice(0, limit);
        return c.json(
          {
            success: true as const,
            data: page.map((row) => presentBulkRow(row, starter ? box : undefined)),
            pagination: { cursor: hasMore ? String(page.at(-1)!.index) : null, hasMore, limit },
            meta: responseMeta(c),
          },
          200,
        );
      },
    }),
  };
}
