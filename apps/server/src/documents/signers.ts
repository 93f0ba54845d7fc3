import { signerOrder, signerStatus, waitingFor, type SdkSigner, type Signer, type SubmittedField } from '@signet/contract';
import type { AppContext } from '../app-context.js';
import type { DocumentRecord, SignerState, Storage } from '../storage/types.js';
import { findSignerStates } from '../storage/queries/signers.js';
import { listSubmissions } from '../storage/queries/submissions.js';

/** The states of a document's signers; none (no query) on a document whose signer is implicit (never shown). */
export function signerStatesOf(deps: { storage: Pick<Storage, 'db'> }, document: DocumentRecord): Promise<SignerState[]> {
  return document.implicitSigner ? Promise.resolve([]) : findSignerStates(deps.storage.db.query, document.id);
}

/** Which signers have completed and which have opened the document. */
function progress(states: readonly SignerState[]) {
  return {
    completed: new Set(states.filter((state) => state.completedAt !== null).map((state) => state.signerId)),
    opened: new Set(states.filter((state) => state.openedAt !== null).map((state) => state.signerId)),
  };
}

/** The signers of a document as the management endpoints show them, in the document's order. */
export function signersOf(document: DocumentRecord, states: readonly SignerState[]): Signer[] {
  const { signers, signingOrder } = document;
  const byId = new Map(states.map((state) => [state.signerId, state]));
  const done = progress(states);
  return signers.map((signer) => {
    const state = byId.get(signer.id);
    return {
      id: signer.id,
      name: signer.name,
      ...(signer.email ? { email: signer.email } : {}),
      order: signerOrder(signer),
      ...(signer.locale ? { locale: signer.locale } : {}),
      status: signerStatus(signers, signingOrder, done, signer.id),
      auth: signer.auth ?? 'none',
      verifiedAt: state?.verifiedAt ?? null,
      openedAt: state?.openedAt ?? null,
      completedAt: state?.completedAt ?? null,
      submissionId: state?.submissionId ?? null,
    };
  });
}

/** The signers as a browser sees them: no email addresses, no times. */
export function sdkSignersOf(document: DocumentRecord, states: readonly SignerState[]): SdkSigner[] {
  return signersOf(document, states).map(({ id, name, order, status }) => ({ id, name, order, status }));
}

/** The signers who must sign before `signerId` may (sequential order), by id. */
export function signersBefore(document: DocumentRecord, states: readonly SignerState[], signerId: string): string[] {
  return waitingFor(document.signers, document.signingOrder, progress(states).completed, signerId);
}

/**
 * The values other signers submitted, by field id, for a signer's read-only view of their fields: read
 * from the completed signers' submissions.
 */
export async function submittedValuesOf(deps: Pick<AppContext, 'storage'>, documentId: string): Promise<Map<string, SubmittedField['value']>> {
  const values = new Map<string, SubmittedField['value']>();
  for (const submission of await listSubmissions(deps.storage.db.query, documentId)) {
    const { fields } = JSON.parse(submission.payload) as { fields: SubmittedField[] };
    for (const field of fields) values.set(field.id, field.value);
  }
  return values;
}
