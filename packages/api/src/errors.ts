import type { ErrorCode, ErrorDetails } from '@signet/contract';

/** HTTP statuses worth another attempt: the request may succeed unchanged a moment later. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/**
 * An error answer of the Signet API, from its envelope (`error.code`, `error.message`, `error.details`,
 * `meta.requestId`).
 * @example
 * try { await client.submitDocument(payload) } catch (error) {
 *   if (error instanceof SigningApiError && error.code === 'VALIDATION_ERROR') highlight(error.missingFields)
 * }
 */
export class SigningApiError extends Error {
  override readonly name = 'SigningApiError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  readonly requestId: string | undefined;
  /** Whether the same request may succeed if sent again (a 408, 429 or 5xx, or a 409 that asks for a retry). */
  readonly retryable: boolean;
  /** Milliseconds the server asked to wait (`Retry-After`, or `X-RateLimit-Reset` on a 429), if it said. */
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    code: ErrorCode;
    status: number;
    message: string;
    details?: ErrorDetails;
    requestId?: string;
    retryable?: boolean;
    retryAfterMs?: number;
  }) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryable = init.retryable ?? RETRYABLE_STATUSES.has(init.status);
    this.retryAfterMs = init.retryAfterMs;
  }

  /** The ids of required fields without a value, of a 422 `VALIDATION_ERROR` (empty otherwise). */
  get missingFields(): string[] {
    return this.details?.missingFields ?? [];
  }
}

/** An attempt that got no answer within `timeoutMs`. Retried while retries remain. */
export class SigningTimeoutError extends Error {
  override readonly name = 'SigningTimeoutError';
  readonly retryable = true;
  constructor(readonly timeoutMs: number) {
    super(`The Signet API did not answer within ${timeoutMs} ms`);
  }
}

/** The caller's `AbortSignal` fired: nothing is retried after it. */
export class SigningAbortError extends Error {
  override readonly name = 'SigningAbortError';
  readonly retryable = false;
  constructor(options?: { cause?: unknown }) {
    super('The request was aborted', options);
  }
}

/** The request never got an HTTP answer: offline, DNS, refused connection, CORS refusal. Retried. */
export class SigningNetworkError extends Error {
  override readonly name = 'SigningNetworkError';
  readonly retryable = true;
  constructor(options: { cause: unknown }) {
    super('The Signet API could not be reached', options);
  }
}

/** A response whose body breaks the contract (it failed the contract's schema). Never retried. */
export class ContractViolationError extends Error {
  override readonly name = 'ContractViolationError';
  readonly retryable = false;
  constructor(
    readonly status: number,
    readonly issues: ReadonlyArray<{ path: string; message: string }>,
    readonly requestId: string | undefined,
  ) {
    super(`The response (HTTP ${status}) does not match the Signet API contract: ${describe(issues)}`);
  }
}

/** A submission the builder refuses to produce, such as a value for an unknown field or of the wrong type. */
export class SubmissionBuildError extends Error {
  override readonly name = 'SubmissionBuildError';
  constructor(
    /** Where the problem is: a field id, `pages[2]`, `renderContext`… */
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** Every error the client throws. */
export type SigningError =
  | SigningApiError
  | SigningTimeoutError
  | SigningAbortError
  | SigningNetworkError
  | ContractViolationError
  | SubmissionBuildError;

function describe(issues: ReadonlyArray<{ path: string; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
    .join('; ');
}
