import { ERROR_STATUS, checkErrorEnvelope, type AnswerCheck, type ErrorCode } from '@signet/contract';
import {
  ContractViolationError,
  RETRYABLE_STATUSES,
  SigningAbortError,
  SigningApiError,
  SigningNetworkError,
  SigningTimeoutError,
} from './errors.js';
import { readRateLimit, retryAfterMs, type RateLimitInfo } from './rate-limit.js';
import { MAX_RETRY_AFTER_MS, backoffDelay, sleep, type RetryPolicy } from './retry.js';

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: typeof fetch;
  random?: () => number;
}

/** One API call: what to send, and the check of the contract its successful answer must pass. */
export interface ApiRequest<T> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Sent as JSON, or as multipart/form-data when it is a `FormData`. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** Absent only for a `binary` call. */
  check?: AnswerCheck<T> | undefined;
  /**
   * False for a call that is neither safe nor idempotent (creating a document): a time-out or a lost answer may
   * mean it was done, so only a refusal before it was handled (429, or the server's own 503 `SERVICE_UNAVAILABLE`)
   * is retried.
   */
  replayable?: boolean;
  /** A non-2xx answer that is an answer of the call after all (validate-key's `valid: false`), when it parses. */
  failureCheck?: AnswerCheck<T>;
  /** The success is a file (a PDF), returned as its bytes; `check` is then not applied. */
  binary?: boolean;
}

/**
 * Sends API calls: the key header, a time-out per attempt, retries of transient failures with backoff, and
 * every answer parsed against the contract. Keeps the rate-limit headers of the last response.
 */
export class Transport {
  rateLimit: RateLimitInfo | null = null;
  private readonly baseUrl: string;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async send<T>(request: ApiRequest<T>): Promise<T> {
    const { retry } = this.options;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(request);
      } catch (error) {
        const again = request.replayable === false ? refusedBeforeHandled(error) : retryable(error);
        const wait = again && attempt < retry.retries ? retryDelay(error, attempt, retry, this.options.random) : null;
        if (wait === null) throw error;
        await sleep(wait, request.signal);
      }
    }
  }

  private async attempt<T>(request: ApiRequest<T>): Promise<T> {
    const { signal } = request;
    if (signal?.aborted) throw new SigningAbortError({ cause: signal.reason });
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });

    let response: Response;
    let bytes: Uint8Array;
    try {
      response = await this.options.fetch(this.baseUrl + request.path, {
        method: request.method,
        headers: this.headers(request),
        body: request.body === undefined || request.body instanceof FormData || request.body instanceof Blob ? request.body : JSON.stringify(request.body),
        signal: controller.signal,
      });
      // The body is read under the same time-out: a server that stalls mid-answer is a time-out too.
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (signal?.aborted) throw new SigningAbortError({ cause: signal.reason });
      if (timedOut) throw new SigningTimeoutError(this.options.timeoutMs);
      throw new SigningNetworkError({ cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }

    this.rateLimit = readRateLimit(response.headers) ?? this.rateLimit;
    if (request.binary && response.ok) return bytes as T;
    return interpret(request, response, new TextDecoder().decode(bytes));
  }

  private headers(request: ApiRequest<unknown>): Record<string, string> {
    const accept = request.binary ? 'application/pdf, application/json' : 'application/json';
    const headers: Record<string, string> = { Accept: accept, 'X-API-Key': this.options.apiKey, ...request.headers };
    // A FormData body gets its multipart Content-Type (with the boundary) from fetch itself, a Blob its own type.
    if (request.body !== undefined && !(request.body instanceof FormData) && !(request.body instanceof Blob)) headers['Content-Type'] = 'application/json';
    return headers;
  }
}

/**
 * Whether the server said it did nothing: a 429, or Signet's own 503 `SERVICE_UNAVAILABLE` (its PDF queue is full).
 * A bare 503 may come from a proxy after the server acted, so it does not count.
 */
function refusedBeforeHandled(error: unknown): boolean {
  return error instanceof SigningApiError && (error.status === 429 || (error.status === 503 && error.code === 'SERVICE_UNAVAILABLE'));
}

function retryable(error: unknown): boolean {
  return error instanceof Error && 'retryable' in error && error.retryable === true;
}

/** The wait before the next attempt: the backoff, or longer when the server asked; null when not worth waiting. */
function retryDelay(error: unknown, attempt: number, policy: RetryPolicy, random?: () => number): number | null {
  const backoff = backoffDelay(attempt, policy, random);
  const asked = error instanceof SigningApiError ? error.retryAfterMs : undefined;
  if (asked === undefined) return backoff;
  return asked > MAX_RETRY_AFTER_MS ? null : Math.max(backoff, asked);
}

function interpret<T>(request: ApiRequest<T>, response: Response, text: string): T {
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  const json = parseJson(text);
  if (response.ok) return conform(request.check, json, response.status, requestId);

  if (request.failureCheck) {
    const answer = request.failureCheck(json);
    if (answer.success) return answer.data;
  }
  throw apiError(response, json, requestId);
}

function conform<T>(check: AnswerCheck<T> | undefined, json: unknown, status: number, requestId: string | undefined): T {
  if (!check) throw new ContractViolationError(status, [{ path: '', message: 'the endpoint answers with a file, not JSON' }], requestId);
  const result = check(json);
  if (result.success) return result.data;
  throw new ContractViolationError(status, result.issues, requestId);
}

/** The error of a non-2xx answer: from its envelope, or (a proxy's page, an empty body) from its status alone. */
function apiError(response: Response, json: unknown, requestId: string | undefined): SigningApiError {
  const wait = retryAfterMs(response);
  // A 409 that says when to come back (an Idempotency-Key still in flight) is settled by retrying.
  const retryable = RETRYABLE_STATUSES.has(response.status) || (response.status === 409 && wait !== undefined);
  const envelope = checkErrorEnvelope(json);
  if (envelope.success) {
    const { code, message, details } = envelope.data.error;
    return new SigningApiError({
      code,
      status: response.status,
      message,
      details,
      requestId: envelope.data.meta.requestId ?? requestId,
      retryable,
      retryAfterMs: wait,
    });
  }
  const code = codeForStatus(response.status);
  const message = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return new SigningApiError({ code, status: response.status, message, requestId, retryable, retryAfterMs: wait });
}

/** Codes a bare status never stands for: they say more than the status (and a bare 503 is a proxy's, not Signet's). */
const NOT_FROM_STATUS: ReadonlySet<ErrorCode> = new Set(['NOT_FOUND', 'EXPIRED_API_KEY', 'SERVICE_UNAVAILABLE']);

function codeForStatus(status: number): ErrorCode {
  if (status === 404 || status === 405) return 'NOT_FOUND';
  const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find(
    (candidate) => ERROR_STATUS[candidate] === status && !NOT_FROM_STATUS.has(candidate),
  );
  return code ?? (status >= 400 && status < 500 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
