/**
 * What the app and its domains work with (storage, settings, the PDF pool, the background workers), apart from
 * HTTP: routes, submissions and documents take an `AppContext`; Hono's own environment stays in `http/env.ts`.
 */
import type { Storage } from './storage/types.js';
import type { Config } from './config.js';
import type { RateLimits } from './rate-limit/index.js';
import type { Logger } from './logger.js';
import type { ReadCache } from './http/read-cache.js';
import type { PdfPool } from './pdf/pool/index.js';
import type { Metrics } from './metrics/metrics.js';

/** What the app is built from: storage, rate limits, settings, a logger and a clock. */
export interface AppDependencies {
  storage: Storage;
  rateLimits: RateLimits;
  config: Config;
  /** HMAC key of document tokens. */
  secret: string;
  logger: Logger;
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
  /** Where PDF work runs (default: the process's shared pool with default limits). */
  pdfPool?: PdfPool;
  /** The sealing worker of this process, woken when a submission enqueues a seal (absent: another process seals). */
  sealWorker?: { wake(): void };
  /** The webhook dispatcher of this process, woken when an endpoint is enabled again (absent: another process sends). */
  webhookDispatcher?: { wake(): void };
  /** Counts the requests being answered, for background work that yields to them (the webhook dispatcher). */
  activity?: RequestActivity;
  /** This server's metrics (default: new ones that count requests, the PDF queue and the jobs, not the pool's tasks). */
  metrics?: Metrics;
}

/** How many requests the app is answering right now. */
export interface RequestActivity {
  inFlight: number;
  /**
   * How many requests it has begun answering: on the embedded store a request may begin and end between two looks
   * at `inFlight`, which then never sees it (a bulk job's batches look for requests this way).
   */
  started?: number;
}

/** What routes and middleware work with: the dependencies plus what the app builds from them. */
export interface AppContext extends AppDependencies {
  reads: ReadCache;
  pdfPool: PdfPool;
  metrics: Metrics;
}
