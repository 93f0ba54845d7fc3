import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { createRateLimits, type RateLimits } from '../rate-limit/index.js';
import { MIGRATIONS } from '../storage/migrations.js';
import type { Storage } from '../storage/types.js';
import { call, capturingLogger, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { redisAvailable, TEST_REDIS_URL } from '../../test/support/redis.js';

interface Refusal {
  success: false;
  error: { code: string; message: string; details: { reason: string; checks: Record<string, string> } };
  meta: { requestId: string };
}

/** An app over `storage` and `rateLimits`, the rest from `t`. */
function appOver(t: TestApp, changes: { storage?: Storage; rateLimits?: RateLimits }, isShuttingDown?: () => boolean) {
  const app = createApp(
    { storage: t.storage, rateLimits: t.rateLimits, config: t.config, secret: randomBytes(32).toString('hex'), logger: capturingLogger().logger, ...changes },
    isShuttingDown ? { isShuttingDown } : {},
  );
  return { app };
}

async function notReady(response: Response): Promise<Refusal['error']> {
  expect(response.status).toBe(503);
  expect(response.headers.get('Retry-After')).toBe('5');
  const body = (await response.json()) as Refusal;
  expect(body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
  return body.error;
}

describe.each(engines)('GET /readyz on $name', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  it('is 200 when the store answers and every migration is applied (Redis not configured)', async () => {
    const response = await call(t, 'GET', '/readyz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', checks: { storage: 'ok', migrations: 'ok', redis: 'not configured' } });
    expect((await call(t, 'GET', '/readyz?verbose=1&x=%00')).status).toBe(200);
  });

  it('is 503 naming the migrations not applied', async () => {
    const last = MIGRATIONS.at(-1)!;
    await t.storage.db.query.deleteFrom('schema_migrations').where('version', '=', last.version).execute();
    try {
      const error = await notReady(await call(t, 'GET', '/readyz'));
      expect(error.message).toBe('Not ready: migrations');
      expect(error.details.checks).toEqual({ storage: 'ok', migrations: `pending: ${last.version} (signet migrate)`, redis: 'not configured' });
      expect(error.details.reason).toBe(`migrations: pending: ${last.version} (signet migrate)`);
    } finally {
      await t.storage.db.query.insertInto('schema_migrations').values({ version: last.version, name: last.name, applied_at: Date.now() }).execute();
    }
    expect((await call(t, 'GET', '/readyz')).status).toBe(200);
  });

  it('is 503 naming the store when it does not answer', async () => {
    const closed = await engine.open();
    await closed.close();
    const error = await notReady(await call(appOver(t, { storage: closed }), 'GET', '/readyz'));
    expect(error.message).toBe('Not ready: storage, migrations');
    expect(error.details.checks.storage).toMatch(/^failed: /);
    expect(error.details.checks.migrations).toMatch(/^failed: /);
  });

  it('is 503 while the server shuts down, as /healthz', async () => {
    const stopping = appOver(t, {}, () => true);
    expect((await call(stopping, 'GET', '/healthz')).status).toBe(503);
    const error = await notReady(await call(stopping, 'GET', '/readyz'));
    expect(error.details.checks).toMatchObject({ server: 'shutting down', storage: 'ok' });
  });
});

describe('GET /readyz with Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.runIf(redisAvailable)('is 200 when the configured Redis answers', async () => {
    const rateLimits = createRateLimits({ redisUrl: TEST_REDIS_URL });
    try {
      const response = await call(appOver(t, { rateLimits }), 'GET', '/readyz');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ready', checks: { storage: 'ok', migrations: 'ok', redis: 'ok' } });
    } finally {
      await rateLimits.close();
    }
  });

  it('is 503 naming Redis when the configured one is unreachable, and answers within the check limit', async () => {
    const rateLimits = createRateLimits({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const started = performance.now();
      const error = await notReady(await call(appOver(t, { rateLimits }), 'GET', '/readyz'));
      expect(performance.now() - started).toBeLessThan(4000);
      expect(error.message).toBe('Not ready: redis');
      expect(error.details.checks).toMatchObject({ storage: 'ok', migrations: 'ok' });
      expect(error.details.checks.redis).toMatch(/^failed: |^no answer/);
    } finally {
      await rateLimits.close();
    }
  });
});
