import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import type { StoredSubmission } from '../types.js';
import { prepare } from '../prepared.js';
import { toIso, toMillis } from '../schema.js';

/*
 * Submissions: one per signer of a document, the payload kept exactly as received.
 */

/** A `submissions` row as a record. */
export function toSubmission(row: Tables['submissions']): StoredSubmission {
  return {
    id: row.id,
    documentId: row.document_id,
    signerId: row.signer_id,
    organizationId: row.organization_id,
    keyId: row.key_id,
    checksum: row.checksum,
    payload: row.payload,
    result: JSON.parse(row.result) as StoredSubmission['result'],
    clientIp: row.client_ip,
    userAgent: row.user_agent,
    receivedAt: toIso(row.received_at),
    ...(row.seal_images ? { sealImages: JSON.parse(row.seal_images) as Record<string, string> } : {}),
  };
}

type SubmissionRow = Tables['submissions'];
const COLUMNS = ['id', 'document_id', 'signer_id', 'organization_id', 'key_id', 'checksum', 'payload', 'result', 'client_ip', 'user_agent', 'received_at', 'seal_images'] as const;
const INSERT_SUBMISSION = prepare(
  (db, ...values) => db.insertInto('submissions').values(Object.fromEntries(COLUMNS.map((column, index) => [column, values[index]])) as SubmissionRow),
  COLUMNS.length,
);

/** Stores a submission, in the caller's transaction. */
export async function insertSubmission(db: Db, submission: StoredSubmission): Promise<void> {
  const row: SubmissionRow = {
    id: submission.id,
    document_id: submission.documentId,
    signer_id: submission.signerId,
    organization_id: submission.organizationId,
    key_id: submission.keyId,
    checksum: submission.checksum,
    payload: submission.payload,
    result: JSON.stringify(submission.result),
    client_ip: submission.clientIp,
    user_agent: submission.userAgent,
    received_at: toMillis(submission.receivedAt),
    seal_images: submission.sealImages ? JSON.stringify(submission.sealImages) : null,
  };
  await INSERT_SUBMISSION(db, ...COLUMNS.map((column) => row[column]));
}

/** A submission of a document (of one with several signers: one of them), or null. */
export async function findSubmissionForDocument(db: Db, documentId: string): Promise<StoredSubmission | null> {
  const row = await db.selectFrom('submissions').selectAll().where('document_id', '=', documentId).executeTakeFirst();
  return row ? toSubmission(row) : null;
}

/** The submission of one signer of a document, or null. */
export async function findSubmissionOfSigner(db: Db, documentId: string, signerId: string): Promise<StoredSubmission | null> {
  const row = await db
    .selectFrom('submissions')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('signer_id', '=', signerId)
    .executeTakeFirst();
  return row ? toSubmission(row) : null;
}

/** Every submission of a document, oldest first. */
export async function listSubmissions(db: Db, documentId: string): Promise<StoredSubmission[]> {
  const rows = await db
    .selectFrom('submissions')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('received_at')
    .orderBy('id')
    .execute();
  return rows.map(toSubmission);
}
