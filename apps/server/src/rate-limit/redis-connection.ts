import { Redis } from 'ioredis';

/** Where the rate limits report Redis trouble; a pino logger fits. */
export interface RateLimitLogger {
  warn(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
}

/** A Redis connection that fails fast, so the rate limits can fall back to in-process counters at once. */
export interface RedisConnection {
  readonly client: Redis;
  /** Pending until the first connection attempt has succeeded or failed; `null` afterwards. */
  readonly connecting: Promise<void> | null;
  /** Tells that a counter operation was served from memory. Called on every request of an outage: stays cheap. */
  noteFallback(): void;
  /** Quits (or, when not connected, drops) the connection. Idempotent. */
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 1_000;
const COMMAND_TIMEOUT_MS = 500;
const WARN_INTERVAL_MS = 30_000;

/**
 * Opens the connection the Redis-backed rate limits use, and reports outages through `logger` (at most one warning
 * every 30 s, then one line when Redis is back). The URL's password never reaches the log.
 * @example
 * const connection = connectRedis('redis://127.0.0.1:6379', logger)
 * await connection.close()
 */
export function connectRedis(url: string, logger: RateLimitLogger | undefined): RedisConnection {
  const client = new Redis(url, {
    // Commands issued while disconnected must fail at once rather than queue, so the insurance limiter answers.
    enableOfflineQueue: false,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
  });
  const redis = describeRedis(url);

  let outage = false;
  let warnedThisOutage = false;
  let lastWarnAt = Number.NEGATIVE_INFINITY;
  let everReady = false;
  let closed = false;
  let closing: Promise<void> | null = null;

  const warn = (obj: object, msg: string) => {
    const now = Date.now();
    if (closed || now - lastWarnAt < WARN_INTERVAL_MS) return;
    lastWarnAt = now;
    if (outage) warnedThisOutage = true;
    logger?.warn({ redis, ...obj }, msg);
  };

  const startOutage = (err: Error | undefined) => {
    outage = true;
    warn(
      err ? { err: { message: err.message, code: (err as NodeJS.ErrnoException).code } } : { status: client.status },
      'Redis unreachable: rate-limit counters fall back to in-process memory',
    );
  };

  // Without an 'error' listener ioredis reports every failed reconnection attempt on its own.
  client.on('error', (err: Error) => startOutage(err));
  client.on('ready', () => {
    if (!everReady) logger?.info?.({ redis }, 'Redis connected: rate-limit counters are shared');
    else if (outage && warnedThisOutage) {
      logger?.info?.({ redis }, 'Redis reachable again: rate-limit counters are shared again');
    }
    everReady = true;
    outage = false;
    warnedThisOutage = false;
  });

  let settleConnecting: () => void = () => {};
  let connecting: Promise<void> | null = new Promise<void>((resolve) => {
    const timer = setTimeout(() => settleConnecting(), CONNECT_TIMEOUT_MS + 250);
    timer.unref();
    settleConnecting = () => {
      clearTimeout(timer);
      client.off('ready', settleConnecting);
      client.off('error', settleConnecting);
      client.off('end', settleConnecting);
      connecting = null;
      resolve();
    };
    client.on('ready', settleConnecting);
    client.on('error', settleConnecting);
    client.on('end', settleConnecting);
  });

  return {
    client,
    get connecting() {
      return connecting;
    },
    noteFallback() {
      if (closed || Date.now() - lastWarnAt < WARN_INTERVAL_MS) return;
      if (client.status !== 'ready') startOutage(undefined);
      else warn({}, 'A Redis rate-limit command failed or timed out: counted in process memory instead');
    },
    close() {
      closing ??= (async () => {
        closed = true;
        settleConnecting();
        if (client.status === 'ready') {
          try {
            await client.quit();
            return;
          } catch {
            // The connection broke while quitting: dropping it below is all that is left to do.
          }
        }
        client.disconnect();
      })();
      return closing;
    },
  };
}

/** The URL without its credentials, for logs. */
function describeRedis(url: string): string {
  try {
    const { protocol, hostname, port } = new URL(url);
    return `${protocol}//${hostname}${port ? `:${port}` : ''}`;
  } catch {
    return 'redis (unparsable URL)';
  }
}
