import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { createApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { createRateLimits, type RateLimits } from '../../src/rate-limit/index.js';
import { openStorage } from '../../src/storage/index.js';
import { TEST_DATABASE_URL } from '../storage/test-engines.js';
import type { Storage } from '../../src/storage/types.js';

/** Two server instances (apps) on one PostgreSQL schema, as two processes behind a load balancer share one. */
export interface TwoInstances {
  storages: [Storage, Storage];
  apps: [{ app: ReturnType<typeof createApp> }, { app: ReturnType<typeof createApp> }];
  config: Config;
  logger: Logger;
  /** Closes both, then drops the schema. */
  close(): Promise<void>;
}

/**
 * Opens two apps on a new PostgreSQL schema with one server secret and a silent logger; `rateLimits(i)` gives each
 * its rate limits (default: in-process counters of its own).
 * @example const two = await twoInstances(); await call(two.apps[1], 'GET', '/healthz'); await two.close();
 */
export async function twoInstances(rateLimits: () => RateLimits = () => createRateLimits({})): Promise<TwoInstances> {
  const schema = `t_${randomBytes(8).toString('hex')}`;
  const secret = randomBytes(32).toString('hex');
  const config = loadConfig({ TRUST_PROXY: 'true' });
  const logger = createLogger('silent', new Writable({ write: (_chunk, _encoding, done) => done() }));
  const opened: Array<{ storage: Storage; limits: RateLimits }> = [];
  for (let i = 0; i < 2; i++) opened.push({ storage: await openStorage(TEST_DATABASE_URL, { pgSchema: schema }), limits: rateLimits() });
  const [first, second] = opened.map(({ storage, limits }) => ({
    storage,
    app: { app: createApp({ storage, rateLimits: limits, config, secret, logger }) },
  })) as [{ storage: Storage; app: { app: ReturnType<typeof createApp> } }, { storage: Storage; app: { app: ReturnType<typeof createApp> } }];
  return {
    storages: [first.storage, second.storage],
    apps: [first.app, second.app],
    config,
    logger,
    async close() {
      for (const { storage, limits } of opened) {
        await limits.close();
        await storage.close();
      }
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}
