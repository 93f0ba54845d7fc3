import { MAX_REQUESTED_DELAY_MS, retryDelay } from '../jobs/backoff.js';

/** The longest `Retry-After` honoured: a day, the longest gap of the default schedule. */
export const MAX_RETRY_AFTER_MS = MAX_REQUESTED_DELAY_MS;

/** The ±10 % spread of the webhook schedule, so that a receiver that comes back is not hit by every retry at once. */
export const WEBHOOK_JITTER = 0.1;

/**
 * The delay before the next attempt of a delivery that has had `attemptsMade` attempts, or null when the schedule
 * is used up: the jobs' one backoff (`jobs/backoff.ts`) with the webhook schedule. `schedule[n]` is the delay before
 * attempt n + 1 (the first, 0, is the immediate one); an endpoint's `Retry-After` (at most a day) postpones it
 * further, never brings it forward.
 * @example nextAttemptDelay([0, 5000, 300000], 1, null) // ≈ 5000
 */
export function nextAttemptDelay(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  return retryDelay({ kind: 'schedule', delaysMs: schedule, jitter: WEBHOOK_JITTER }, attemptsMade, { requestedMs: retryAfterMs, random });
}
