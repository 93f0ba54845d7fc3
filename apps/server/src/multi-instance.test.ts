import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument } from './documents/create-document.js';
import { createApiKeyRecord } from './documents/seed.js';
import { generateSamplePdf, sampleFields } from './pdf/sample.js';
import { createRateLimits } from './rate-limit/index.js';
import { buildPayload, call, engines } from '../test/support/harness.js';
import { twoInstances, type TwoInstances } from '../test/support/two-instances.js';
import { TEST_REDIS_URL, redisAvailable } from '../test/support/redis.js';
import { ensureOrganization } from './storage/queries/organizations.js';
import { findSubmissionForDocument } from './storage/queries/submissions.js';

const withPostgres = engines.some((engine) => engine.name === 'postgres');

describe.runIf(withPostgres && redisAvailable)('two instances on one PostgreSQL and one Redis', () => {
  const keyPrefix = `signet-test:${randomBytes(6).toString('hex')}`;
  let two: TwoInstances;
  let storages: TwoInstances['storages'];
  let apps: TwoInstances['apps'];
  let organizationId: string;

  beforeAll(async () => {
    two = await twoInstances(() => createRateLimits({ redisUrl: TEST_REDIS_URL, keyPrefix }));
    ({ storages, apps } = two);
    organizationId = (await ensureOrganization(storages[0].db.query, 'acme', 'Acme')).id;
  });

  afterAll(async () => {
    await two.close();
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const on = (i: number) => apps[i as 0 | 1];

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
    expect((await apps[0].app.request(file.pathname + file.search)).status).toBe(200);

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
    expect((await findSubmissionForDocument(storages[1]!.db.query, document.id))?.id).toBe([...ids][0]);
  });
});
