import { type SubmissionPayload, type SubmissionResult } from '@signet/contract';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import type { AppContext } from '../http/env.js';
import { DocumentDeclinedError, type AuthenticatedKey, type DocumentRecord, type IdempotencyScope, type StoredSubmission } from '../storage/types.js';
import { decodeImages } from './images.js';
import { checkSubmission, type SubmissionCheck } from './validate.js';
import { submitAsSigner } from './submit-as-signer.js';

/** How a submit is answered: the status and the result body (docs/api.md, "Submit"). */
export interface SubmitResponse {
  status: 200 | 201;
  result: SubmissionResult;
}

export interface SubmitRequest {
  key: AuthenticatedKey;
  document: DocumentRecord;
  /** The body as received, for the checksum and the record. */
  rawText: string;
  /** SHA-256 of the canonical payload without `checksum`, as the server computes it. */
  checksum: string;
  payload: SubmissionPayload;
  clientIp: string | null;
  userAgent: string | null;
  receivedAt: Date;
  idempotency?: IdempotencyScope;
}

function alreadyCompleted(documentId: string): ApiError {
  return new ApiError('SUBMISSION_FAILED', `Document ${documentId} has already been completed`, {
    details: { reason: 'the document is already completed; only the accepted payload can be sent again' },
  });
}

/** The 409 for a submission to a declined document. */
export function declined(documentId: string): ApiError {
  return new ApiError('SUBMISSION_FAILED', `Document ${documentId} has been declined`, {
    details: { reason: 'declined' },
  });
}

/** `storage.recordSubmission`, with a document declined meanwhile answered as the 409 it is. */
async function recordOrRefuse(deps: AppContext, submission: StoredSubmission, idempotency: IdempotencyScope | undefined) {
  try {
    return await deps.storage.recordSubmission(submission, idempotency);
  } catch (error) {
    if (error instanceof DocumentDeclinedError) throw declined(error.documentId);
    throw error;
  }
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

/** The 422 for a submission that breaks a document rule (`checkSubmission`'s verdict); nothing when it keeps them all. */
export function refuseBrokenRules(verdict: SubmissionCheck): void {
  if (verdict && 'missingFields' in verdict) {
    throw new ApiError('VALIDATION_ERROR', `Required fields are missing: ${verdict.missingFields.join(', ')}`, {
      status: 422,
      details: { missingFields: verdict.missingFields },
    });
  }
  if (verdict) {
    throw new ApiError('VALIDATION_ERROR', `Invalid ${verdict.issue.field}: ${verdict.issue.reason}`, {
      status: 422,
      details: verdict.issue,
    });
  }
}

/**
 * Stores a checked submission (of `signerId`, on a document with signers) durably, with the seal's copies of its
 * normalised images (`decodeImages`): the 201 with its new result, or the submission storage found there first (a
 * concurrent or earlier one), for the caller to replay or refuse.
 */
export async function storeSubmission(
  deps: AppContext,
  request: SubmitRequest,
  signerId?: string,
  sealImages?: Record<string, string>,
): Promise<SubmitResponse | { existing: StoredSubmission }> {
  const { document } = request;
  const receivedAt = request.receivedAt.toISOString();
  const submissionId = newId('sub');
  const submission: StoredSubmission = {
    id: submissionId,
    documentId: document.id,
    ...(signerId === undefined ? {} : { signerId }),
    organizationId: document.organizationId,
    keyId: request.key.id,
    checksum: request.checksum,
    payload: request.rawText,
    result: {
      success: true,
      submissionId,
      documentId: document.id,
      timestamp: receivedAt,
      message: 'Document submitted successfully',
    },
    clientIp: request.clientIp,
    userAgent: request.userAgent,
    receivedAt,
    ...(sealImages ? { sealImages } : {}),
  };
  const outcome = await recordOrRefuse(deps, submission, request.idempotency);
  deps.reads.forgetDocument(document.id);
  if (!outcome.created) return { existing: outcome.existing };
  deps.sealWorker?.wake();
  return { status: 201, result: submission.result };
}
