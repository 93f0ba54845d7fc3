import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { createMetrics } from '../metrics/metrics.js';
import { sharedPdfPool } from '../pdf-worker/index.js';
import { sealRunner } from '../sealing/seal-kind.js';
import { buildPayload, call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { createTestPki } from '../../test/sealing/signing/test-pki.js';

const TOKEN = `mt_${randomBytes(24).toString('base64url')}`;

/** The value of the sample `name{labels}` in a Prometheus exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function expectRefused(response: Response, status: 401 | 404) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { success: boolean; error: { code: string }; meta: { requestId: string } };
  expect(body).toMatchObject({ success: false, error: { code: status === 401 ? 'INVALID_API_KEY' : 'NOT_FOUND' } });
  expect(body.meta.requestId).toMatch(/^req_/);
  if (status === 401) expect(response.headers.get('WWW-Authenticate')).toBe('Bearer realm="signet-metrics"');
}

describe.each(engines)('GET /metrics on $name', (engine) => {
  let t: TestApp;
  let off: TestApp;
  const scrape = (headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` }, path = '/metrics') => call(t, 'GET', path, { headers });

  beforeAll(async () => {
    t = await createTestApp(engine, { SIGNET_METRICS_TOKEN: TOKEN });
    off = await createTestApp(engine);
  });
  afterAll(async () => {
    await t.close();
    await off.close();
  });

  it('is disabled while SIGNET_METRICS_TOKEN is unset: 404 NOT_FOUND, as a path the server does not have', async () => {
    await expectRefused(await call(off, 'GET', '/metrics'), 404);
    await expectRefused(await call(off, 'GET', '/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } }), 404);
    const unknown = (await (await call(off, 'GET', '/no-such-path')).json()) as { error: { message: string } };
    const disabled = (await (await call(off, 'GET', '/metrics')).json()) as { error: { message: string } };
    expect(disabled.error.message).toBe(unknown.error.message.replace('/no-such-path', '/metrics'));
  });

  it('answers the metrics token only: no header, a wrong token, API keys and other schemes are 401', async () => {
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const pk = (await t.createKey()).secret;
    await expectRefused(await scrape({}), 401);
    await expectRefused(await scrape({ Authorization: `Bearer ${TOKEN}x` }), 401);
    await expectRefused(await scrape({ Authorization: `Bearer ${TOKEN.slice(0, -1)}` }), 401);
    await expectRefused(await scrape({ Authorization: 'Bearer' }), 401);
    await expectRefused(await scrape({ Authorization: TOKEN }), 401);
    await expectRefused(await scrape({ Authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }), 401);
    await expectRefused(await scrape({ 'X-API-Key': sk }), 401);
    await expectRefused(await scrape({ 'X-API-Key': pk }), 401);
    await expectRefused(await scrape({ Authorization: `Bearer ${sk}` }), 401);
    await expectRefused(await scrape({ Authorization: `Bearer ${pk}` }), 401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('Content-Type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers.get('Cache-Control')).toBe('no-store');
    expect(await ok.text()).toContain('# TYPE signet_http_requests_total counter');
    expect((await scrape({ Authorization: `bearer  ${TOKEN}` })).status).toBe(200);
  });

  it('refuses hostile input calmly: a huge header, the token in the query string; a query string changes nothing', async () => {
    const started = performance.now();
    await expectRefused(await scrape({ Authorization: `Bearer ${'A'.repeat(1024 * 1024)}` }), 401);
    await expectRefused(await scrape({ Authorization: `Bearer ${TOKEN} ${TOKEN}` }), 401);
    expect(performance.now() - started).toBeLessThan(2000);
    await expectRefused(await scrape({}, `/metrics?token=${TOKEN}`), 401);
    await expectRefused(await scrape({}, `/metrics?Authorization=Bearer%20${TOKEN}`), 401);
    const withQuery = await scrape(undefined, '/metrics?name[]=signet_jobs&x=%00%ff');
    expect(withQuery.status).toBe(200);
    expect(await withQuery.text()).toContain('signet_jobs');
    expect((await scrape(undefined, '/metrics/')).status).toBe(404);
  });

  it('counts requests by route pattern and status, never by their path with ids', async () => {
    const pk = (await t.createKey()).secret;
    const document = await t.createDocument({ pages: 1 });
    expect((await call(t, 'GET', `/sdk/documents/${document.id}`, { key: pk })).status).toBe(200);
    expect((await call(t, 'GET', '/sdk/documents/doc_AAAAAAAAAAAAAAAAAAAAAAAA', { key: pk })).status).toBe(404);
    expect((await call(t, 'GET', `/nothing/${document.id}`)).status).toBe(404);
    expect((await call(t, 'DELETE', '/healthz')).status).toBe(405);
    const text = await (await scrape()).text();
    expect(sample(text, 'signet_http_requests_total{method="GET",route="/sdk/documents/:documentId",status="200"}')).toBe(1);
    expect(sample(text, 'signet_http_requests_total{method="GET",route="/sdk/documents/:documentId",status="404"}')).toBe(1);
    expect(sample(text, 'signet_http_requests_total{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'signet_http_requests_total{method="DELETE",route="unmatched",status="405"}')).toBe(1);
    expect(sample(text, 'signet_http_request_duration_seconds_count{method="GET",route="/sdk/documents/:documentId",status="200"}')).toBe(1);
    expect(text).not.toContain(document.id);
    expect(text).not.toContain('doc_AAAA');
  });

  it('counts jobs by kind and state when scraped, with the age of the oldest due one, and the PDF queue', async () => {
    const pk = (await t.createKey()).secret;
    const before = await (await scrape()).text();
    const pending = sample(before, 'signet_jobs{kind="seal",state="pending"}')!;
    const document = await t.createDocument({ pages: 1 });
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) })).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const text = await (await scrape()).text();
    expect(sample(text, 'signet_jobs{kind="seal",state="pending"}')).toBe(pending + 1);
    expect(sample(text, 'signet_jobs{kind="webhook",state="dead"}')).toBe(0);
    expect(sample(text, 'signet_jobs_oldest_due_age_seconds{kind="seal"}')).toBeGreaterThan(0);
    expect(sample(text, 'signet_jobs_oldest_due_age_seconds{kind="webhook"}')).toBe(0);
    expect(sample(text, 'signet_pdf_queue_depth')).toBe(0);
    await t.sealDue();
    const after = await (await scrape()).text();
    expect(sample(after, 'signet_jobs{kind="seal",state="pending"}')).toBe(0);
    expect(sample(after, 'signet_jobs{kind="seal",state="done"}')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'signet_jobs_oldest_due_age_seconds{kind="seal"}')).toBe(0);
  });
});

describe('metrics of the PDF pool and the seal kind', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(undefined, { SIGNET_METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  it("count the pool's task durations by task and outcome, and seal durations, where the seal kind completes", async () => {
    const pdfPool = sharedPdfPool();
    const metrics = createMetrics({ db: t.storage.db, pdfPool, observePool: true });
    const app = createApp({ storage: t.storage, rateLimits: t.rateLimits, config: t.config, secret: t.secret, logger: t.logger, pdfPool, metrics });
    try {
      const pk = (await t.createKey()).secret;
      const document = await t.createDocument({ pages: 1 });
      expect((await call({ app }, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) })).status).toBe(201);
      const signing = (await createTestPki()).selfSigned;
      const runner = sealRunner({ storage: t.storage, pdfPool, logger: t.logger, config: t.config.sealing, signingKey: async () => signing, onSealEnded: metrics.jobs.sealEnded });
      expect(await runner.runOnce('seal')).toBe(true);
      const text = await (await call({ app }, 'GET', '/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
      expect(sample(text, 'signet_seals_total{outcome="sealed"}')).toBe(1);
      expect(sample(text, 'signet_seal_duration_seconds_count')).toBe(1);
      expect(sample(text, 'signet_seal_duration_seconds_sum')).toBeGreaterThan(0);
      expect(sample(text, 'signet_pdf_task_duration_seconds_count{task="seal",outcome="ok"}')).toBe(1);
      expect(text).toContain('# TYPE signet_pdf_worker_kills_total counter');
      metrics.jobs.webhookAttempt('delivered');
      metrics.jobs.webhookAttempt('failed');
      metrics.jobs.webhookAttempt('failed');
      const after = await metrics.text();
      expect(sample(after, 'signet_webhook_attempts_total{outcome="delivered"}')).toBe(1);
      expect(sample(after, 'signet_webhook_attempts_total{outcome="failed"}')).toBe(2);
    } finally {
      metrics.close();
    }
  });
});
