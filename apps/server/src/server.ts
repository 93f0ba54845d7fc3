import { createApp } from './app.js';
import type { Config } from './config.js';
import { createHttpServer } from './http/node-server.js';
import { createLogger, type Logger } from './logger.js';
import { createRateLimits } from './rate-limit/index.js';
import { resolveSecret } from './secret.js';
import { openStorage } from './storage/index.js';
import { createPdfPool } from './pdf-worker/index.js';
import { startJobs } from './jobs/start.js';
import { createMetrics } from './metrics/metrics.js';
import { constants } from 'node:os';

export interface RunningServer {
  url: string;
  /**
   * Stops taking connections and jobs, lets in-flight requests and jobs finish within `SHUTDOWN_TIMEOUT_MS` (jobs
   * still running then are given back to the queue, due at once), then closes the PDF pool, storage and Redis.
   */
  close(): Promise<void>;
}

/**
 * Starts the API on `config.host:config.port` (0 picks a free port): storage migrated, rate limits on Redis when
 * configured. SIGTERM and SIGINT close it gracefully when `handleSignals` is set, and exit 0; a second signal exits
 * at once.
 * @example const server = await startServer({ config: loadConfig() }); console.log(server.url)
 */
export async function startServer(options: {
  config: Config;
  logger?: Logger;
  handleSignals?: boolean;
}): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const secret = await resolveSecret(config);
  const storage = await openStorage(config.databaseUrl);
  const rateLimits = createRateLimits({
    redisUrl: config.redisUrl,
    authFailuresPerWindow: config.authFailuresPerMinute,
    logger,
  });
  const pdfPool = createPdfPool(config.pdfPool);
  pdfPool.warm();
  const metrics = createMetrics({ db: storage.db, pdfPool, observePool: true, processMetrics: true, logger });
  // The one job runner: seals completed submissions unless SEAL_WORKER=false, and sends webhook events unless
  // WEBHOOK_DISPATCHER=false (both left to `signet worker` then). Deliveries yield to the requests this server is
  // answering (`activity`): they wait, durably, while clients do not.
  const activity = { inFlight: 0, started: 0 };
  const { sealing, webhooks } = config;
  const jobs =
    sealing.worker || webhooks.dispatcher
      ? await startJobs({ config, storage, pdfPool, secret, logger, seal: sealing.worker, webhooks: webhooks.dispatcher, busy: () => activity.inFlight > 0, activity, observe: metrics.jobs })
      : undefined;
  const sealWorker = sealing.worker && jobs ? { wake: () => jobs.wake('seal') } : undefined;
  const webhookDispatcher = webhooks.dispatcher && jobs ? { wake: () => jobs.wake('webhook') } : undefined;
  let shuttingDown = false;
  const app = createApp(
    { storage, rateLimits, config, secret, logger, pdfPool, sealWorker, webhookDispatcher, activity, metrics },
    { isShuttingDown: () => shuttingDown },
  );

  const server = createHttpServer(app.fetch, { limits: config.connections, logger, hostname: config.host });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, storage: storage.engine, rateLimits: rateLimits.backend }, 'signet server listening');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      shuttingDown = true;
      const limitMs = config.shutdownTimeoutMs;
      logger.info({ limitMs }, 'shutting down: finishing in-flight requests and jobs');
      // From now on no job is taken; the ones under way have until the limit, then go back to the queue, due at once,
      // for another instance (their leases released rather than left to run out).
      const jobsStopped = jobs?.stop({ graceMs: limitMs }).then(({ released }) => {
        if (released > 0) logger.warn({ released }, 'jobs still running at the shutdown limit were given back to the queue');
      });
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // A keep-alive connection goes idle once its request is answered; close each as it does, rather than
      // waiting for the client to hang up.
      const reaper = setInterval(() => server.closeIdleConnections(), 50);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs).unref()));
      await Promise.race([drained, timeout]);
      clearTimeout(timer);
      clearInterval(reaper);
      server.closeAllConnections();
      await jobsStopped;
      metrics.close();
      await pdfPool.close();
      await storage.close();
      await rateLimits.close();
      logger.info('stopped');
      logger.flush();
    })());

  if (options.handleSignals) {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        // Asked twice: the operator does not want to wait for the in-flight work.
        logger.warn({ signal }, 'second signal: exiting without finishing in-flight work');
        logger.flush();
        process.exit(128 + (constants.signals[signal] ?? 0));
      }
      signalled = true;
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          logger.flush();
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
  return { url, close };
}
