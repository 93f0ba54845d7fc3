/**
 * Why a seal failed, and whether trying again later may succeed: a timestamp authority that did not answer is
 * retried with backoff; a PDF that cannot be drawn on, a wrong P12 password or an expired certificate is not (the job
 * is marked `failed` at once, and `signet jobs retry` runs it again once the cause is fixed).
 * @example throw new SealError('The timestamp authority did not answer: HTTP 500', { retryable: true })
 */
export class SealError extends Error {
  readonly retryable: boolean;

  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'SealError';
    this.retryable = options.retryable;
  }
}
