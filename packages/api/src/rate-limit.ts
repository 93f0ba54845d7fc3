/** The rate-limit headers of a response (docs/api.md, "Rate limits"). */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** When the window resets. */
  resetAt: Date;
}

/** The `X-RateLimit-*` headers of `headers`, or null when the response has none. */
export function readRateLimit(headers: Headers): RateLimitInfo | null {
  const limit = integer(headers.get('X-RateLimit-Limit'));
  const remaining = integer(headers.get('X-RateLimit-Remaining'));
  const reset = integer(headers.get('X-RateLimit-Reset'));
  if (limit === null || remaining === null || reset === null) return null;
  return { limit, remaining, resetAt: new Date(reset * 1000) };
}

/**
 * How long the server asked the client to wait, in ms: `Retry-After` (seconds or an HTTP date), else on a 429 the
 * time until `X-RateLimit-Reset`. Undefined when it did not say.
 */
export function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  const header = response.headers.get('Retry-After');
  if (header !== null) {
    const seconds = Number(header);
    if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  if (response.status === 429) {
    const reset = integer(response.headers.get('X-RateLimit-Reset'));
    if (reset !== null) return Math.max(0, reset * 1000 - now);
  }
  return undefined;
}

function integer(text: string | null): number | null {
  if (text === null || !/^\d+$/.test(text.trim())) return null;
  return Number(text);
}
