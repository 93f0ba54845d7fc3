import { ERROR_STATUS, type ErrorCode, type ErrorDetails } from '@signet/contract';

/**
 * An error with one of the contract's codes. Thrown anywhere, turned into the error envelope in one place
 * (`middleware/error-envelope`).
 * @example throw new ApiError('DOCUMENT_NOT_FOUND', 'Document not found')
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  /** Extra response headers, such as `Retry-After`. */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { status?: number; details?: ErrorDetails; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** A 400 (or other status) `VALIDATION_ERROR` naming the offending member. */
export function validationError(field: string, reason: string, status = 400): ApiError {
  return new ApiError('VALIDATION_ERROR', `Invalid ${field}: ${reason}`, { status, details: { field, reason } });
}

/** The 413 `VALIDATION_ERROR` of a body or file over its size limit. */
export function tooLarge(field: 'body' | 'file', maxBytes: number): ApiError {
  const what = field === 'file' ? 'the PDF' : 'the body';
  return new ApiError('VALIDATION_ERROR', field === 'file' ? 'The file is too large' : 'Request body too large', {
    status: 413,
    details: { field, reason: `${what} may not exceed ${maxBytes} bytes` },
  });
}

/** The 405 of a known path asked with another method (`NOT_FOUND`; docs/api.md, "Error codes"), with its `Allow` header. */
export function methodNotAllowed(method: string, path: string, allowed: string[]): ApiError {
  return new ApiError('NOT_FOUND', `Method ${method} is not allowed on ${path}`, {
    status: 405,
    details: { reason: `allowed: ${allowed.join(', ')}` },
    headers: { Allow: allowed.join(', ') },
  });
}
