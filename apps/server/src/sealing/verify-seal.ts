import { hash } from 'node:crypto';
import type { PadesReport, VerifyResult } from '@signet/contract';
import type { Storage } from '../storage/types.js';
import { parseSealReason } from './seal-reason.js';
import { findDocument } from '../storage/queries/documents.js';
import { findSealState, findSealedBySha256 } from '../storage/queries/seals.js';

/** What a PDF's signature dictionaries say of themselves: `/Reason` names the document and submission Signet sealed. */
export interface FoundSignature {
  reason?: string;
}

/**
 * Whether `pdf` is a file this instance sealed for `organizationId` (`sealed`), unchanged since (`intact`). A file
 * byte-identical to a stored seal is both. A file whose signature names one of the organization's seals but whose
 * bytes differ is sealed and not intact (altered, or a revision appended). Anything else, including another
 * organization's seal, is neither: the answer reveals nothing of other organizations. The command line, which has no
 * key, passes null: any organization of the instance. With `readPades` (`padesReport` in the pool), `pades` says
 * what the file's signature proves of itself: its level, chains, revocation statuses and timestamps.
 * @example await verifySeal(storage, key.organizationId, bytes, (pdf) => pool.run('verify', pdf), (pdf) => pool.run('pades', pdf))
 */
export async function verifySeal(
  storage: Storage,
  organizationId: string | null,
  pdf: Uint8Array,
  readSignatures: (pdf: Uint8Array) => Promise<FoundSignature[]>,
  readPades?: (pdf: Uint8Array) => Promise<PadesReport | null>,
): Promise<VerifyResult> {
  const [verdict, pades] = await Promise.all([sealVerdict(storage, organizationId, pdf, readSignatures), readPades?.(pdf)]);
  return pades ? { ...verdict, pades } : verdict;
}

async function sealVerdict(
  storage: Storage,
  organizationId: string | null,
  pdf: Uint8Array,
  readSignatures: (pdf: Uint8Array) => Promise<FoundSignature[]>,
): Promise<VerifyResult> {
  const sha256 = hash('sha256', pdf, 'hex');
  const ownSeal = async (documentId: string) =>
    organizationId === null || (await findDocument(storage.db.query, documentId))?.organizationId === organizationId;

  for (const sealed of await findSealedBySha256(storage.db.query, sha256)) {
    if (!(await ownSeal(sealed.documentId))) continue;
    const { documentId, submissionId, sealedAt } = sealed;
    return { sealed: true, intact: true, documentId, submissionId, sealedAt, sha256 };
  }
  for (const signature of await readSignatures(pdf)) {
    const named = signature.reason ? parseSealReason(signature.reason) : null;
    if (!named) continue;
    const { sealed } = await findSealState(storage.db.query, named.documentId);
    if (!sealed || sealed.submissionId !== named.submissionId || !(await ownSeal(sealed.documentId))) continue;
    const { documentId, submissionId, sealedAt } = sealed;
    return { sealed: true, intact: false, documentId, submissionId, sealedAt, sha256 };
  }
  return { sealed: false, intact: false, sha256 };
}
