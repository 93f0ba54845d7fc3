import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { connectRedis, type RateLimitLogger, type RedisConnection } from './redis-connection.js';

export type { RateLimitLogger } from './redis-connection.js';

/** The answer to one request of an API key, with what the `X-RateLimit-*` and `Retry-After` headers need. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window; 0 when refused, never negative. */
  remaining: number;
  /** Unix seconds at which the window resets */
  reset: number;
  /** seconds to wait when not allowed (at least 1); 0 when allowed */
  retryAfter: number;
}

/** Whether a client IP may still try to authenticate. */
export interface AuthFailureStatus {
  blocked: boolean;
  /** Seconds until the IP may try again when blocked (at least 1); 0 otherwise. */
  retryAfter: number;
  /** Unix seconds at which the IP's failure window ends (now when it has no failures on record). */
  reset: number;
}

/** Fixed-window counters per API key and per client IP, in process memory or in Redis. */
export interface RateLimits {
  /** One request by API key `keyId`, whose limit is `limit` requests per window (fixed 60 s window by default). */
  consume(keyId: string, limit: number): Promise<RateLimitDecision>;
  /**
   * Failed authentications per client IP: whether this IP is currently blocked, which it is once it has
   * `authFailuresPerWindow` failures this window (so at most that many failed attempts get through per window).
   */
  authFailureStatus(ip: string): Promise<AuthFailureStatus>;
  /** Counts one failed authentication from `ip`. */
  recordAuthFailure(ip: string): Promise<void>;
  /** Where the counters live as configured; during a Redis outage a `'redis'` backend counts in memory. */
  readonly backend: 'memory' | 'redis';
  /**
   * Whether the counters' Redis answers now (`PING`, within the connection's command timeout): resolves, or rejects
   * with why not; the memory backend always resolves. For `/readyz`.
   */
  ping(): Promise<void>;
  /** Disconnects from Redis. Idempotent; counting still works (in memory) afterwards. */
  close(): Promise<void>;
}

export interface RateLimitsOptions {
  /** Counters in Redis, shared by every instance; unset: in process memory. */
  redisUrl?: string | undefined;
  /** Failed authentications allowed per client IP and window. Default 30. */
  authFailuresPerWindow?: number;
  /** Length of the fixed window, whole seconds. Default 60. */
  windowSeconds?: number;
  /** Prefix of the Redis keys. Default `'signet:rl'`. */
  keyPrefix?: string;
  /** Receives Redis outage warnings (throttled) and reconnection notices. */
  logger?: RateLimitLogger | undefined;
}

const DEFAULTS = { authFailuresPerWindow: 30, windowSeconds: 60, keyPrefix: 'signet:rl' };

/**
 * Creates the rate limits (docs/api.md, "Rate limits"): a fixed window per API key with the key's own limit, and a cap on failed
 * authentications per client IP. With `redisUrl` the counters live in Redis; when Redis is unreachable or errs every
 * call is answered from in-process counters instead (never an exception) and `logger.warn` says so.
 * @example
 * const rateLimits = createRateLimits({
 *   redisUrl: config.redisUrl,
 *   authFailuresPerWindow: config.authFailuresPerMinute,
 *   logger,
 * })
 * const decision = await rateLimits.consume(key.id, key.rateLimit)
 * if (!decision.allowed) {
 *   throw new ApiError('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded', {
 *     headers: { 'Retry-After': String(decision.retryAfter) },
 *   })
 * }
 * if ((await rateLimits.authFailureStatus(ip)).blocked) throw tooManyFailures
 * await rateLimits.recordAuthFailure(ip)
 */
export function createRateLimits(options: RateLimitsOptions = {}): RateLimits {
  const windowSeconds = options.windowSeconds ?? DEFAULTS.windowSeconds;
  const authFailuresPerWindow = options.authFailuresPerWindow ?? DEFAULTS.authFailuresPerWindow;
  const keyPrefix = options.keyPrefix ?? DEFAULTS.keyPrefix;
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) {
    throw new RangeError(`windowSeconds must be a positive whole number, got ${windowSeconds}`);
  }
  if (!Number.isInteger(authFailuresPerWindow) || authFailuresPerWindow < 1) {
    throw new RangeError(`authFailuresPerWindow must be a positive whole number, got ${authFailuresPerWindow}`);
  }

  const redis = options.redisUrl ? connectRedis(options.redisUrl, options.logger) : null;
  const logger = options.logger;
  // Every limit shares one key space, so a key whose limit changes keeps its count in Redis.
  const apiKeyPrefix = `${keyPrefix}:key`;
  const createLimiter = (points: number, prefix: string, blockInMemory: boolean): RateLimiterAbstract =>
    redis === null
      ? new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix: prefix })
      : new RateLimiterRedis({
          storeClient: redis.client,
          points,
          duration: windowSeconds,
          keyPrefix: prefix,
          rejectIfRedisNotReady: true,
          // A key over its limit is refused from memory until its window ends: a flood costs Redis nothing.
          ...(blockInMemory ? { inMemoryBlockOnConsumed: points + 1 } : {}),
          insuranceLimiter: new InsuranceLimiter({ points, duration: windowSeconds, keyPrefix: prefix }, redis),
        });

  const keyLimiters = new Map<number, RateLimiterAbstract>();
  const authLimiter = createLimiter(authFailuresPerWindow, `${keyPrefix}:auth`, false);
  let lastUnexpectedWarnAt = Number.NEGATIVE_INFINITY;

  // Only the insurance limiter's own failure lands here; it cannot fail, but a rate limiter must never cause a 500.
  const warnUnexpected = (err: unknown, operation: string) => {
    const now = Date.now();
    if (now - lastUnexpectedWarnAt < 30_000) return;
    lastUnexpectedWarnAt = now;
    const message = err instanceof Error ? err.message : String(err);
    logger?.warn({ err: message, operation }, 'Rate limiting failed: request let through');
  };

  const limiterFor = (limit: number): RateLimiterAbstract => {
    let limiter = keyLimiters.get(limit);
    if (limiter === undefined) {
      if (!Number.isInteger(limit) || limit < 0) {
        throw new RangeError(`A rate limit must be a non-negative whole number, got ${limit}`);
      }
      limiter = createLimiter(limit, apiKeyPrefix, true);
      keyLimiters.set(limit, limiter);
    }
    return limiter;
  };

  return {
    backend: redis === null ? 'memory' : 'redis',

    async consume(keyId, limit) {
      if (redis?.connecting) await redis.connecting;
      const limiter = limiterFor(limit);
      try {
        return toDecision(await limiter.consume(keyId), limit, true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return toDecision(rejection, limit, false);
        warnUnexpected(rejection, 'consume');
        const reset = Math.ceil(Date.now() / 1000) + windowSeconds;
        return { allowed: true, limit, remaining: limit, reset, retryAfter: 0 };
      }
    },

    async authFailureStatus(ip) {
      if (redis?.connecting) await redis.connecting;
      const now = Date.now();
      let failures: RateLimiterRes | null;
      try {
        failures = await authLimiter.get(ip);
      } catch (err) {
        warnUnexpected(err, 'authFailureStatus');
        failures = null;
      }
      if (failures === null || failures.msBeforeNext <= 0) {
        return { blocked: false, retryAfter: 0, reset: Math.ceil(now / 1000) };
      }
      const blocked = failures.consumedPoints >= authFailuresPerWindow;
      return {
        blocked,
        retryAfter: blocked ? Math.max(1, Math.ceil(failures.msBeforeNext / 1000)) : 0,
        reset: Math.ceil((now + failures.msBeforeNext) / 1000),
      };
    },

    async recordAuthFailure(ip) {
      if (redis?.connecting) await redis.connecting;
      try {
        await authLimiter.penalty(ip, 1);
      } catch (err) {
        warnUnexpected(err, 'recordAuthFailure');
      }
    },

    async ping() {
      if (redis === null) return;
      if (redis.connecting) await redis.connecting;
      // Commands fail at once while disconnected (no offline queue), so an unreachable Redis answers quickly too.
      await redis.client.ping();
    },

    close: () => (redis === null ? Promise.resolve() : redis.close()),
  };
}

function toDecision(res: RateLimiterRes, limit: number, allowed: boolean): RateLimitDecision {
  const msBeforeNext = res.msBeforeNext > 0 ? res.msBeforeNext : 0;
  return {
    allowed,
    limit,
    remaining: allowed ? res.remainingPoints : 0,
    reset: Math.ceil((Date.now() + msBeforeNext) / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil(msBeforeNext / 1000)),
  };
}

/**
 * The in-process counters a Redis limiter answers from when Redis fails. The library calls it only on failure, so
 * each call is the signal that a request was counted in memory.
 */
class InsuranceLimiter extends RateLimiterMemory {
  readonly #redis: RedisConnection;

  constructor(options: ConstructorParameters<typeof RateLimiterMemory>[0], redis: RedisConnection) {
    super(options);
    this.#redis = redis;
  }

  override consume(...args: Parameters<RateLimiterMemory['consume']>): Promise<RateLimiterRes> {
    this.#redis.noteFallback();
    return super.consume(...args);
  }

  override penalty(...args: Parameters<RateLimiterMemory['penalty']>): Promise<RateLimiterRes> {
    this.#redis.noteFallback();
    return super.penalty(...args);
  }

  override get(...args: Parameters<RateLimiterMemory['get']>): Promise<RateLimiterRes | null> {
    this.#redis.noteFallback();
    return super.get(...args);
  }
}
