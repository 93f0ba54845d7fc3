/*
 * When a failed job runs again: the one backoff of every job kind (docs/decisions.md, "One job runner"). A kind
 * chooses a policy (exponential, or a fixed schedule) and a jitter; the runner asks `retryDelay` after each failed
 * attempt and marks the job dead when it answers null.
 */

/** Doubling delays from `baseMs`, at most `maxMs`, for `maxAttempts` attempts in all. */
export interface ExponentialBackoff {
  kind: 'exponential';
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
  /** Spread of each delay, as a fraction (0.1: ±10 %); 0 keeps the delays exact. Never past `maxMs`. */
  jitter: number;
}

/** `delaysMs[n]` before attempt n + 1 (the first, usually 0, is the immediate one): as many attempts as delays. */
export interface ScheduleBackoff {
  kind: 'schedule';
  delaysMs: readonly number[];
  /** Spread of each delay, as a fraction (0.1: ±10 %). */
  jitter: number;
}

export type BackoffPolicy = ExponentialBackoff | ScheduleBackoff;

/** The longest wait a job may ask for on top of its backoff (an endpoint's `Retry-After`): a day. */
export const MAX_REQUESTED_DELAY_MS = 24 * 60 * 60 * 1000;

/** How many attempts a policy allows in all. */
export function maxAttempts(policy: BackoffPolicy): number {
  return policy.kind === 'exponential' ? policy.maxAttempts : policy.delaysMs.length;
}

/** `ms` spread by ±`jitter` of itself: a value in [ms × (1 − jitter), ms × (1 + jitter)). */
export function withJitter(ms: number, jitter: number, random: () => number = Math.random): number {
  return ms * (1 - jitter + 2 * jitter * random());
}

/**
 * The delay before the next attempt of a job that has had `attemptsMade` attempts, or null when the policy allows
 * no more. `requestedMs` (a receiver's `Retry-After`, at most a day) can only postpone it, never bring it forward.
 * @example retryDelay({ kind: 'exponential', baseMs: 2000, maxMs: 3_600_000, maxAttempts: 8, jitter: 0 }, 3) // 8000
 * @example retryDelay({ kind: 'schedule', delaysMs: [0, 5000, 300000], jitter: 0.1 }, 1) // ≈ 5000 (4500–5500)
 */
export function retryDelay(
  policy: BackoffPolicy,
  attemptsMade: number,
  options: { requestedMs?: number | null; random?: () => number } = {},
): number | null {
  if (attemptsMade >= maxAttempts(policy)) return null;
  const random = options.random ?? Math.random;
  const jittered =
    policy.kind === 'exponential'
      ? Math.min(policy.maxMs, withJitter(policy.baseMs * 2 ** Math.max(0, attemptsMade - 1), policy.jitter, random))
      : withJitter(policy.delaysMs[attemptsMade]!, policy.jitter, random);
  const requested = options.requestedMs == null ? 0 : Math.min(options.requestedMs, MAX_REQUESTED_DELAY_MS);
  return Math.round(Math.max(jittered, requested));
}
