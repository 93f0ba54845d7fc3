import type { FieldDefinition } from './schemas/field.js';
import type { SignerDefinition, SignerStatus, SigningOrder } from './schemas/signers.js';
import type { FieldDefinitionIssue } from './field-rules.js';

/**
 * The rules signers and fields keep together: on a document with signers every field names one of them
 * (`signerId`); on a document without, no field names one. Paths are those of the upload's parts.
 * @example signerIssues([{ id: 'tenant', name: 'Tina' }], fields) // [] when each field names "tenant"
 */
export function signerIssues(signers: readonly SignerDefinition[] | undefined, fields: readonly FieldDefinition[]): FieldDefinitionIssue[] {
  const issues: FieldDefinitionIssue[] = [];
  const ids = new Set((signers ?? []).map((signer) => signer.id));
  fields.forEach((field, index) => {
    const at = `fields[${index}].signerId`;
    if (!signers) {
      if (field.signerId !== undefined) issues.push({ field: at, reason: 'the document has no signers: send them in the "signers" part' });
    } else if (field.signerId === undefined) {
      issues.push({ field: at, reason: 'on a document with signers, each field names the signer who fills it in' });
    } else if (!ids.has(field.signerId)) {
      issues.push({ field: at, reason: `no signer "${field.signerId}" in "signers"` });
    }
  });
  return issues;
}

/**
 * The fields a signer fills in: those naming them, or every field when there is no signer (a document without
 * signers, or a key that is not a session key).
 * @example fieldsOfSigner(document.fields, document.signerId)
 */
export function fieldsOfSigner<F extends Pick<FieldDefinition, 'signerId'>>(fields: readonly F[], signerId: string | undefined): F[] {
  return signerId === undefined ? [...fields] : fields.filter((field) => field.signerId === signerId);
}

/** A signer's order: 1 unless given. */
export function signerOrder(signer: Pick<SignerDefinition, 'order'>): number {
  return signer.order ?? 1;
}

/**
 * The signers who must sign before `signerId` may: in sequential order, those of a lower `order` who have not
 * completed; in parallel, none.
 * @example waitingFor(signers, 'sequential', new Set(), 'landlord') // ['tenant']
 */
export function waitingFor(
  signers: readonly SignerDefinition[],
  signingOrder: SigningOrder,
  completed: ReadonlySet<string>,
  signerId: string,
): string[] {
  if (signingOrder === 'parallel') return [];
  const own = signers.find((signer) => signer.id === signerId);
  if (!own) return [];
  return signers
    .filter((signer) => signerOrder(signer) < signerOrder(own) && !completed.has(signer.id))
    .map((signer) => signer.id);
}

/**
 * Where a signer stands: `completed` once they signed; else `waiting` while an earlier signer has not (sequential
 * order); else `opened` once they opened the document, `ready` before.
 */
export function signerStatus(
  signers: readonly SignerDefinition[],
  signingOrder: SigningOrder,
  state: { completed: ReadonlySet<string>; opened: ReadonlySet<string> },
  signerId: string,
): SignerStatus {
  if (state.completed.has(signerId)) return 'completed';
  if (waitingFor(signers, signingOrder, state.completed, signerId).length > 0) return 'waiting';
  return state.opened.has(signerId) ? 'opened' : 'ready';
}
