import { maskEmail, type VerificationRequiredDetails } from '@signet/contract';
import { ApiError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import type { AuthenticatedKey, DocumentRecord } from '../storage/types.js';
import { isKeyVerified } from '../storage/queries/verification.js';
import type { StoredSigner } from './codes.js';

/*
 * The gate of a signer who must prove who they are (docs/signer-auth.md): their session key reads nothing of the
 * document's content, submits and declines nothing, until it is verified. Organization keys are the sender's own
 * and pass; so does a signer with `auth: "none"`.
 */

/** The signer a session key signs as, when that signer must verify; undefined otherwise. */
export function signerToVerify(key: Pick<AuthenticatedKey, 'signerId'>, document: DocumentRecord): StoredSigner | undefined {
  if (!key.signerId) return undefined;
  const signer = document.signers.find((candidate) => candidate.id === key.signerId) as StoredSigner | undefined;
  return signer?.auth && signer.auth !== 'none' ? signer : undefined;
}

/** What the prompt may show: names and the method, and for `email_code` the address masked. */
export function verificationDetails(document: DocumentRecord, signer: StoredSigner): VerificationRequiredDetails {
  return {
    method: signer.auth === 'email_code' ? 'email_code' : 'access_code',
    documentId: document.id,
    documentName: document.filename,
    signerId: signer.id,
    signerName: signer.name,
    ...(signer.auth === 'email_code' && signer.email ? { maskedEmail: maskEmail(signer.email) } : {}),
  };
}

/**
 * Throws 403 `VERIFICATION_REQUIRED` unless `key` may see and act on `document`'s content.
 * @example await assertVerified(deps, key, document) // before the content, a submit or a decline
 */
export async function assertVerified(deps: Pick<AppContext, 'storage'>, key: AuthenticatedKey, document: DocumentRecord): Promise<void> {
  const signer = signerToVerify(key, document);
  if (!signer || (await isKeyVerified(deps.storage.db.query, key.id))) return;
  throw new ApiError('VERIFICATION_REQUIRED', `${signer.name} must prove who they are before this document opens`, {
    details: verificationDetails(document, signer),
  });
}
