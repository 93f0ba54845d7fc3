import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { createDocument } from './documents/create-document.js';
import { createApiKeyRecord } from './documents/seed.js';
import { createLogger } from './logger.js';
import { generateSamplePdf, sampleFields } from './pdf/sample.js';
import { createRateLimits, type RateLimits } from './rate-limit/index.js';
import { openStorage } from './storage/index.js';
import { TEST_DATABASE_URL } from './storage/test-engines.js';
import type { Storage } from './storage/types.js';
import { buildPayload, call, engines } from './test-support/harness.js';
import { TEST_REDIS_URL, redisAvailable } from './test-support/redis.js';

const withPostgres = engines.some((engine) => engine.name === 'postgres');

describe.runIf(withPostgres && redisAvailable)('two instances on one PostgreSQL and one Redis', () => {
  const schema = `t_${randomBytes(8).toString('hex')}`;
  const keyPrefix = `signet-test:${randomBytes(6).toString('hex')}`;
  const secret = randomBytes(32).toString('hex');
  const storages: Storage[] = [];
  const limits: RateLimits[] = [];
  const apps: Array<ReturnType<typeof createApp>> = [];
  let organizationId: string;

  beforeAll(async () => {
    const config = loadConfig({ TRUST_PROXY: 'true' });
    const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
    for (let i = 0; i < 2; i++) {
      const storage = await openStorage(TEST_DATABASE_URL, { pgSchema: schema });
      const rateLimits = createRateLimits({ redisUrl: TEST_REDIS_URL, keyPrefix });
      storages.push(storage);
      limits.push(rateLimits);
      apps.push(createApp({ storage, rateLimits, config, secret, logger }));
    }
    organizationId = (await storages[0]!.ensureOrganization('acme', 'Acme')).id;
  });

  afterAll(async () => {
    for (const rateLimits of limits) await rateLimits.close();
    for (const storage of storages) await storage.close();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const on = (i: number) => ({ app: apps[i]! });

  it('share one rate-limit window per key', async () => {
    const { key } = await createApiKeyRecord(storages[0]!, { organizationId, kind: 'pk', rateLimit: 4 });
    const remaining: Array<string | null> = [];
    for (const i of [0, 1, 0, 1]) {
      const res = await call(on(i), 'POST', '/sdk/validate-key', { key });
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('X-RateLimit-Remaining'));
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    const refused = await call(on(1), 'POST', '/sdk/validate-key', { key });
    expect(refused.status).toBe(429);
  });

  it('serve a document created on one from the other, and accept one submission when both get it at once', async () => {
    const { key } = await createApiKeyRecord(storages[0]!, { organizationId, kind: 'pk', rateLimit: 1000 });
    const document = await createDocument(storages[0]!, {
      organizationId,
      bytes: await generateSamplePdf({ pages: 2 }),
      fields: sampleFields(2),
      maxPdfBytes: 10_000_000,
    });
    const got = (await (await call(on(1), 'GET', `/sdk/documents/${document.id}`, { key })).json()) as { documentUrl: string };
    const file = new URL(got.documentUrl);
    expect((await apps[0]!.request(file.pathname + file.search)).status).toBe(200);

    const payload = await buildPayload(document);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(on(i % 2), 'POST', '/sdk/documents/submit', { key, body: payload })),
    );
    const ids = new Set<string>();
    for (const res of responses) {
      expect([200, 201]).toContain(res.status);
      ids.add(((await res.json()) as { submissionId: string }).submissionId);
    }
    expect(responses.filter((res) => res.status === 201)).toHaveLength(1);
    expect(ids.size).toBe(1);
    expect((await storages[1]!.getSubmissionForDocument(document.id))?.id).toBe([...ids][0]);
  });
});
