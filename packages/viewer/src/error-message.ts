import { SigningApiError, SigningNetworkError, SigningTimeoutError, SubmissionBuildError } from '@signet/api';
import type { ViewerMessages } from './i18n/messages.js';

/** Why a document can no longer be signed, when the sender ended it or its time ran out (docs/lifecycle.md). */
export type UnavailableReason = 'voided' | 'expired' | 'erased';

/**
 * The end an answer reports: a 409 (`voided`, `expired`), the 404 of an erased document, or the 401 of a session key
 * revoked with its document, all with `details.reason`; `null` for any other failure.
 */
export function unavailableReason(error: unknown): UnavailableReason | null {
  if (!(error instanceof SigningApiError)) return null;
  const reason = error.details?.reason;
  return reason === 'voided' || reason === 'expired' || reason === 'erased' ? reason : null;
}

/** Tells the host of a failure: `onUnavailable` when it is a document's end, `onError` otherwise. */
export function reportFailure(
  error: Error,
  events: { onUnavailable?(reason: UnavailableReason): void; onError?(error: Error): void },
): void {
  const ended = unavailableReason(error);
  if (ended) events.onUnavailable?.(ended);
  else events.onError?.(error);
}

/** What the signer is told about a failure to open the document: what happened, in their words. */
export function loadErrorMessage(error: unknown, messages: ViewerMessages): string {
  if (error instanceof SigningNetworkError || error instanceof SigningTimeoutError) return messages.errorNetwork;
  if (!(error instanceof SigningApiError)) return messages.errorGeneric;
  switch (error.code) {
    case 'INVALID_API_KEY':
      return messages.errorInvalidKey;
    case 'EXPIRED_API_KEY':
      return messages.errorExpiredKey;
    case 'INSUFFICIENT_PERMISSIONS':
      return messages.errorPermissions;
    case 'DOCUMENT_NOT_FOUND':
    case 'NOT_FOUND':
      return messages.errorNotFound;
    case 'VALIDATION_ERROR':
      return error.details?.field === 'documentId' ? messages.errorNotFound : messages.errorGeneric;
    case 'RATE_LIMIT_EXCEEDED':
      return messages.errorRateLimited;
    default:
      return messages.errorGeneric;
  }
}

/**
 * The fields a refused submission names: the 422's `missingFields`, and the field of a rule issue
 * (`details.field` such as `fields[2].value`, resolved through the submitted payload's field order); or the field
 * the builder refused before any request (a value breaking its field's rules).
 */
export function fieldsNamedBy(error: unknown, submittedFieldIds: readonly string[]): string[] {
  if (error instanceof SubmissionBuildError) return [error.field];
  if (!(error instanceof SigningApiError) || error.code !== 'VALIDATION_ERROR') return [];
  const named = [...error.missingFields];
  const match = /^fields\[(\d+)\]/.exec(error.details?.field ?? '');
  const id = match ? submittedFieldIds[Number(match[1])] : undefined;
  if (id) named.push(id);
  return named;
}
