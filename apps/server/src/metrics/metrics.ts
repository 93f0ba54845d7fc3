import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { jobStats } from '../jobs/admin.js';
import { jobQueues } from '../jobs/queues.js';
import type { JobObservers } from '../jobs/start.js';
import { JOB_STATES } from '../jobs/types.js';
import type { Logger } from '../logger.js';
import type { PdfPool, PdfPoolEvent } from '../pdf/pool/index.js';
import type { SqlDatabase } from '../storage/sql-database.js';

/*
 * The server's Prometheus metrics (docs/decisions.md, "Operations: metrics, readiness, shutdown"), one registry per
 * server: counters and histograms updated as requests are answered, PDF tasks end and jobs end; the PDF queue and
 * the job queues read when scraped. Names and labels are kept few, so that no label takes unbounded values: a
 * request is counted under its route's pattern, never its path.
 */

const HTTP_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const PDF_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const SEAL_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface MetricsOptions {
  /** Whose job queues are counted when scraped (seals, webhook deliveries, the generic `jobs` table). */
  db: SqlDatabase;
  /** The PDF pool whose queue is read when scraped and, with `observePool`, whose tasks and kills are counted. */
  pdfPool: PdfPool;
  /** Counts the pool's task ends, refusals and kills (`PdfPool.observe`); off for apps that share a pool. */
  observePool?: boolean;
  /** Adds Node's process metrics (CPU, memory, event-loop lag, GC: prom-client's defaults). */
  processMetrics?: boolean;
  /** Where a failed read of the job queues is logged. */
  logger?: Logger;
  now?: () => Date;
}

/**
 * One server's metrics: `http()` counts requests, `jobs` is told how seals and webhook attempts end, and `text()`
 * is the Prometheus exposition `GET /metrics` answers.
 * @example const metrics = createMetrics({ db: storage.db, pdfPool, observePool: true }); app.use('*', metrics.http());
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #options: MetricsOptions;
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #requestSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly #pdfQueued: Gauge;
  readonly #pdfRunning: Gauge;
  readonly #pdfTaskSeconds: Histogram<'task' | 'outcome'>;
  readonly #pdfRefused: Counter<'task'>;
  readonly #pdfKills: Counter<'limit'>;
  readonly #jobs: Gauge<'kind' | 'state'>;
  readonly #jobsOldestDue: Gauge<'kind'>;
  readonly #webhookAttempts: Counter<'outcome'>;
  readonly #seals: Counter<'outcome'>;
  readonly #sealSeconds: Histogram;
  /** Told how seals and webhook attempts end (`startJobs({ observe })`). */
  readonly jobs: Required<JobObservers>;
  #stopObserving: () => void = () => {};

  constructor(options: MetricsOptions) {
    this.#options = options;
    const registers = [this.registry];
    this.#requests = new Counter({ name: 'signet_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.#requestSeconds = new Histogram({
      name: 'signet_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_SECONDS,
      registers,
    });
    this.#pdfQueued = new Gauge({ name: 'signet_pdf_queue_depth', help: 'PDF tasks waiting for a worker', registers });
    this.#pdfRunning = new Gauge({ name: 'signet_pdf_tasks_running', help: 'PDF tasks running in a worker', registers });
    this.#pdfTaskSeconds = new Histogram({
      name: 'signet_pdf_task_duration_seconds',
      help: 'Wall time of a PDF task from when a worker took it, by task and outcome (ok, failed, time, memory, image, crashed)',
      labelNames: ['task', 'outcome'],
      buckets: PDF_SECONDS,
      registers,
    });
    this.#pdfRefused = new Counter({ name: 'signet_pdf_tasks_refused_total', help: 'PDF tasks refused as busy (queue full, or waited too long)', labelNames: ['task'], registers });
    this.#pdfKills = new Counter({ name: 'signet_pdf_worker_kills_total', help: 'PDF workers killed at a limit (time: a timeout, memory)', labelNames: ['limit'], registers });
    this.#jobs = new Gauge({ name: 'signet_jobs', help: 'Jobs by kind and state (read from the database when scraped)', labelNames: ['kind', 'state'], registers });
    this.#jobsOldestDue = new Gauge({ name: 'signet_jobs_oldest_due_age_seconds', help: 'How long the oldest due pending job of each kind has waited (0: none is due)', labelNames: ['kind'], registers });
    this.#webhookAttempts = new Counter({ name: 'signet_webhook_attempts_total', help: 'Webhook delivery attempts by outcome (delivered, failed: retried later, dead)', labelNames: ['outcome'], registers });
    this.#seals = new Counter({ name: 'signet_seals_total', help: 'Seal attempts by outcome (sealed, retry, failed)', labelNames: ['outcome'], registers });
    this.#sealSeconds = new Histogram({ name: 'signet_seal_duration_seconds', help: 'Time a seal took in the PDF pool, for sealed documents', buckets: SEAL_SECONDS, registers });
    this.jobs = {
      sealEnded: (end) => {
        this.#seals.inc({ outcome: end.outcome });
        if (end.outcome === 'sealed') this.#sealSeconds.observe(end.ms / 1000);
      },
      webhookAttempt: (outcome) => this.#webhookAttempts.inc({ outcome }),
    };
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    if (options.observePool) this.#stopObserving = options.pdfPool.observe((event) => this.#poolEvent(event));
  }

  /** The media type of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * Hono middleware counting each answered request under its method, its route's pattern (`/documents/:id`; the
   * app's 404 and 405 are `unmatched`) and its status, with its duration.
   */
  http(): MiddlewareHandler {
    const requests = this.#requests;
    const seconds = this.#requestSeconds;
    // The counter and histogram bound to each label set, found by one string: prom-client hashes a label object on
    // every call, which on the hottest GET cost about a quarter of its throughput (docs/decisions.md, "Operations").
    const bound = new Map<string, { count: () => void; time: (seconds: number) => void }>();
    return async function countRequest(c, next) {
      const started = performance.now();
      try {
        await next();
      } finally {
        const method = METHODS.has(c.req.method) ? c.req.method : 'OTHER';
        const route = routeOf(c);
        const status = c.res.status;
        const key = `${method} ${status} ${route}`;
        let series = bound.get(key);
        if (!series) {
          const labels = { method, route, status: String(status) };
          const counter = requests.labels(labels);
          const histogram = seconds.labels(labels);
          series = { count: () => counter.inc(), time: (value) => histogram.observe(value) };
          bound.set(key, series);
        }
        series.count();
        series.time((performance.now() - started) / 1000);
      }
    };
  }

  /** The Prometheus text exposition, with the PDF queue and the job queues read now. */
  async text(): Promise<string> {
    const pool = this.#options.pdfPool.stats();
    this.#pdfQueued.set(pool.queued);
    this.#pdfRunning.set(pool.running);
    this.#jobs.reset();
    this.#jobsOldestDue.reset();
    try {
      for (const kind of await jobStats(this.#options.db, jobQueues(), this.#options.now?.() ?? new Date())) {
        for (const state of JOB_STATES) this.#jobs.set({ kind: kind.kind, state }, kind.counts[state]);
        this.#jobsOldestDue.set({ kind: kind.kind }, kind.oldestDueMs / 1000);
      }
    } catch (error) {
      // The database does not answer: the job gauges are left out of this scrape (`/readyz` says why).
      this.#options.logger?.warn({ err: error }, 'metrics: could not count the jobs');
    }
    return this.registry.metrics();
  }

  /** Stops counting the pool's events (a server that closes). */
  close(): void {
    this.#stopObserving();
  }

  #poolEvent(event: PdfPoolEvent): void {
    if (event.type === 'task') this.#pdfTaskSeconds.observe({ task: event.kind, outcome: event.outcome }, event.ms / 1000);
    else if (event.type === 'busy') this.#pdfRefused.inc({ task: event.kind });
    else this.#pdfKills.inc({ limit: event.limit });
  }
}

/** A request's route pattern: the last matched route that is not middleware; `unmatched` for the app's 404 and 405. */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const routes = matchedRoutes(c);
  for (let index = routes.length - 1; index >= 0; index--) {
    if (routes[index]!.method !== 'ALL') return routes[index]!.path;
  }
  // Only middleware matched: the app's own 404 or 405, or a CORS preflight answered by middleware (its pattern).
  return c.res.status === 404 || c.res.status === 405 ? 'unmatched' : (routes.at(-1)?.path ?? 'unmatched');
}

/** A server's metrics (`Metrics`). */
export function createMetrics(options: MetricsOptions): Metrics {
  return new Metrics(options);
}
