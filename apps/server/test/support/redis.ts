import { Redis } from 'ioredis';

/** The Redis the tests use: `SIGNET_TEST_REDIS_URL`, or the local one of a development machine. */
export const TEST_REDIS_URL = process.env.SIGNET_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** True when Redis answers PING within a second. */
export async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Whether the Redis-backed tests run: always in CI (so they fail loudly without Redis), elsewhere when Redis
 * answers; the first caller that finds none says so once.
 */
export const redisAvailable: boolean = Boolean(process.env.CI) || (await redisAnswers(TEST_REDIS_URL));
if (!redisAvailable) {
  console.log(
    `Skipping the Redis-backed tests: no Redis answers at ${TEST_REDIS_URL} ` +
      '(set SIGNET_TEST_REDIS_URL to use another); they always run in CI.',
  );
}
