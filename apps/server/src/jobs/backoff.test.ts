import { describe, expect, it } from 'vitest';
import { retryDelay, withJitter, type BackoffPolicy } from './backoff.js';

const exponential: BackoffPolicy = { kind: 'exponential', baseMs: 1000, maxMs: 60_000, maxAttempts: 10, jitter: 0.2 };
const schedule: BackoffPolicy = { kind: 'schedule', delaysMs: [0, 5000, 300_000], jitter: 0.1 };

describe('the jobs backoff', () => {
  it('spreads each delay within ±jitter of itself, from the lowest to the highest random number', () => {
    expect(withJitter(1000, 0.1, () => 0)).toBe(900);
    expect(withJitter(1000, 0.1, () => 0.5)).toBe(1000);
    expect(withJitter(1000, 0.1, () => 0.999999)).toBeCloseTo(1100, 2);
    for (let i = 0; i < 1000; i++) {
      const delay = retryDelay(exponential, 3)!;
      expect(delay).toBeGreaterThanOrEqual(3200);
      expect(delay).toBeLessThanOrEqual(4800);
    }
  });

  it('doubles from the base, never past the ceiling, jitter included; exact without jitter', () => {
    const exact = { ...exponential, jitter: 0 };
    expect([1, 2, 3, 4].map((n) => retryDelay(exact, n))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelay(exact, 9)).toBe(60_000);
    expect(retryDelay(exponential, 9, { random: () => 0.999 })).toBe(60_000);
    expect(retryDelay(exponential, 6, { random: () => 0 })).toBe(25_600);
  });

  it('is used up after the last attempt: null, and the runner marks the job dead', () => {
    expect(retryDelay(exponential, 9)).not.toBeNull();
    expect(retryDelay(exponential, 10)).toBeNull();
    expect(retryDelay(schedule, 2, { random: () => 0.5 })).toBe(300_000);
    expect(retryDelay(schedule, 3)).toBeNull();
  });

  it('lets a requested delay postpone an attempt, at most by a day, never bring it forward', () => {
    expect(retryDelay(schedule, 1, { requestedMs: 60_000, random: () => 0.5 })).toBe(60_000);
    expect(retryDelay(schedule, 1, { requestedMs: 10, random: () => 0.5 })).toBe(5000);
    expect(retryDelay(schedule, 1, { requestedMs: 10 * 86_400_000, random: () => 0.5 })).toBe(86_400_000);
  });
});
