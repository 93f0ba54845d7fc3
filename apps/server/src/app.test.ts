import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApp } from './app.js';
import { createRateLimits } from './rate-limit/index.js';
import { call, createTestApp, type TestApp } from '../test/support/harness.js';
import { createLogger } from './logger.js';
import { Writable } from 'node:stream';
import { failingReads } from '../test/support/failing-storage.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

describe('every response', () => {
  it('404 NOT_FOUND in the envelope for an unknown route, with X-Request-Id equal to meta.requestId', async () => {
    const res = await call(t, 'GET', '/nope');
    expect(res.status).toBe(404);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    expect(res.headers.get('X-Request-Id')).toMatch(/^req_[A-Za-z0-9]{20,}$/);
    expect(body.meta.requestId).toBe(res.headers.get('X-Request-Id'));
    expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
  });

  it('405 NOT_FOUND with Allow for a known path and a wrong method', async () => {
    const res = await call(t, 'DELETE', '/sdk/validate-key');
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('POST');
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    const getSubmit = await call(t, 'GET', '/sdk/documents/submit', { key: 'pk_whatever' });
    expect(getSubmit.status).toBe(405);
    expect(getSubmit.headers.get('Allow')).toBe('POST');
  });

  it('JSON responses carry no-store, nosniff and no-referrer', async () => {
    for (const res of [await call(t, 'GET', '/nope'), await call(t, 'POST', '/sdk/validate-key')]) {
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
    }
  });

  it('500 INTERNAL_ERROR without a stack or internal message when storage fails; the cause goes to the log', async () => {
    const storage = failingReads(t.storage, ['api_keys'], new Error('disk on fire at /var/lib/secret'));
    const lines: Array<Record<string, any>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = createApp({ storage, rateLimits: t.rateLimits, config: t.config, secret: 's'.repeat(32), logger: createLogger('info', sink) });
    const res = await app.request('/sdk/validate-key', { method: 'POST', headers: { 'X-API-Key': `pk_${'a'.repeat(40)}` } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
    expect(text).not.toMatch(/disk on fire|at .*\.ts/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const logged = lines.find((line) => line['msg'] === 'unhandled error');
    expect(logged).toMatchObject({ requestId: res.headers.get('X-Request-Id'), err: { message: 'disk on fire at /var/lib/secret' } });
  });
});

describe('an unreachable Redis', () => {
  it('never turns into an error: counting falls back to the process, with the headers', async () => {
    const rateLimits = createRateLimits({ redisUrl: 'redis://127.0.0.1:1' });
    const c = await createTestApp(undefined, {}, rateLimits);
    try {
      const { secret } = await c.createKey({ rateLimit: 2 });
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const res = await call(c, 'POST', '/sdk/validate-key', { key: secret });
        statuses.push(res.status);
        expect(res.headers.get('X-RateLimit-Limit')).toBe('2');
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await c.close();
      await rateLimits.close();
    }
  });
});

describe('logging', () => {
  it('writes one line per request with request id, status and duration, and never a key or token', async () => {
    const document = await t.createDocument();
    const { secret } = await t.createKey();
    const res = await call(t, 'GET', `/sdk/documents/${document.id}`, { key: secret });
    const { documentUrl } = (await res.json()) as { documentUrl: string };
    const url = new URL(documentUrl);
    await t.app.request(url.pathname + url.search);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const requestLines = t.logs.filter((line) => line['requestId']);
    expect(requestLines).toHaveLength(2);
    expect(requestLines[0]).toMatchObject({
      requestId: res.headers.get('X-Request-Id'),
      method: 'GET',
      path: `/sdk/documents/${document.id}`,
      status: 200,
      durationMs: expect.any(Number),
    });
    const all = JSON.stringify(t.logs);
    expect(all).not.toContain(secret);
    expect(all).not.toContain(url.searchParams.get('token')!);
  });
});

describe('CORS on /sdk', () => {
  it('answers a preflight without a key', async () => {
    const res = await t.app.request('/sdk/documents/submit', {
      method: 'OPTIONS',
      headers: { Origin: 'https://host.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key, content-type, idempotency-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://host.example');
    expect(res.headers.get('Access-Control-Allow-Headers')).toMatch(/X-API-Key/);
    expect(res.headers.get('Access-Control-Allow-Headers')).toMatch(/Idempotency-Key/);
    expect(res.headers.get('Access-Control-Allow-Methods')).toMatch(/POST/);
  });

  it('grants an allowed origin of a pk key and exposes the rate-limit and request-id headers', async () => {
    const document = await t.createDocument();
    const { secret } = await t.createKey({ origins: ['https://host.example'] });
    const res = await call(t, 'GET', `/sdk/documents/${document.id}`, { key: secret, headers: { Origin: 'https://host.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://host.example');
    const exposed = res.headers.get('Access-Control-Expose-Headers')!;
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id', 'Idempotent-Replayed', 'Accept-Ranges', 'Content-Range', 'Content-Length']) {
      expect(exposed).toContain(name);
    }
    expect(res.headers.get('Vary')).toContain('Origin');
  });

  it('grants any origin to a pk key without an origin list', async () => {
    const { secret } = await t.createKey();
    const res = await call(t, 'POST', '/sdk/validate-key', { key: secret, headers: { Origin: 'https://anywhere.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://anywhere.example');
  });

  it('lets the page read errors, and never sends CORS headers on management routes', async () => {
    const refused = await call(t, 'POST', '/sdk/validate-key', { key: 'bad', headers: { Origin: 'https://host.example' } });
    expect(refused.headers.get('Access-Control-Allow-Origin')).toBe('https://host.example');
    const { secret } = await t.createKey({ kind: 'sk' });
    const managed = await call(t, 'GET', '/documents', { key: secret, headers: { Origin: 'https://host.example' } });
    expect(managed.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('reference and health', () => {
  it('serves an OpenAPI 3.1 document generated from the contract schemas', async () => {
    const res = await t.app.request('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    for (const path of ['/sdk/validate-key', '/sdk/documents/{documentId}', '/sdk/documents/{documentId}/file', '/sdk/documents/submit', '/documents', '/documents/{documentId}', '/documents/{documentId}/submission']) {
      expect(Object.keys(doc.paths[path] ?? {}).length, path).toBeGreaterThan(0);
    }
    expect(Object.keys(doc.paths['/sdk/documents/submit'].post.requestBody.content)).toEqual(['application/json']);
    expect(Object.keys(doc.paths['/documents'].post.requestBody.content['multipart/form-data'].schema.properties)).toEqual(
      expect.arrayContaining(['file', 'fields']),
    );
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(JSON.stringify(doc)).toContain('missingFields');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('serves the API reference page with its script from this server', async () => {
    const page = await t.app.request('/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/openapi.json');
    expect(html).toContain('/docs/scalar.js');
    const script = await t.app.request('/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('Content-Type')).toMatch(/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });

  it('answers /healthz', async () => {
    const res = await t.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', storage: 'sqlite', rateLimits: 'memory' });
  });
});
