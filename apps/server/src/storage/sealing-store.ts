import { writeChunks } from './chunks.js';
import { enqueueDocumentEvent } from './webhook-store.js';
import { toMillis } from './schema.js';
import { recordAuditEvent } from './queries/audit.js';
import {
  SEALED_DOCUMENT_COLUMNS,
  SEAL_JOB_COLUMNS,
  toSealJob,
  toSealedDocument,
  type SealJobRow,
  type SealedDocumentRow,
} from './sealing-rows.js';
import type { Queryable, SqlDatabase } from './sql-database.js';
import type { SealJob, SealJobSizeLimit, SealJobStatus, SealState, SealedDocument } from './types.js';

/*
 * The sealing half of `SqlStorage` (its `Storage` methods delegate here): the seal jobs' outbox and the sealed
 * files, on both engines.
 */

/**
 * A due job, fairly: first of the organizations with the fewest seals running now (so one organization's backlog,
 * or one document's retries, never keep another's seals waiting), then the longest due. `size` is the lane's
 * condition on the document's size (`AND …`, or nothing).
 */
const dueJob = (size: string) => `SELECT j.document_id FROM seal_jobs j JOIN documents d ON d.id = j.document_id
  WHERE ((j.status = 'pending' AND j.run_at <= ?) OR (j.status = 'running' AND j.lease_until < ?))${size}
  ORDER BY (SELECT COUNT(*) FROM seal_jobs r JOIN documents o ON o.id = r.document_id
      WHERE r.status = 'running' AND r.lease_until >= ? AND o.organization_id = d.organization_id),
    j.run_at, j.document_id
  LIMIT 1 FOR UPDATE OF j SKIP LOCKED`;
const DUE_JOB = dueJob('');
// Weights as floating point on both engines (PostgreSQL would otherwise take the parameters for integers).
const DUE_SMALL_JOB = dueJob(
  ' AND d.page_count * CAST(? AS DOUBLE PRECISION) + d.file_size * CAST(? AS DOUBLE PRECISION) <= CAST(? AS DOUBLE PRECISION)',
);
const JOB_BY_DOCUMENT = `SELECT ${SEAL_JOB_COLUMNS} FROM seal_jobs WHERE document_id = ?`;
const SEALED_BY_DOCUMENT = `SELECT ${SEALED_DOCUMENT_COLUMNS} FROM sealed_documents WHERE document_id = ?`;

/** Enqueues the seal of a just-completed document, in the transaction that completed it. */
export async function enqueueSealJob(tx: Queryable, documentId: string, submissionId: string, at: string): Promise<void> {
  const ms = toMillis(at);
  await tx.run(
    `INSERT INTO seal_jobs (document_id, submission_id, status, attempts, run_at, created_at, updated_at)
     VALUES (?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT DO NOTHING`,
    [documentId, submissionId, ms, ms, ms],
  );
}

export async function claimSealJob(
  db: SqlDatabase,
  owner: string,
  options: { now: Date; leaseMs: number; size?: SealJobSizeLimit },
): Promise<SealJob | null> {
  const now = options.now.getTime();
  const { size } = options;
  return db.transaction(async (tx) => {
    const due = size
      ? await tx.get<{ document_id: string }>(DUE_SMALL_JOB, [now, now, size.perPage, size.perByte, size.max, now])
      : await tx.get<{ document_id: string }>(DUE_JOB, [now, now, now]);
    if (!due) return null;
    await tx.run(
      `UPDATE seal_jobs SET status = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?, run_at = ?,
         updated_at = ?
       WHERE document_id = ?`,
      [owner, now + options.leaseMs, now, now, due.document_id],
    );
    return toSealJob((await tx.get<SealJobRow>(JOB_BY_DOCUMENT, [due.document_id]))!);
  });
}

export async function renewSealLease(db: SqlDatabase, owner: string, documentId: string, until: Date): Promise<boolean> {
  const changed = await db.run(
    `UPDATE seal_jobs SET lease_until = ? WHERE document_id = ? AND status = 'running' AND lease_owner = ?`,
    [until.getTime(), documentId, owner],
  );
  return changed === 1;
}

export async function completeSealJob(
  db: SqlDatabase,
  owner: string,
  sealed: SealedDocument,
  content: Uint8Array,
  signedDocumentUrl: string,
): Promise<{ stored: boolean; webhooks: number }> {
  if (sealed.fileSize !== content.length) {
    throw new Error(`Sealed ${sealed.documentId}: fileSize ${sealed.fileSize} differs from its ${content.length} bytes`);
  }
  const at = toMillis(sealed.sealedAt);
  return db.transaction(async (tx) => {
    const taken = await tx.run(
      `UPDATE seal_jobs SET status = 'sealed', lease_owner = NULL, lease_until = NULL, last_error = NULL, updated_at = ?
       WHERE document_id = ? AND status = 'running' AND lease_owner = ?`,
      [Date.now(), sealed.documentId, owner],
    );
    if (taken !== 1) return { stored: false, webhooks: 0 };
    await tx.run(`INSERT INTO sealed_documents (${SEALED_DOCUMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?)`, [
      sealed.documentId,
      sealed.submissionId,
      sealed.sha256,
      sealed.fileSize,
      at,
    ]);
    await writeChunks(tx.query, 'sealed_chunks', sealed.documentId, content);
    await recordAuditEvent(tx.query, sealed.documentId, { type: 'document.sealed', occurredAt: sealed.sealedAt });
    const webhooks = await enqueueDocumentEvent(tx, sealed.documentId, {
      type: 'document.sealed',
      occurredAt: sealed.sealedAt,
      data: {
        documentId: sealed.documentId,
        submissionId: sealed.submissionId,
        sha256: sealed.sha256,
        signedDocumentUrl,
        sealedAt: sealed.sealedAt,
      },
    });
    return { stored: true, webhooks };
  });
}

export async function failSealJob(
  db: SqlDatabase,
  owner: string,
  documentId: string,
  options: { error: string; retryAt: Date | null; now: Date },
): Promise<{ recorded: boolean; webhooks: number }> {
  const { error, retryAt, now } = options;
  return db.transaction(async (tx) => {
    const changed = await tx.run(
      `UPDATE seal_jobs SET status = ?, run_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?
       WHERE document_id = ? AND status = 'running' AND lease_owner = ?`,
      [retryAt ? 'pending' : 'failed', (retryAt ?? now).getTime(), error, now.getTime(), documentId, owner],
    );
    if (changed !== 1 || retryAt) return { recorded: changed === 1, webhooks: 0 };
    // Given up: the host hears of it (`document.sealing_failed`), in the same transaction.
    const job = toSealJob((await tx.get<SealJobRow>(JOB_BY_DOCUMENT, [documentId]))!);
    const webhooks = await enqueueDocumentEvent(tx, documentId, {
      type: 'document.sealing_failed',
      occurredAt: now.toISOString(),
      data: { documentId, submissionId: job.submissionId, error, attempts: job.attempts, failedAt: now.toISOString() },
    });
    return { recorded: true, webhooks };
  });
}

export async function retrySealJob(db: SqlDatabase, documentId: string, now: Date): Promise<boolean> {
  const changed = await db.run(
    `UPDATE seal_jobs SET status = 'pending', attempts = 0, run_at = ?, updated_at = ?
     WHERE document_id = ? AND status IN ('pending', 'failed')`,
    [now.getTime(), now.getTime(), documentId],
  );
  return changed === 1;
}

export async function listSealJobs(db: SqlDatabase, options: { status?: SealJobStatus; limit: number }): Promise<SealJob[]> {
  const rows = options.status
    ? await db.all<SealJobRow>(
        `SELECT ${SEAL_JOB_COLUMNS} FROM seal_jobs WHERE status = ? ORDER BY created_at DESC, document_id DESC LIMIT ?`,
        [options.status, options.limit],
      )
    : await db.all<SealJobRow>(
        `SELECT ${SEAL_JOB_COLUMNS} FROM seal_jobs ORDER BY created_at DESC, document_id DESC LIMIT ?`,
        [options.limit],
      );
  return rows.map(toSealJob);
}

export async function nextSealJobDue(db: SqlDatabase): Promise<string | null> {
  const row = await db.get<{ run_at: number | string }>(
    "SELECT run_at FROM seal_jobs WHERE status = 'pending' ORDER BY run_at LIMIT 1",
  );
  return row ? new Date(Number(row.run_at)).toISOString() : null;
}

export async function getSealState(db: SqlDatabase, documentId: string): Promise<SealState> {
  const [job, sealed] = await Promise.all([
    db.get<SealJobRow>(JOB_BY_DOCUMENT, [documentId]),
    db.get<SealedDocumentRow>(SEALED_BY_DOCUMENT, [documentId]),
  ]);
  return { job: job ? toSealJob(job) : null, sealed: sealed ? toSealedDocument(sealed) : null };
}

export async function findSealedBySha256(db: SqlDatabase, sha256: string): Promise<SealedDocument[]> {
  const rows = await db.all<SealedDocumentRow>(
    `SELECT ${SEALED_DOCUMENT_COLUMNS} FROM sealed_documents WHERE sha256 = ? ORDER BY document_id`,
    [sha256],
  );
  return rows.map(toSealedDocument);
}
