import type { AuditEvent } from '@signet/contract';
import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import { toIso } from '../schema.js';

/*
 * Signer verification (docs/signer-auth.md): each signer's e-mailed code (`signer_codes`), the access-code lock on
 * `document_signers`, and the verifications and failed tries (`signer_verifications`). A try is claimed (counted)
 * by one UPDATE before the code is compared, so concurrent tries can never get past the limit.
 */

export type SignerCode = Tables['signer_codes'];
export type VerificationRow = Tables['signer_verifications'];

/** Whether the session key `keyId` has proved its signer's identity. */
export async function isKeyVerified(db: Db, keyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('signer_verifications')
    .select('id')
    .where('key_id', '=', keyId)
    .where('outcome', '=', 'verified')
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a verification or a failed try; a verification also becomes the signer's `verified_at` and unlocks them. */
export async function recordVerification(db: Db, row: VerificationRow): Promise<void> {
  await db.insertInto('signer_verifications').values(row).execute();
  if (row.outcome !== 'verified') return;
  await db
    .updateTable('document_signers')
    .set({ verified_at: row.occurred_at, access_code_failures: 0, access_code_locked_until: null })
    .where('document_id', '=', row.document_id)
    .where('signer_id', '=', row.signer_id)
    .execute();
  await db.deleteFrom('signer_codes').where('document_id', '=', row.document_id).where('signer_id', '=', row.signer_id).execute();
}

/** The signer's current e-mailed code, if any. */
export async function findSignerCode(db: Db, documentId: string, signerId: string): Promise<SignerCode | undefined> {
  return db.selectFrom('signer_codes').selectAll().where('document_id', '=', documentId).where('signer_id', '=', signerId).executeTakeFirst();
}

/** Stores a signer's new code in place of the last one. */
export async function replaceSignerCode(db: Db, code: SignerCode): Promise<void> {
  await db.deleteFrom('signer_codes').where('document_id', '=', code.document_id).where('signer_id', '=', code.signer_id).execute();
  await db.insertInto('signer_codes').values(code).execute();
}

/**
 * Claims one try of the signer's e-mailed code (while it is valid at `now` and has tries left): the code after the
 * claim, or undefined when there was none to try.
 */
export async function claimCodeTry(db: Db, documentId: string, signerId: string, now: number, maxTries: number): Promise<SignerCode | undefined> {
  const { numUpdatedRows } = await db
    .updateTable('signer_codes')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('document_id', '=', documentId)
    .where('signer_id', '=', signerId)
    .where('expires_at', '>', now)
    .where('failures', '<', maxTries)
    .executeTakeFirst();
  return numUpdatedRows === 1n ? findSignerCode(db, documentId, signerId) : undefined;
}

/** A signer's access-code lock: wrong tries since the last lock or success, and until when it is locked. */
export async function findAccessCodeLock(db: Db, documentId: string, signerId: string): Promise<{ failures: number; lockedUntil: number | null } | undefined> {
  const row = await db
    .selectFrom('document_signers')
    .select(['access_code_failures', 'access_code_locked_until'])
    .where('document_id', '=', documentId)
    .where('signer_id', '=', signerId)
    .executeTakeFirst();
  return row && { failures: row.access_code_failures, lockedUntil: row.access_code_locked_until };
}

/**
 * Claims one try of the signer's access code: a lock that has run out is lifted first; none when it is locked or
 * has no tries left. Resolves with the wrong tries counted so far, this one included, or undefined.
 */
export async function claimAccessCodeTry(db: Db, documentId: string, signerId: string, now: number, maxTries: number): Promise<number | undefined> {
  const signer = db.updateTable('document_signers').where('document_id', '=', documentId).where('signer_id', '=', signerId);
  await signer.set({ access_code_failures: 0, access_code_locked_until: null }).where('access_code_locked_until', '<=', now).execute();
  const { numUpdatedRows } = await signer
    .set((eb) => ({ access_code_failures: eb('access_code_failures', '+', 1) }))
    .where('access_code_locked_until', 'is', null)
    .where('access_code_failures', '<', maxTries)
    .executeTakeFirst();
  if (numUpdatedRows !== 1n) return undefined;
  return (await findAccessCodeLock(db, documentId, signerId))?.failures;
}

/** Locks a signer's access code until `until` (epoch ms). */
export async function lockAccessCode(db: Db, documentId: string, signerId: string, until: number): Promise<void> {
  await db
    .updateTable('document_signers')
    .set({ access_code_locked_until: until })
    .where('document_id', '=', documentId)
    .where('signer_id', '=', signerId)
    .execute();
}

/** The verification events of a document's audit trail (names are the caller's to add). */
export async function listVerificationEvents(db: Db, documentId: string): Promise<AuditEvent[]> {
  const rows = await db.selectFrom('signer_verifications').selectAll().where('document_id', '=', documentId).execute();
  return rows.map((row) => ({
    type: row.outcome === 'verified' ? 'signer.verified' : 'signer.verification_failed',
    occurredAt: toIso(row.occurred_at),
    ip: row.ip,
    userAgent: row.user_agent,
    signerId: row.signer_id,
    method: row.method,
    ...(row.address ? { address: row.address } : {}),
  }));
}
