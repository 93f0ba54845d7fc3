import { SigningAbortError } from './errors.js';

/** How failed attempts are retried: `false` for never. */
export type RetryOptions = false | { retries?: number; baseDelayMs?: number; maxDelayMs?: number };

/** A retry policy with every member set. */
export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 8000 };

/** The longest `Retry-After` the client waits out; a server asking for more gets its error passed on instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

export function retryPolicy(options: RetryOptions | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, retries: 0 };
  return { ...DEFAULT_RETRY, ...options };
}

/**
 * Exponential backoff with full jitter: a random delay between 0 and `min(maxDelayMs, baseDelayMs × 2^attempt)`,
 * so that many clients failing together do not retry together.
 * @example backoffDelay(2, DEFAULT_RETRY) // somewhere in [0, 1000)
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

/** Resolves after `ms`, or rejects with {@link SigningAbortError} as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new SigningAbortError({ cause: signal.reason }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SigningAbortError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
