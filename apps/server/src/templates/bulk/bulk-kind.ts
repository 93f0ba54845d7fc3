import { protectAccessCodes } from '../../signer-auth/codes.js';
import { SESSION_TTL_SECONDS, type BulkRowResult, type CreateTemplateDocumentRequest } from '@signet/contract';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { newId } from '../../ids.js';
import { defineJobKind, NonRetryable } from '../../jobs/generic-queue.js';
import { generateApiKey } from '../../keys.js';
import { DEFAULT_RATE_LIMIT, DEFAULT_SCOPES } from '../../documents/seed.js';
import { insertNewDocument, newDocumentRecord } from '../../documents/create-document.js';
import { insertApiKey } from '../../storage/queries/api-keys.js';
import {
  claimRowKey,
  completeBulkJob,
  findBulkJobById,
  findRowKeyDocuments,
  listBulkRows,
  markBulkJobRunning,
  settleBulkRows,
  type BulkJobRecord,
  type BulkRowOutcome,
  type BulkRowRecord,
} from '../../storage/queries/bulk-jobs.js';
import { insertDocumentPreview } from '../../storage/queries/document-files.js';
import { findTemplate, findTemplatePreview, readTemplateContent } from '../../storage/queries/templates.js';
import { enqueueWebhookEvent } from '../../storage/queries/webhook-deliveries.js';
import type { Queryable } from '../../storage/sql-database.js';
import type { DocumentPreview, DocumentRecord, TemplateRecord } from '../../storage/types.js';
import { webhookEventsEnqueued } from '../../webhooks/wake.js';
import { secretBox, type SecretBox } from '../../secret-box.js';
import { prepareTemplateDocument } from '../template-documents.js';
import { jobsEnqueued } from '../../jobs/wake.js';
import { INVITATION_KIND } from '../../mail/delivery.js';

/*
 * The `bulk` job kind (docs/templates.md, "Bulk"): one job a bulk request, keyed by its id. It reads the template's
 * PDF once, then makes the pending rows in batches, each batch in one transaction with its documents, session keys,
 * row results and row keys: a job taken over after a crash finds the rows done as done, and a row key that made a
 * document (in this job or an earlier one) never makes a second. The transaction that records the job's end marks
 * it completed and enqueues `bulk.completed`.
 */

const BulkPayloadSchema = z.object({ bulkJobId: z.string() });

/**
 * Rows a transaction makes, and while the process answers requests, which come first (docs/decisions.md, "Bulk
 * creation"): smaller batches, each followed by a pause of three times the event loop's busy time during it (at least
 * `BUSY_PAUSE_MS`), so that the requests get three quarters of it even where a transaction holds the event loop
 * (SQLite's statements are synchronous), while PostgreSQL's, which only wait for I/O, pause little.
 */
const BATCH = 50;
const BUSY_BATCH = 5;
const BUSY_PAUSE_MS = 20;
const BUSY_SHARE = 3;

/** `api_key_id` of a job started from the command line: no API key reads its rows' session keys, so none are made. */
export const CLI_STARTER = 'cli';

/** What `enqueueJob` needs of the kind: its name and payload schema (the handler needs the server's secret). */
export const bulkJob = { name: 'bulk', payloadSchema: BulkPayloadSchema } as const;

/** The secret box of a bulk row's session keys: a key of their own, derived from the server's secret. */
export const bulkSessionBox = (secret: string): SecretBox => secretBox(secret, 'signet bulk session keys');

type Prepared = { row: BulkRowRecord; document: DocumentRecord } | { row: BulkRowRecord; error: { field: string; reason: string } };

/** Each row made ready to store, or the error `POST /templates/{templateId}/documents` would have answered for it. */
function prepareRows(template: TemplateRecord | null, job: BulkJobRecord, rows: BulkRowRecord[], now: Date): Prepared[] {
  return rows.map((row) => {
    if (!template) return { row, error: { field: 'templateId', reason: 'the template was deleted before this row was made' } };
    if (template.version !== job.templateVersion) {
      return { row, error: { field: 'templateVersion', reason: `the template changed to version ${template.version} before this row was made` } };
    }
    const { key: _key, ...request } = JSON.parse(row.request) as CreateTemplateDocumentRequest & { key: string };
    try {
      return { row, document: newDocumentRecord(prepareTemplateDocument(template, request, now)) };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const field = typeof error.details?.field === 'string' ? error.details.field : 'row';
      const reason = typeof error.details?.reason === 'string' ? error.details.reason : error.message;
      return { row, error: { field, reason } };
    }
  });
}

/** One `pk_` session key per signer of `document` (as `POST /documents/{id}/sessions` makes them), sealed together. */
async function mintSessions(tx: Queryable, job: BulkJobRecord, document: DocumentRecord, now: Date, box: SecretBox): Promise<Uint8Array> {
  const seconds = job.sessions?.expiresInSeconds ?? SESSION_TTL_SECONDS.default;
  const origins = job.sessions?.origins ?? [];
  const signerIds: Array<string | undefined> = document.implicitSigner ? [undefined] : document.signers.map((signer) => signer.id);
  const sessions: NonNullable<BulkRowResult['sessions']> = [];
  for (const signerId of signerIds) {
    const { secret, hash, prefix } = generateApiKey('pk');
    const id = newId('key');
    await insertApiKey(tx.query, {
      id,
      organizationId: job.organizationId,
      kind: 'pk',
      hash,
      displayPrefix: prefix,
      scopes: DEFAULT_SCOPES.pk,
      expiresAt: new Date(now.getTime() + seconds * 1000).toISOString(),
      revokedAt: null,
      allowedOrigins: origins,
      rateLimit: DEFAULT_RATE_LIMIT,
      createdAt: now.toISOString(),
      documentId: document.id,
      signerId: signerId ?? null,
    });
    sessions.push({ id, ...(signerId === undefined ? {} : { signerId }), key: secret });
  }
  return box.seal(new TextEncoder().encode(JSON.stringify(sessions)));
}

/**
 * Stores a batch in the caller's transaction: each prepared row's document (with the template's preview and its
 * session keys) unless its key made one already, each row's result and the job's counts. Resolves with the webhook
 * events enqueued, for the caller to announce after its commit.
 */
async function storeBatch(
  tx: Queryable,
  batch: {
    job: BulkJobRecord;
    prepared: Prepared[];
    earlier: Map<string, string>;
    bytes: Uint8Array;
    preview: DocumentPreview | null;
    now: Date;
    box: SecretBox;
  },
): Promise<number> {
  const { job, now } = batch;
  let events = 0;
  const outcomes: BulkRowOutcome[] = [];
  for (const item of batch.prepared) {
    const index = item.row.index;
    if ('error' in item) {
      outcomes.push({ index, status: 'failed', error: item.error });
      continue;
    }
    const { document, row } = item;
    const made = batch.earlier.get(row.key);
    if (made !== undefined || !(await claimRowKey(tx.query, job.organizationId, job.templateId, row.key, document.id))) {
      // The key made a document already (in an earlier job, or a runner racing this one): that one is this row's.
      const documentId = made ?? (await findRowKeyDocuments(tx.query, job.organizationId, job.templateId, [row.key])).get(row.key)!;
      outcomes.push({ index, status: 'created', documentId, sessions: null });
      continue;
    }
    events += await insertNewDocument(tx, document, batch.bytes);
    if (batch.preview) await insertDocumentPreview(tx.query, document.id, batch.preview);
    // A draft cannot be opened for signing yet; a job of the command line has no key to give session keys to.
    const sessions = document.status === 'draft' || job.apiKeyId === CLI_STARTER ? null : await mintSessions(tx, job, document, now, batch.box);
    outcomes.push({ index, status: 'created', documentId: document.id, sessions });
  }
  await settleBulkRows(tx.query, job.id, outcomes);
  return events;
}

/**
 * The `bulk` job kind, with the server's `secret` (the session keys' box) and what says the process is busy
 * answering requests (smaller batches, a pause after each).
 */
export function bulkJobKind(options: { secret: string; busy?: () => boolean }) {
  const box = bulkSessionBox(options.secret);
  return defineJobKind({
    name: bulkJob.name,
    schema: BulkPayloadSchema,
    options: {
      leaseMs: 60_000,
      pollMs: 5_000,
      concurrency: 1,
      // 10,000 rows outlast a minute; a runner that dies leaves the rows not done to the next.
      renewLeases: true,
      backoff: { kind: 'exponential', baseMs: 1000, maxMs: 600_000, maxAttempts: 10, jitter: 0.1 },
    },
    async handler(claimed, context) {
      const { db } = context;
      const job = await findBulkJobById(db.query, claimed.payload.bulkJobId);
      if (!job) throw new NonRetryable(`no bulk job ${claimed.payload.bulkJobId}`);
      if (job.status === 'completed') return;
      await markBulkJobRunning(db.query, job.id);
      const template = await findTemplate(db.query, job.organizationId, job.templateId);
      const usable = template && template.version === job.templateVersion ? template : null;
      const bytes = usable ? await readTemplateContent(db.query, usable.id, 0, usable.fileSize - 1) : new Uint8Array();
      const preview = usable ? await findTemplatePreview(db.query, usable.id) : null;
      let after = -1;
      for (;;) {
        const busy = options.busy?.() ?? false;
        const began = performance.eventLoopUtilization();
        const rows = await listBulkRows(db.query, job.id, { afterIndex: after, limit: busy ? BUSY_BATCH : BATCH, status: 'pending' });
        if (rows.length === 0) break;
        after = rows.at(-1)!.index;
        const now = context.now();
        const prepared = prepareRows(template, job, rows, now);
        // Access codes are hashed (scrypt, on the thread pool) before the batch's transaction, never inside it.
        for (const item of prepared) if ('document' in item) item.document.signers = await protectAccessCodes(item.document.signers);
        const keys = prepared.flatMap((item) => ('document' in item ? [item.row.key] : []));
        const earlier = await findRowKeyDocuments(db.query, job.organizationId, job.templateId, keys);
        const enqueued = await db.transaction((tx) => storeBatch(tx, { job, prepared, earlier, bytes, preview, now, box }));
        webhookEventsEnqueued(db, enqueued);
        // Rows delivered by e-mail enqueued their first signers' invitations (mail/delivery.ts): sent now, not at the
        // kind's next poll.
        if (prepared.some((item) => 'document' in item && item.document.delivery)) jobsEnqueued(db, INVITATION_KIND.name);
        // Requests first: a pause while the process is busy, else a turn of the event loop for the answers under way.
        const pause = Math.max(BUSY_PAUSE_MS, BUSY_SHARE * performance.eventLoopUtilization(began).active);
        await new Promise((resolve) => (busy ? setTimeout(resolve, pause) : setImmediate(resolve)));
      }
      return {
        effects: async (tx) => {
          const done = await completeBulkJob(tx.query, job.id, context.now());
          if (!done) return;
          const sent = await enqueueWebhookEvent(tx.query, {
            type: 'bulk.completed',
            organizationId: done.organizationId,
            documentId: null,
            occurredAt: done.completedAt!,
            data: { bulkJobId: done.id, templateId: done.templateId, total: done.total, created: done.created, failed: done.failed },
          });
          return sent > 0 ? { wake: ['webhook'] } : undefined;
        },
      };
    },
  });
}
