import { createApp } from './app.js';
import type { Config } from './config.js';
import { createHttpServer } from './http/node-server.js';
import { createLogger, type Logger } from './logger.js';
import { createRateLimits } from './rate-limit/index.js';
import { resolveSecret } from './secret.js';
import { openStorage } from './storage/index.js';
import { createPdfPool } from './pdf-worker/index.js';
import { startJobs } from './jobs/start.js';

export interface RunningServer {
  url: string;
  /** Stops taking connections, lets in-flight requests and seals finish, then closes storage and Redis. */
  close(): Promise<void>;
}

/**
 * Starts the API on `config.host:config.port` (0 picks a free port): storage migrated, rate limits on Redis when
 * configured. SIGTERM and SIGINT close it gracefully when `handleSignals` is set.
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
  // The one job runner: seals completed submissions unless SEAL_WORKER=false, and sends webhook events unless
  // WEBHOOK_DISPATCHER=false (both left to `signet worker` then). Deliveries yield to the requests this server is
  // answering (`activity`): they wait, durably, while clients do not.
  const activity = { inFlight: 0 };
  const { sealing, webhooks } = config;
  const jobs =
    sealing.worker || webhooks.dispatcher
      ? await startJobs({ config, storage, pdfPool, secret, logger, seal: sealing.worker, webhooks: webhooks.dispatcher, busy: () => activity.inFlight > 0 })
      : undefined;
  const sealWorker = sealing.worker && jobs ? { wake: () => jobs.wake('seal') } : undefined;
  const webhookDispatcher = webhooks.dispatcher && jobs ? { wake: () => jobs.wake('webhook') } : undefined;
  let shuttingDown = false;
  const app = createApp(
    { storage, rateLimits, config, secret, logger, pdfPool, sealWorker, webhookDispatcher, activity },
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
      logger.info('shutting down: finishing in-flight requests');
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // A keep-alive connection goes idle once its request is answered; close each as it does, rather than
      // waiting for the client to hang up.
      const reaper = setInterval(() => server.closeIdleConnections(), 50);
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownTimeoutMs).unref());
      await Promise.race([drained, timeout]);
      clearInterval(reaper);
      server.closeAllConnections();
      // Jobs under way end: a seal is durable once stored, a webhook attempt takes 15 s at most; one cut short is
      // taken over when its lease runs out.
      await jobs?.stop();
      await pdfPool.close();
      await storage.close();
      await rateLimits.close();
      logger.info('stopped');
      logger.flush();
    })());

  if (options.handleSignals) {
    const onSignal = () => void close().then(() => process.exit(0));
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return { url, close };
}
