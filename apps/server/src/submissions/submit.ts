import { voidedNotSignable } from '../documents/void.js';
import { expiredNotSignable } from '../documents/expiry.js';
import { fieldsOfSigner, type SignerDefinition } from '@signet/contract';
import { ApiError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import { signersBefore } from '../documents/signers.js';
import type { DocumentRecord, StoredSubmission } from '../storage/types.js';
import { decodeImages } from './images.js';
import { declined, refuseBrokenRules, storeSubmission, type SubmitRequest, type SubmitResponse } from './store-submission.js';
import { checkSubmission } from './validate.js';
import { findSignerStates } from '../storage/queries/signers.js';
import { findSubmissionOfSigner } from '../storage/queries/submissions.js';
import { draftNotSignable } from '../documents/drafts.js';

export type { SubmitRequest, SubmitResponse } from './store-submission.js';

const named = (signer: SignerDefinition) => `${signer.name} (${signer.id})`;

function conflict(message: string, reason: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError('SUBMISSION_FAILED', message, { details: { reason, ...extra } });
}

/** The 409 for a completed document: worded for its one signer on a document created without signers. */
function alreadyCompleted(document: DocumentRecord): ApiError {
  const reason = document.implicitSigner
    ? 'the document is already completed; only the accepted payload can be sent again'
    : 'the document is already completed';
  return conflict(`Document ${document.id} has already been completed`, reason);
}

/** The original result again for the signer's accepted payload, or the 409 for any other. */
function replayOrConflict(document: DocumentRecord, existing: StoredSubmission, checksum: string, signer: SignerDefinition): SubmitResponse {
  if (existing.checksum === checksum) return { status: 200, result: existing.result };
  if (document.implicitSigner) throw alreadyCompleted(document);
  throw conflict(`${signer.name} has already signed document ${existing.documentId}`, 'this signer has already completed; only their accepted payload can be sent again');
}

/**
 * The signer a submission is for: the implicit signer of a document created without signers; a session key's own;
 * for an organization's key, the one signer whose fields the payload carries (a 422 naming `fields` when it carries
 * none or several signers' fields).
 */
function signerOf(request: SubmitRequest): SignerDefinition {
  const { signers, implicitSigner } = request.document;
  if (implicitSigner) return signers[0]!;
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

/** The fields a signer fills in: every field for the implicit signer, else those naming them. */
function fieldsOf(document: DocumentRecord, signer: SignerDefinition): DocumentRecord['fields'] {
  return document.implicitSigner ? document.fields : fieldsOfSigner(document.fields, signer.id);
}

/** The 422 for a field of another signer in the payload, naming it and whose it is. */
function assertOwnFields(request: SubmitRequest, signer: SignerDefinition): void {
  const { document, payload } = request;
  const definitions = new Map(document.fields.map((field) => [field.id, field]));
  payload.fields.forEach((field, index) => {
    const owner = definitions.get(field.id)?.signerId;
    if (owner === undefined || owner === signer.id) return;
    const other = document.signers.find((candidate) => candidate.id === owner)!;
    throw new ApiError('VALIDATION_ERROR', `Field ${field.id} is not ${signer.name}’s to fill in`, {
      status: 422,
      details: { field: `fields[${index}].id`, reason: `field "${field.id}" is to be filled in by ${named(other)}, not by ${named(signer)}` },
    });
  });
}

/**
 * Accepts a submission (docs/api.md, "Submit"), one signer's: checksum; a payload equal to the signer's accepted one
 * replays its result, any other is refused, as is one for a completed document; the signer's own fields only; in
 * sequential order, only once every earlier signer has signed (409 `not_your_turn`); the document rules on the
 * signer's fields; then one durable transaction that stores it and, with the last signer, completes the document.
 */
export async function submitDocument(deps: AppContext, request: SubmitRequest): Promise<SubmitResponse> {
  const { document, payload, checksum } = request;
  // A draft becomes signable only when sent, never back: checked once, ahead of everything about the payload.
  if (document.status === 'draft') throw draftNotSignable(document);
  if (document.status === 'voided') throw voidedNotSignable(document);
  if (document.status === 'expired') throw expiredNotSignable(document);
  if (checksum !== payload.checksum) {
    throw new ApiError('VALIDATION_ERROR', 'The checksum does not match the payload', {
      status: 422,
      details: { field: 'checksum', reason: 'expected the SHA-256 of the RFC 8785 canonical JSON of the payload without checksum' },
    });
  }
  if (document.status === 'declined') throw declined(document.id);
  const signer = signerOf(request);
  // A pending document's only signer has no submission yet (its transaction answers a concurrent one).
  const existing = document.status === 'pending' && document.signers.length === 1 ? null : await findSubmissionOfSigner(deps.storage.db.query, document.id, signer.id);
  if (existing) return replayOrConflict(document, existing, checksum, signer);
  if (document.status === 'completed') throw alreadyCompleted(document);
  assertOwnFields(request, signer);
  // Only a sequential order makes a signer wait for others.
  const states = document.signingOrder === 'sequential' ? await findSignerStates(deps.storage.db.query, document.id) : [];
  const waiting = signersBefore(document, states, signer.id);
  if (waiting.length > 0) {
    const names = waiting.map((id) => document.signers.find((candidate) => candidate.id === id)!.name);
    throw conflict(`It is not ${signer.name}’s turn yet: waiting for ${names.join(', ')}`, 'not_your_turn', { waitingFor: waiting });
  }
  refuseBrokenRules(checkSubmission(payload, { ...document, fields: fieldsOf(document, signer) }, request.receivedAt));
  const sealImages = await decodeImages(deps.pdfPool, payload);
  const stored = await storeSubmission(deps, request, signer.id, sealImages);
  return 'existing' in stored ? replayOrConflict(document, stored.existing, checksum, signer) : stored;
}
