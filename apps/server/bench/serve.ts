import { loadConfig } from '../src/config.js';
import { createLogger, logDestination } from '../src/logger.js';
import { startServer } from '../src/server.js';

/*
 * The real server for the benchmark, run as a child process so that it has a core of its own. Configuration comes
 * from the environment (DATABASE_URL); it listens on a free loopback port and prints `{"url": …}` as one line on
 * stdout. Its request log stays on, as in production, but goes to BENCH_SERVER_LOG (default /dev/null) through the
 * same destination the default logger uses, so that stdout carries only the URL line. BENCH_LOG_LEVEL=warn turns the
 * request log off, to measure what it costs (docs/benchmarks.md).
 * SIGTERM closes it gracefully.
 */
const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' });
const destination = logDestination(process.env.BENCH_SERVER_LOG ?? '/dev/null');
const logger = createLogger(config.logLevel, destination);
const server = await startServer({ config, logger, handleSignals: true });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
