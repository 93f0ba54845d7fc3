/**
 * How the viewer asks again for the signed copy of a completed document until the server has sealed it: after the
 * first ask `baseDelayMs`, then twice as long each time up to `maxDelayMs`, and not at all once the waits add up to
 * `giveUpAfterMs`. Time while the page is hidden does not count: no asks are made then.
 */
export interface SignedCopyPolling {
  /** The first wait, in ms (default 1,000). */
  baseDelayMs?: number;
  /** The longest wait, in ms (default 30,000). */
  maxDelayMs?: number;
  /** How long to keep asking, in ms of waits (default 600,000: ten minutes). */
  giveUpAfterMs?: number;
}

export const DEFAULT_SIGNED_COPY_POLLING: Required<SignedCopyPolling> = {
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  giveUpAfterMs: 600_000,
};

/** The wait before ask number `asked + 1`, regardless of giving up: `min(max, base × 2^asked)`. */
function backoff(asked: number, policy: Required<SignedCopyPolling>): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** asked);
}

/**
 * The wait before the next ask after `asked` asks (0 before the first), or `false` once the waits so far add up to
 * the policy's `giveUpAfterMs`. A server that asked for a longer pause (`Retry-After`, `retryAfterMs`) gets it.
 * @example signedCopyPollDelay(0, {}) // 1000
 * @example signedCopyPollDelay(3, {}) // 8000
 * @example signedCopyPollDelay(2, {}, 5000) // 5000
 * @example signedCopyPollDelay(40, {}) // false: ten minutes of asking are over
 */
export function signedCopyPollDelay(asked: number, options: SignedCopyPolling = {}, retryAfterMs?: number): number | false {
  const policy = { ...DEFAULT_SIGNED_COPY_POLLING, ...options };
  let waited = 0;
  for (let ask = 0; ask < asked; ask++) {
    waited += backoff(ask, policy);
    if (waited >= policy.giveUpAfterMs) return false;
  }
  return Math.max(backoff(asked, policy), retryAfterMs ?? 0);
}
