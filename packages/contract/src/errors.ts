/**
 * Error codes (docs/api.md, "Error codes"): the contract's, `NOT_FOUND`, `INTERNAL_ERROR`, `SERVICE_UNAVAILABLE`, `DOCUMENT_NOT_SEALED`,
 * `WEBHOOK_DISABLED` (a delivery retried to an endpoint that is turned off), and for drafts `DOCUMENT_NOT_DRAFT` (an edit
 * or a send of a document already sent), `PRECONDITION_FAILED` (an `If-Match` that is not the current version) and
 * `PRECONDITION_REQUIRED` (a write to a draft without `If-Match`), and `DOCUMENT_CLOSED` (a void of a document whose signing
 * has already ended: completed, declined or voided; docs/lifecycle.md) and `DOCUMENT_ERASED` (an erasure of a
 * document erased already, with its tombstone in `details`), and for signers who must prove who they are
 * `VERIFICATION_REQUIRED` (a session key not verified yet; `details.method`) and `VERIFICATION_FAILED` (a wrong,
 * expired or used-up code; `details.reason`, `details.attemptsLeft`).
 * Each maps to the HTTP status it is usually sent with; `VALIDATION_ERROR` also travels with 408, 413, 415, 416,
 * 417, 422 and 431 (a request the server refuses before or while reading it), and `NOT_FOUND` with 405.
 */
export const ERROR_STATUS = {
  INVALID_API_KEY: 401,
  EXPIRED_API_KEY: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  VALIDATION_ERROR: 400,
  DOCUMENT_NOT_FOUND: 404,
  SUBMISSION_FAILED: 409,
  RATE_LIMIT_EXCEEDED: 429,
  NOT_FOUND: 404,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  DOCUMENT_NOT_SEALED: 409,
  WEBHOOK_DISABLED: 409,
  DOCUMENT_NOT_DRAFT: 409,
  PRECONDITION_FAILED: 412,
  PRECONDITION_REQUIRED: 428,
  DOCUMENT_CLOSED: 409,
  DOCUMENT_ERASED: 410,
  VERIFICATION_REQUIRED: 403,
  VERIFICATION_FAILED: 422,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
