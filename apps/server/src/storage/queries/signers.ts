import type { SignerDefinition } from '@signet/contract';
import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import type { IsoTime, NewAuditEvent, SignerState, StoredSigner } from '../types.js';
import { prepare } from '../prepared.js';
import { toIsoOrNull, toMillis } from '../schema.js';

/*
 * Where each signer of a document stands (`document_signers`): when they first opened it and when they completed
 * it, with their submission.
 */

/** A `document_signers` row as a signer's state. */
export function toSignerState(row: Tables['document_signers']): SignerState {
  return {
    signerId: row.signer_id,
    openedAt: toIsoOrNull(row.opened_at),
    openedIp: row.opened_ip,
    openedUserAgent: row.opened_user_agent,
    completedAt: toIsoOrNull(row.completed_at),
    submissionId: row.submission_id,
    verifiedAt: toIsoOrNull(row.verified_at),
  };
}

/**
 * The `documents.signers` JSON of signers as stored; a signer still holding its access code in the clear is a bug
 * (docs/signer-auth.md, "What is stored"), refused here so it can never reach the database.
 */
export function storedSignersJson(signers: readonly StoredSigner[]): string {
  if (signers.some((signer) => signer.accessCode !== undefined)) throw new Error('An access code must be hashed before it is stored');
  return JSON.stringify(signers);
}

/** One state row per signer of a new document, in the transaction that creates it. */
export async function insertSigners(db: Db, documentId: string, signers: readonly SignerDefinition[]): Promise<void> {
  await db
    .insertInto('document_signers')
    .values(signers.map((signer) => ({ document_id: documentId, signer_id: signer.id, access_code_failures: 0 })))
    .execute();
}

/** Where each signer of a document stands, in no particular order. */
export async function findSignerStates(db: Db, documentId: string): Promise<SignerState[]> {
  const rows = await db.selectFrom('document_signers').selectAll().where('document_id', '=', documentId).execute();
  return rows.map(toSignerState);
}

/** Records a signer's first opening of a document (with where from); false when it was not the first. */
export async function markSignerOpened(db: Db, documentId: string, signerId: string, event: Omit<NewAuditEvent, 'type'>): Promise<boolean> {
  const result = await db
    .updateTable('document_signers')
    .set({ opened_at: toMillis(event.occurredAt), opened_ip: event.ip ?? null, opened_user_agent: event.userAgent ?? null })
    .where('document_id', '=', documentId)
    .where('signer_id', '=', signerId)
    .where('opened_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Marks a signer completed with their submission. */
export async function markSignerCompleted(db: Db, documentId: string, signerId: string, submissionId: string, at: IsoTime): Promise<void> {
  await COMPLETE_SIGNER(db, toMillis(at), submissionId, documentId, signerId);
}

const COMPLETE_SIGNER = prepare(
  (db, at, submissionId, documentId, signerId) =>
    db
      .updateTable('document_signers')
      .set({ completed_at: at as number, submission_id: submissionId as string })
      .where('document_id', '=', documentId as string)
      .where('signer_id', '=', signerId as string),
  4,
);

/** Each signer's states joined with their submission's address and browser (the audit trail's signer events). */
export async function findSignerActivity(
  db: Db,
  documentId: string,
): Promise<Array<SignerState & { submittedIp: string | null; submittedUserAgent: string | null }>> {
  const rows = await db
    .selectFrom('document_signers as s')
    .leftJoin('submissions as sub', 'sub.id', 's.submission_id')
    .selectAll('s')
    .select(['sub.client_ip', 'sub.user_agent'])
    .where('s.document_id', '=', documentId)
    .execute();
  return rows.map((row) => ({ ...toSignerState(row), submittedIp: row.client_ip, submittedUserAgent: row.user_agent }));
}
