import { fieldsOfSigner, type SignerDefinition } from '@signet/contract';
import { ApiError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import { signersBefore } from '../documents/signers.js';
import type { DocumentRecord, StoredSubmission } from '../storage/types.js';
import { refuseBrokenRules, storeSubmission, type SubmitRequest, type SubmitResponse } from './store-submission.js';
import { decodeImages } from './images.js';
import { checkSubmission } from './validate.js';

const named = (signer: SignerDefinition) => `${signer.name} (${signer.id})`;

/**
 * The signer a submission is for: a session key's own; for an organization's key, the one signer whose fields the
 * payload carries (a 422 naming `fields` when it carries none or several signers' fields).
 */
function signerOf(request: SubmitRequest): SignerDefinition {
  const signers = request.document.signers!;
  const bound = request.key.signerId;
  if (bound) return signers.find((signer) => signer.id === bound)!;
  const definitions = new Map(request.document.fields.map((field) => [field.id, field]));
  const ids = new Set(request.payload.fields.flatMap((field) => definitions.get(field.id)?.signerId ?? []));
  if (ids.size === 1) return signers.find((signer) => signer.id === [...ids][0])!;
  throw new ApiError('VALIDATION_ERROR', 'A document with signers takes one signer’s fields at a time', {
    status: 422,
    details: {
      field: 'fields',
      reason: ids.size === 0
        ? "no field of a signer of this document: send one signer's fields, or submit with that signer's session key"
        : `fields of several signers (${[...ids].join(', ')}): each signer submits their own, best with their session key`,
    },
  });
}

/** The 422 for a field of another signer in the payload, naming it and whose it is. */
function assertOwnFields(request: SubmitRequest, signer: SignerDefinition): void {
  const { document, payload } = request;
  const definitions = new Map(document.fields.map((field) => [field.id, field]));
  payload.fields.forEach((field, index) => {
    const owner = definitions.get(field.id)?.signerId;
    if (owner === undefined || owner === signer.id) return;
    const other = document.signers!.find((candidate) => candidate.id === owner)!;
    throw new ApiError('VALIDATION_ERROR', `Field ${field.id} is not ${signer.name}’s to fill in`, {
      status: 422,
      details: { field: `fields[${index}].id`, reason: `field "${field.id}" is to be filled in by ${named(other)}, not by ${named(signer)}` },
    });
  });
}

function conflict(message: string, reason: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError('SUBMISSION_FAILED', message, { details: { reason, ...extra } });
}

/** The original result again for the accepted payload of this signer, or the 409 for any other. */
function replayOrConflict(existing: StoredSubmission, checksum: string, signer: SignerDefinition): SubmitResponse {
  if (existing.checksum === checksum) return { status: 200, result: existing.result };
  throw conflict(`${signer.name} has already signed document ${existing.documentId}`, 'this signer has already completed; only their accepted payload can be sent again');
}

/**
 * A submission to a document with signers: one signer's fields, checked against that signer's fields
 * only; in sequential order, only once every earlier signer has signed (409 `not_your_turn`). The document is
 * completed, and sealed, with its last signer.
 */
export async function submitAsSigner(deps: AppContext, request: SubmitRequest): Promise<SubmitResponse> {
  const { document, payload, checksum } = request;
  const signer = signerOf(request);
  const existing = await deps.storage.getSubmissionForSigner(document.id, signer.id);
  if (existing) return replayOrConflict(existing, checksum, signer);
  if (document.status === 'completed') {
    throw conflict(`Document ${document.id} has already been completed`, 'the document is already completed');
  }
  assertOwnFields(request, signer);
  const waiting = signersBefore(document, await deps.storage.getSignerStates(document.id), signer.id);
  if (waiting.length > 0) {
    const names = waiting.map((id) => document.signers!.find((candidate) => candidate.id === id)!.name);
    throw conflict(`It is not ${signer.name}’s turn yet: waiting for ${names.join(', ')}`, 'not_your_turn', { waitingFor: waiting });
  }
  const own: DocumentRecord = { ...document, fields: fieldsOfSigner(document.fields, signer.id) };
  refuseBrokenRules(checkSubmission(payload, own, request.receivedAt));
  const sealImages = await decodeImages(deps.pdfPool, payload);
  const stored = await storeSubmission(deps, request, signer.id, sealImages);
  return 'existing' in stored ? replayOrConflict(stored.existing, checksum, signer) : stored;
}
