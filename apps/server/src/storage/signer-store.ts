import type { AuditEvent, SignerDefinition } from '@signet/contract';
import { IMPLICIT_SIGNER, SUBMISSION_COLUMNS, submissionValues, toMillis, type SubmissionRow } from './schema.js';
import * as sealing from './sealing-store.js';
import * as webhooks from './webhook-store.js';
import type { Queryable, SqlDatabase } from './sql-database.js';
import type { IdempotencyScope, IsoTime, NewAuditEvent, SessionKeyRecord, SignerState, StoredSubmission } from './types.js';

/*
 * The signers of documents with signers: their states (`document_signers`), their submissions, their
 * audit events (derived from their states), and the session keys bound to a document.
 */

type Millis = number | string;
const iso = (ms: Millis) => new Date(Number(ms)).toISOString();
const isoOrNull = (ms: Millis | null) => (ms === null ? null : iso(ms));

const INSERT_SUBMISSION = `INSERT INTO submissions (${SUBMISSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const COMPLETE_IDEMPOTENCY = `UPDATE idempotency_keys SET status = 'completed', response_status = ?, response_body = ?
  WHERE organization_id = ? AND key = ?`;

interface SignerStateRow {
  signer_id: string;
  opened_at: Millis | null;
  opened_ip: string | null;
  opened_user_agent: string | null;
  completed_at: Millis | null;
  submission_id: string | null;
}

const SIGNER_STATE_COLUMNS = 'signer_id, opened_at, opened_ip, opened_user_agent, completed_at, submission_id';

function toSignerState(row: SignerStateRow): SignerState {
  return {
    signerId: row.signer_id,
    openedAt: isoOrNull(row.opened_at),
    openedIp: row.opened_ip,
    openedUserAgent: row.opened_user_agent,
    completedAt: isoOrNull(row.completed_at),
    submissionId: row.submission_id,
  };
}

/** One state row per signer of a new document, in the transaction that creates it. */
export async function insertSigners(tx: Queryable, documentId: string, signers: readonly SignerDefinition[]): Promise<void> {
  for (const signer of signers) {
    await tx.run('INSERT INTO document_signers (document_id, signer_id) VALUES (?, ?)', [documentId, signer.id]);
  }
}

export async function getSignerStates(db: Queryable, documentId: string): Promise<SignerState[]> {
  const rows = await db.all<SignerStateRow>(`SELECT ${SIGNER_STATE_COLUMNS} FROM document_signers WHERE document_id = ?`, [
    documentId,
  ]);
  return rows.map(toSignerState);
}

/** The first opening of a document by a signer, and its `signer.opened` event; resolves with what it enqueued. */
export async function recordSignerOpened(
  db: SqlDatabase,
  documentId: string,
  signer: { id: string; name: string },
  event: Omit<NewAuditEvent, 'type'>,
): Promise<{ first: boolean; enqueued: number }> {
  return db.transaction(async (tx) => {
    const first = await tx.run(
      `UPDATE document_signers SET opened_at = ?, opened_ip = ?, opened_user_agent = ?
       WHERE document_id = ? AND signer_id = ? AND opened_at IS NULL`,
      [toMillis(event.occurredAt), event.ip ?? null, event.userAgent ?? null, documentId, signer.id],
    );
    if (first !== 1) return { first: false, enqueued: 0 };
    const enqueued = await webhooks.enqueueDocumentEvent(tx, documentId, {
      type: 'signer.opened',
      occurredAt: event.occurredAt,
      data: { documentId, signerId: signer.id, signerName: signer.name, openedAt: event.occurredAt },
    });
    return { first: true, enqueued };
  });
}

export type SignerSubmissionOutcome = 'created' | 'already-submitted' | 'document-completed' | 'document-declined';

/**
 * A signer's submission, in the caller's transaction: the document's row lock first, so that of two signers
 * finishing at once the second sees the first's commit and exactly one completes the document. Stores the
 * submission and the signer's completion (`signer.completed`); with the last signer, completes the document:
 * `document.submitted`, the seal job and `document.completed`, all in this transaction.
 */
export async function recordSignerSubmission(
  tx: Queryable,
  submission: StoredSubmission & { signerId: string },
  idempotency: IdempotencyScope | undefined,
): Promise<{ outcome: SignerSubmissionOutcome; enqueued: number }> {
  const { documentId, signerId, receivedAt } = submission;
  const document = await tx.get<{ status: string; signers: string; organization_id: string; declined_at: unknown }>(
    'SELECT status, signers, organization_id, declined_at FROM documents WHERE id = ? FOR UPDATE',
    [documentId],
  );
  if (!document) throw new Error(`Cannot record a submission: no document ${documentId}`);
  if (document.declined_at !== null) return { outcome: 'document-declined', enqueued: 0 };
  const own = await tx.get('SELECT 1 AS found FROM submissions WHERE document_id = ? AND signer_id = ?', [documentId, signerId]);
  if (own) return { outcome: 'already-submitted', enqueued: 0 };
  if (document.status !== 'pending') return { outcome: 'document-completed', enqueued: 0 };

  const ms = toMillis(receivedAt);
  await tx.run(INSERT_SUBMISSION, submissionValues(submission));
  await tx.run('UPDATE document_signers SET completed_at = ?, submission_id = ? WHERE document_id = ? AND signer_id = ?', [
    ms,
    submission.id,
    documentId,
    signerId,
  ]);
  const states = await tx.all<{ signer_id: string; submission_id: string | null }>(
    'SELECT signer_id, submission_id FROM document_signers WHERE document_id = ?',
    [documentId],
  );
  const remaining = states.filter((state) => state.submission_id === null).length;
  const signers = JSON.parse(document.signers) as SignerDefinition[];
  const name = signers.find((signer) => signer.id === signerId)?.name ?? signerId;
  const organizationId = document.organization_id;
  let enqueued = await webhooks.enqueueWebhookEvent(tx, {
    type: 'signer.completed',
    organizationId,
    documentId,
    occurredAt: receivedAt,
    data: { documentId, signerId, signerName: name, submissionId: submission.id, completedAt: receivedAt, remaining },
  });

  if (remaining === 0) {
    await tx.run("UPDATE documents SET status = 'completed', updated_at = ? WHERE id = ?", [ms, documentId]);
    await sealing.recordAuditEvent(tx, documentId, {
      type: 'document.submitted',
      occurredAt: receivedAt,
      ip: submission.clientIp,
      userAgent: submission.userAgent,
    });
    await sealing.enqueueSealJob(tx, documentId, submission.id, receivedAt);
    const order = new Map(signers.map((signer, index) => [signer.id, index]));
    const bySigner = states
      .map((state) => ({ signerId: state.signer_id, submissionId: state.submission_id! }))
      .sort((a, b) => order.get(a.signerId)! - order.get(b.signerId)!);
    enqueued += await webhooks.enqueueWebhookEvent(tx, {
      type: 'document.completed',
      organizationId,
      documentId,
      occurredAt: receivedAt,
      data: { documentId, submissionId: submission.id, submittedAt: receivedAt, checksum: submission.checksum, signers: bySigner },
    });
  } else {
    await tx.run('UPDATE documents SET updated_at = ? WHERE id = ?', [ms, documentId]);
  }
  if (idempotency) {
    await tx.run(COMPLETE_IDEMPOTENCY, [201, JSON.stringify(submission.result), idempotency.organizationId, idempotency.key]);
  }
  return { outcome: 'created', enqueued };
}

/** A signer's submission (`undefined`: the implicit signer's). */
export function submissionOfSigner(db: Queryable, documentId: string, signerId: string | undefined): Promise<SubmissionRow | undefined> {
  return db.get<SubmissionRow>(`SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE document_id = ? AND signer_id = ?`, [
    documentId,
    signerId ?? IMPLICIT_SIGNER,
  ]);
}

export function submissionsOfDocument(db: Queryable, documentId: string): Promise<SubmissionRow[]> {
  return db.all<SubmissionRow>(`SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE document_id = ? ORDER BY received_at, id`, [
    documentId,
  ]);
}

/** `signer.opened` and `signer.completed` of each signer, from their states and submissions. */
export async function listSignerEvents(db: Queryable, documentId: string): Promise<AuditEvent[]> {
  const document = await db.get<{ signers: string | null }>('SELECT signers FROM documents WHERE id = ?', [documentId]);
  if (!document?.signers) return [];
  const names = new Map((JSON.parse(document.signers) as SignerDefinition[]).map((signer) => [signer.id, signer.name]));
  const rows = await db.all<SignerStateRow & { client_ip: string | null; user_agent: string | null }>(
    `SELECT s.signer_id, s.opened_at, s.opened_ip, s.opened_user_agent, s.completed_at, s.submission_id,
       sub.client_ip, sub.user_agent
     FROM document_signers s LEFT JOIN submissions sub ON sub.id = s.submission_id
     WHERE s.document_id = ?`,
    [documentId],
  );
  const events: AuditEvent[] = [];
  for (const row of rows) {
    const signer = { signerId: row.signer_id, signerName: names.get(row.signer_id) ?? row.signer_id };
    if (row.opened_at !== null) {
      events.push({ type: 'signer.opened', occurredAt: iso(row.opened_at), ip: row.opened_ip, userAgent: row.opened_user_agent, ...signer });
    }
    if (row.completed_at !== null) {
      events.push({ type: 'signer.completed', occurredAt: iso(row.completed_at), ip: row.client_ip, userAgent: row.user_agent, ...signer });
    }
  }
  return events;
}

/** Revokes a session key of a document; the key's record (its revocation time the first one), or null. */
export async function revokeSessionKey(
  db: SqlDatabase,
  documentId: string,
  keyId: string,
  revokedAt: IsoTime,
): Promise<SessionKeyRecord | null> {
  await db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND document_id = ? AND revoked_at IS NULL', [
    toMillis(revokedAt),
    keyId,
    documentId,
  ]);
  const row = await db.get<{
    id: string;
    expires_at: Millis | null;
    revoked_at: Millis | null;
    allowed_origins: string;
    created_at: Millis;
    document_id: string;
    signer_id: string | null;
  }>('SELECT id, expires_at, revoked_at, allowed_origins, created_at, document_id, signer_id FROM api_keys WHERE id = ? AND document_id = ?', [
    keyId,
    documentId,
  ]);
  if (!row) return null;
  return {
    id: row.id,
    expiresAt: isoOrNull(row.expires_at),
    revokedAt: isoOrNull(row.revoked_at),
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
    createdAt: iso(row.created_at),
    documentId: row.document_id,
    signerId: row.signer_id,
  };
}
