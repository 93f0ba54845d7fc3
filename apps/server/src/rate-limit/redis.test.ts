import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL, redisAnswers, redisAvailable } from '../../test/support/redis.js';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createRateLimits, type RateLimits } from './index.js';

const REDIS_URL = TEST_REDIS_URL;
const UNREACHABLE_URL = 'redis://:not-to-be-logged@127.0.0.1:1';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const testLogger = () => ({ warn: vi.fn(), info: vi.fn() });

const opened: RateLimits[] = [];
const open = (options: Parameters<typeof createRateLimits>[0]) => {
  const rateLimits = createRateLimits(options);
  opened.push(rateLimits);
  return rateLimits;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((rateLimits) => rateLimits.close()));
});

describe.runIf(redisAvailable)('rate limits in Redis', () => {
  const keyPrefix = `signet-test:rl:${randomUUID()}`;
  // Fails fast rather than hanging when Redis is down in CI.
  const admin = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  admin.on('error', () => {}); // its failures surface as rejected commands

  afterAll(async () => {
    try {
      const keys = await admin.keys(`${keyPrefix}:*`);
      if (keys.length > 0) await admin.del(...keys);
    } finally {
      admin.disconnect();
    }
  });

  it(`reaches Redis at ${REDIS_URL}`, async () => {
    expect(await redisAnswers(REDIS_URL), 'Redis must answer PING (start it, or set SIGNET_TEST_REDIS_URL)').toBe(true);
  });

  it('shares one counter between two server instances', async () => {
    const logger = testLogger();
    const first = open({ redisUrl: REDIS_URL, keyPrefix, logger });
    const second = open({ redisUrl: REDIS_URL, keyPrefix, logger });
    expect(first.backend).toBe('redis');
    expect(second.backend).toBe('redis');

    const decisions = [
      await first.consume('key_shared', 4),
      await second.consume('key_shared', 4),
      await first.consume('key_shared', 4),
      await second.consume('key_shared', 4),
    ];
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    const refused = await first.consume('key_shared', 4);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect((await second.consume('key_shared', 4)).allowed).toBe(false);
    // Both instances see the same window, give or take the rounding of a clock tick.
    expect(Math.abs(refused.reset - decisions[0]!.reset)).toBeLessThanOrEqual(1);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('keeps the counter in Redis under the key prefix, expiring with the window', async () => {
    const rateLimits = open({ redisUrl: REDIS_URL, keyPrefix });
    await rateLimits.consume('key_stored', 10);
    await rateLimits.consume('key_stored', 10);
    expect(await admin.get(`${keyPrefix}:key:key_stored`)).toBe('2');
    const ttl = await admin.pttl(`${keyPrefix}:key:key_stored`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('starts a new window once the fixed window has passed', async () => {
    const rateLimits = open({ redisUrl: REDIS_URL, keyPrefix, windowSeconds: 1 });
    expect((await rateLimits.consume('key_window', 1)).allowed).toBe(true);
    expect((await rateLimits.consume('key_window', 1)).allowed).toBe(false);
    await sleep(1_100);
    expect((await rateLimits.consume('key_window', 1)).allowed).toBe(true);
  });

  it('shares failed authentications per IP between instances', async () => {
    const first = open({ redisUrl: REDIS_URL, keyPrefix, authFailuresPerWindow: 2 });
    const second = open({ redisUrl: REDIS_URL, keyPrefix, authFailuresPerWindow: 2 });
    await first.recordAuthFailure('198.51.100.4');
    expect((await second.authFailureStatus('198.51.100.4')).blocked).toBe(false);
    await second.recordAuthFailure('198.51.100.4');
    const status = await first.authFailureStatus('198.51.100.4');
    expect(status.blocked).toBe(true);
    expect(status.retryAfter).toBeGreaterThanOrEqual(1);
    expect((await second.authFailureStatus('198.51.100.5')).blocked).toBe(false);
  });
});

describe('rate limits when Redis is unreachable', () => {
  it('never throws, enforces the limit in memory and warns once, not per request', async () => {
    const logger = testLogger();
    const rateLimits = open({ redisUrl: UNREACHABLE_URL, logger });
    expect(rateLimits.backend).toBe('redis');

    const decisions = [];
    for (let i = 0; i < 50; i++) decisions.push(await rateLimits.consume('key_down', 3));
    expect(decisions.slice(0, 4).map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions.slice(3).every((d) => !d.allowed && d.retryAfter >= 1)).toBe(true);

    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![1]).toMatch(/Redis unreachable.*in-process memory/);
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain('not-to-be-logged');
  });

  it('counts failed authentications in memory', async () => {
    const rateLimits = open({ redisUrl: UNREACHABLE_URL, authFailuresPerWindow: 2, logger: testLogger() });
    await rateLimits.recordAuthFailure('192.0.2.1');
    await rateLimits.recordAuthFailure('192.0.2.1');
    expect((await rateLimits.authFailureStatus('192.0.2.1')).blocked).toBe(true);
    expect((await rateLimits.authFailureStatus('192.0.2.2')).blocked).toBe(false);
  });

  it('closes more than once, and keeps counting in memory after closing', async () => {
    const logger = testLogger();
    const rateLimits = open({ redisUrl: UNREACHABLE_URL, logger });
    await rateLimits.consume('key_closed', 1);
    await rateLimits.close();
    await rateLimits.close();
    expect((await rateLimits.consume('key_closed', 1)).allowed).toBe(false);
    expect(logger.warn.mock.calls.length).toBeLessThanOrEqual(1);
  });
});
