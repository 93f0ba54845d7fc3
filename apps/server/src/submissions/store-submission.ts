import { expiredNotSignable } from '../documents/expiry.js';
import { voidedNotSignable } from '../documents/void.js';
import type { SubmissionPayload, SubmissionResult } from '@signet/contract';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import type { AppContext } from '../app-context.js';
import type { AuthenticatedKey, DocumentRecord, IdempotencyScope, StoredSubmission } from '../storage/types.js';
import type { SubmissionCheck } from './validate.js';
import { DocumentDeclinedError, recordSubmission } from './record-submission.js';

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

/** The 409 for a submission to a declined document. */
export function declined(documentId: string): ApiError {
  return new ApiError('SUBMISSION_FAILED', `Document ${documentId} has been declined`, {
    details: { reason: 'declined' },
  });
}

/** `recordSubmission`, with a document declined meanwhile answered as the 409 it is. */
async function recordOrRefuse(deps: AppContext, submission: StoredSubmission, idempotency: IdempotencyScope | undefined) {
  try {
    return await recordSubmission(deps.storage, submission, idempotency);
  } catch (error) {
    if (error instanceof DocumentDeclinedError) {
      if (error.reason === 'voided') throw voidedNotSignable({ id: error.documentId });
      if (error.reason === 'expired') throw expiredNotSignable({ id: error.documentId });
      throw declined(error.documentId);
    }
    throw error;
  }
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
 * Stores a checked submission of the signer `signerId` durably, with the seal's copies of its
 * normalised images (`decodeImages`): the 201 with its new result, or the submission storage found there first (a
 * concurrent or earlier one), for the caller to replay or refuse.
 */
export async function storeSubmission(
  deps: AppContext,
  request: SubmitRequest,
  signerId: string,
  sealImages?: Record<string, string>,
): Promise<SubmitResponse | { existing: StoredSubmission }> {
  const { document } = request;
  const receivedAt = request.receivedAt.toISOString();
  const submissionId = newId('sub');
  const submission: StoredSubmission = {
    id: submissionId,
    documentId: document.id,
    signerId,
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
