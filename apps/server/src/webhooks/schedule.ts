/** The longest `Retry-After` honoured: a day, the longest gap of the default schedule. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The delay before the next attempt of a delivery that has had `attemptsMade` attempts, or null when the schedule
 * is used up. `schedule[n]` is the delay before attempt n + 1 (the first, 0, is the immediate one), with ±10 %
 * jitter so that a receiver that comes back is not hit by every retry in the same second; an endpoint's
 * `Retry-After` (at most a day) postpones it further, never brings it forward.
 * @example nextAttemptDelay([0, 5000, 300000], 1, null) // ≈ 5000
 */
export function nextAttemptDelay(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  if (attemptsMade >= schedule.length) return null;
  const jittered = schedule[attemptsMade]! * (0.9 + 0.2 * random());
  const asked = retryAfterMs === null ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.round(Math.max(jittered, asked));
}
