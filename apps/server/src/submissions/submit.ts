import { ApiError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import type { StoredSubmission } from '../storage/types.js';
import { decodeImages } from './images.js';
import { declined, refuseBrokenRules, storeSubmission, type SubmitRequest, type SubmitResponse } from './store-submission.js';
import { checkSubmission } from './validate.js';
import { submitAsSigner } from './submit-as-signer.js';

export type { SubmitRequest, SubmitResponse } from './store-submission.js';

function alreadyCompleted(documentId: string): ApiError {
  return new ApiError('SUBMISSION_FAILED', `Document ${documentId} has already been completed`, {
    details: { reason: 'the document is already completed; only the accepted payload can be sent again' },
  });
}

/** The answer to a payload arriving for a completed document: the original result again, or a 409. */
function replayOrConflict(existing: StoredSubmission, checksum: string): SubmitResponse {
  if (existing.checksum === checksum) return { status: 200, result: existing.result };
  throw alreadyCompleted(existing.documentId);
}

/**
 * Accepts a submission (docs/api.md, "Submit"): checksum, document rules, then one durable transaction that stores it and
 * completes the document. A payload equal to the accepted one replays its result; any other is refused.
 */
export async function submitDocument(deps: AppContext, request: SubmitRequest): Promise<SubmitResponse> {
  const { document, payload } = request;
  const { checksum } = request;
  if (checksum !== payload.checksum) {
    throw new ApiError('VALIDATION_ERROR', 'The checksum does not match the payload', {
      status: 422,
      details: { field: 'checksum', reason: 'expected the SHA-256 of the RFC 8785 canonical JSON of the payload without checksum' },
    });
  }
  if (document.status === 'declined') throw declined(document.id);
  if (document.signers) return submitAsSigner(deps, request);
  if (document.status === 'completed') {
    const existing = await deps.storage.getSubmissionForDocument(document.id);
    if (existing) return replayOrConflict(existing, checksum);
    throw alreadyCompleted(document.id);
  }
  refuseBrokenRules(checkSubmission(payload, document, request.receivedAt));
  const sealImages = await decodeImages(deps.pdfPool, payload);
  const stored = await storeSubmission(deps, request, undefined, sealImages);
  return 'existing' in stored ? replayOrConflict(stored.existing, checksum) : stored;
}

