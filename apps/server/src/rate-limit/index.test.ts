import { afterEach, describe, expect, it } from 'vitest';
import { createRateLimits, type RateLimits } from './index.js';

const nowSeconds = () => Date.now() / 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rate limits in memory', () => {
  const opened: RateLimits[] = [];
  const open = (options: Parameters<typeof createRateLimits>[0] = {}) => {
    const rateLimits = createRateLimits(options);
    opened.push(rateLimits);
    return rateLimits;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((rateLimits) => rateLimits.close()));
  });

  it('counts in process memory when no Redis URL is given', () => {
    expect(open().backend).toBe('memory');
  });

  it('allows `limit` requests per window, then refuses with remaining 0 and a Retry-After', async () => {
    const rateLimits = open();
    const before = nowSeconds();
    const allowed = [];
    for (let i = 0; i < 3; i++) allowed.push(await rateLimits.consume('key_a', 3));
    expect(allowed.map((d) => [d.allowed, d.remaining, d.limit, d.retryAfter])).toEqual([
      [true, 2, 3, 0],
      [true, 1, 3, 0],
      [true, 0, 3, 0],
    ]);

    const refused = await rateLimits.consume('key_a', 3);
    expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    expect(refused.reset).toBeGreaterThan(before);
    expect(refused.reset).toBeLessThanOrEqual(Math.ceil(before) + 61);
    expect(refused.reset).toBe(allowed[0]!.reset);
    // Requests past the limit keep the window where it was and never go below zero.
    const again = await rateLimits.consume('key_a', 3);
    expect(again).toMatchObject({ allowed: false, remaining: 0, reset: refused.reset });
  });

  it('keeps separate counters for separate keys', async () => {
    const rateLimits = open();
    expect((await rateLimits.consume('key_a', 1)).allowed).toBe(true);
    expect((await rateLimits.consume('key_a', 1)).allowed).toBe(false);
    expect(await rateLimits.consume('key_b', 1)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('lets keys with different limits coexist', async () => {
    const rateLimits = open();
    const small = [];
    const large = [];
    for (let i = 0; i < 5; i++) {
      small.push(await rateLimits.consume('key_small', 2));
      large.push(await rateLimits.consume('key_large', 5));
    }
    expect(small.map((d) => d.allowed)).toEqual([true, true, false, false, false]);
    expect(large.map((d) => d.allowed)).toEqual([true, true, true, true, true]);
    expect(large.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
    expect((await rateLimits.consume('key_large', 5)).allowed).toBe(false);
  });

  it('starts a new window once the fixed window has passed', async () => {
    const rateLimits = open({ windowSeconds: 1 });
    expect((await rateLimits.consume('key_a', 1)).allowed).toBe(true);
    const refused = await rateLimits.consume('key_a', 1);
    expect(refused).toMatchObject({ allowed: false, retryAfter: 1 });
    await sleep(1_100);
    expect(await rateLimits.consume('key_a', 1)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('refuses a limit that is not a non-negative whole number', async () => {
    const rateLimits = open();
    await expect(rateLimits.consume('key_a', -1)).rejects.toThrow(RangeError);
    await expect(rateLimits.consume('key_a', 1.5)).rejects.toThrow(RangeError);
    expect((await rateLimits.consume('key_a', 0)).allowed).toBe(false);
  });

  it('rejects a window or failure cap that is not a positive whole number', () => {
    expect(() => createRateLimits({ windowSeconds: 0 })).toThrow(/windowSeconds/);
    expect(() => createRateLimits({ windowSeconds: 1.5 })).toThrow(/windowSeconds/);
    expect(() => createRateLimits({ authFailuresPerWindow: 0 })).toThrow(/authFailuresPerWindow/);
  });

  it('blocks an IP once it has `authFailuresPerWindow` failed authentications, and only that IP', async () => {
    const rateLimits = open({ authFailuresPerWindow: 3 });
    expect(await rateLimits.authFailureStatus('203.0.113.7')).toMatchObject({ blocked: false, retryAfter: 0 });
    for (let i = 0; i < 2; i++) await rateLimits.recordAuthFailure('203.0.113.7');
    expect((await rateLimits.authFailureStatus('203.0.113.7')).blocked).toBe(false);

    await rateLimits.recordAuthFailure('203.0.113.7');
    const blocked = await rateLimits.authFailureStatus('203.0.113.7');
    expect(blocked.blocked).toBe(true);
    expect(blocked.retryAfter).toBeGreaterThanOrEqual(1);
    expect(blocked.retryAfter).toBeLessThanOrEqual(60);
    expect(blocked.reset).toBeGreaterThan(nowSeconds());

    expect((await rateLimits.authFailureStatus('2001:db8::1')).blocked).toBe(false);
  });

  it('lifts the auth-failure block when the window ends', async () => {
    const rateLimits = open({ authFailuresPerWindow: 1, windowSeconds: 1 });
    await rateLimits.recordAuthFailure('203.0.113.8');
    expect((await rateLimits.authFailureStatus('203.0.113.8')).blocked).toBe(true);
    await sleep(1_100);
    expect((await rateLimits.authFailureStatus('203.0.113.8')).blocked).toBe(false);
  });

  it('closes more than once', async () => {
    const rateLimits = open();
    await rateLimits.close();
    await rateLimits.close();
  });
});
