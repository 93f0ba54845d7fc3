import { describe, expect, it } from 'vitest';
import { signedCopyPollDelay } from './poll-schedule.js';

/** The waits of a policy until it gives up. */
function schedule(policy: Parameters<typeof signedCopyPollDelay>[1]): number[] {
  const waits: number[] = [];
  for (let asked = 0; ; asked++) {
    const wait = signedCopyPollDelay(asked, policy);
    if (wait === false) return waits;
    waits.push(wait);
  }
}

describe('signedCopyPollDelay', () => {
  it('waits 1 s, then twice as long each time up to 30 s, and stops after ten minutes of waiting', () => {
    const waits = schedule({});
    expect(waits.slice(0, 7)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(Math.max(...waits)).toBe(30_000);
    const total = waits.reduce((sum, wait) => sum + wait, 0);
    // The last wait is the one that reaches ten minutes: the ask after it is the last.
    expect(total).toBeGreaterThanOrEqual(600_000);
    expect(total - waits.at(-1)!).toBeLessThan(600_000);
  });

  it('a pause the server asked for is kept, without changing the schedule after it', () => {
    expect(signedCopyPollDelay(0, {}, 5_000)).toBe(5_000);
    expect(signedCopyPollDelay(4, {}, 5_000)).toBe(16_000);
    expect(signedCopyPollDelay(1, {})).toBe(2_000);
  });

  it('follows its options', () => {
    expect(schedule({ baseDelayMs: 100, maxDelayMs: 400, giveUpAfterMs: 1_000 })).toEqual([100, 200, 400, 400]);
    expect(signedCopyPollDelay(100, { giveUpAfterMs: Infinity })).toBe(30_000);
  });
});
