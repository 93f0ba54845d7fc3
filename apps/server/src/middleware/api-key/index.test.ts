import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/envelope.js';
import { buildPayload, call, createTestApp, type TestApp } from '../../../test/support/harness.js';
import type { DocumentRecord } from '../../storage/types.js';
import { generateSamplePdf, sampleFields } from '../../pdf/sample.js';
import { revokeSessionKey } from '../../storage/queries/api-keys.js';

let t: TestApp;
let document: DocumentRecord;
let payload: Record<string, unknown>;
let uploadBody: () => FormData;
/** A webhook endpoint of the test organization (and one to delete), with a queued delivery. */
let hook: string;
let doomed: string;
let delivery: string;
/** A document with signers and a session key of it to revoke. */
let lease: DocumentRecord;
/** A document to decline (declining again answers the first decline). */
let declinable: DocumentRecord;
/** A document to void (voiding again answers 409, after every check of the key), and one to erase (again: 410). */
let voidable: DocumentRecord;
let erasable: DocumentRecord;
let sessionId: string;

beforeAll(async () => {
  t = await createTestApp(undefined, { AUTH_FAILURES_PER_MINUTE: '1000' });
  document = await t.createDocument();
  payload = await buildPayload(document);
  const pdf = await generateSamplePdf({ pages: 1 });
  uploadBody = () => {
    const form = new FormData();
    form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'a.pdf'));
    form.set('fields', JSON.stringify(sampleFields(1)));
    return form;
  };
  const sk = (await t.createKey({ kind: 'sk' })).secret;
  const created = async () => {
    const res = await call(t, 'POST', '/webhooks', { key: sk, body: { url: WEBHOOK_URL, events: ['document.completed'] } });
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  [hook, doomed] = [await created(), await created()];
  delivery = ((await (await call(t, 'POST', `/webhooks/${hook}/test`, { key: sk })).json()) as { data: { id: string } }).data.id;
  lease = await t.createLease();
  declinable = await t.createDocument({ pages: 1 });
  voidable = await t.createDocument({ pages: 1 });
  erasable = await t.createDocument({ pages: 1 });
  sessionId = (await t.createSession(lease.id, 'tenant')).id;
});
afterAll(() => t.close());

interface Endpoint {
  name: string;
  method: string;
  path: () => string;
  body?: () => unknown;
  scope?: string;
  management: boolean;
}

const endpoints: Endpoint[] = [
  { name: 'POST /sdk/validate-key', method: 'POST', path: () => '/sdk/validate-key', management: false },
  { name: 'GET /sdk/documents/{id}', method: 'GET', path: () => `/sdk/documents/${document.id}`, scope: 'documents:read', management: false },
  { name: 'POST /sdk/documents/submit', method: 'POST', path: () => '/sdk/documents/submit', body: () => payload, scope: 'documents:submit', management: false },
  {
    name: 'POST /sdk/documents/{id}/decline',
    method: 'POST',
    path: () => `/sdk/documents/${declinable.id}/decline`,
    body: () => ({ reason: 'The terms changed' }),
    scope: 'documents:submit',
    management: false,
  },
  { name: 'POST /documents', method: 'POST', path: () => '/documents', body: () => uploadBody(), scope: 'documents:write', management: true },
  { name: 'GET /documents', method: 'GET', path: () => '/documents', scope: 'documents:read', management: true },
  { name: 'GET /documents/{id}', method: 'GET', path: () => `/documents/${document.id}`, scope: 'documents:read', management: true },
  { name: 'GET /documents/{id}/submission', method: 'GET', path: () => `/documents/${document.id}/submission`, scope: 'documents:read', management: true },
  { name: 'GET /documents/{id}/submissions', method: 'GET', path: () => `/documents/${document.id}/submissions`, scope: 'documents:read', management: true },
  {
    name: 'POST /documents/{id}/sessions',
    method: 'POST',
    path: () => `/documents/${lease.id}/sessions`,
    body: () => ({ signerId: 'landlord' }),
    scope: 'documents:write',
    management: true,
  },
  {
    name: 'DELETE /documents/{id}/sessions/{keyId}',
    method: 'DELETE',
    path: () => `/documents/${lease.id}/sessions/${sessionId}`,
    scope: 'documents:write',
    management: true,
  },
  {
    name: 'POST /documents/{id}/void',
    method: 'POST',
    path: () => `/documents/${voidable.id}/void`,
    body: () => ({ reason: 'Sent to the wrong tenant' }),
    scope: 'documents:write',
    management: true,
  },
  { name: 'DELETE /documents/{id}', method: 'DELETE', path: () => `/documents/${erasable.id}`, scope: 'documents:write', management: true },
  ...webhookEndpoints(),
];

/** A public address (no DNS needed): an endpoint URL the server accepts; this app sends nothing. */
const WEBHOOK_URL = 'https://93.184.216.34/hook';

/** The webhook endpoints: sk keys with `webhooks:write`. */
function webhookEndpoints(): Endpoint[] {
  const scope = 'webhooks:write';
  const one = (method: string, name: string, path: () => string, body?: () => unknown): Endpoint => ({
    name: `${method} ${name}`,
    method,
    path,
    ...(body ? { body } : {}),
    scope,
    management: true,
  });
  return [
    one('POST', '/webhooks', () => '/webhooks', () => ({ url: WEBHOOK_URL, events: ['document.sealed'] })),
    one('GET', '/webhooks', () => '/webhooks'),
    one('GET', '/webhooks/{id}', () => `/webhooks/${hook}`),
    one('PATCH', '/webhooks/{id}', () => `/webhooks/${hook}`, () => ({ description: 'renamed' })),
    one('DELETE', '/webhooks/{id}', () => `/webhooks/${doomed}`),
    one('POST', '/webhooks/{id}/rotate-secret', () => `/webhooks/${hook}/rotate-secret`),
    one('GET', '/webhooks/{id}/deliveries', () => `/webhooks/${hook}/deliveries`),
    one('POST', '/webhooks/{id}/deliveries/{deliveryId}/retry', () => `/webhooks/${hook}/deliveries/${delivery}/retry`),
    one('POST', '/webhooks/{id}/test', () => `/webhooks/${hook}/test`),
  ];
}

function request(endpoint: Endpoint, key: string | undefined, headers: Record<string, string> = {}) {
  const body = endpoint.body?.();
  const allHeaders: Record<string, string> = { 'X-Forwarded-For': '198.51.100.1', ...headers };
  if (key !== undefined) allHeaders['X-API-Key'] = key;
  if (body === undefined || body instanceof FormData) {
    return t.app.request(endpoint.path(), { method: endpoint.method, headers: allHeaders, body: body as FormData | undefined });
  }
  return call(t, endpoint.method, endpoint.path(), { key, body, headers });
}

/** Asserts the status and code of a response whose body must be exactly the contract's error envelope. */
/** validate-key answers 401 with `{ valid: false, error }` rather than the envelope (docs/api.md, "Key validation"). */
async function expect401(endpoint: Endpoint, res: Response, code: string) {
  if (endpoint.management || endpoint.name !== 'POST /sdk/validate-key') return expectError(res, 401, code);
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ valid: false, error: expect.any(String) });
}

describe.each(endpoints)('$name', (endpoint) => {
  const kind = endpoint.management ? 'sk' : 'pk';

  it('401 INVALID_API_KEY for a missing key', async () => {
    await expect401(endpoint, await request(endpoint, undefined), 'INVALID_API_KEY');
  });
  it('401 INVALID_API_KEY for a malformed key', async () => {
    await expect401(endpoint, await request(endpoint, 'pk_123'), 'INVALID_API_KEY');
  });
  it('401 INVALID_API_KEY for an unknown key', async () => {
    await expect401(endpoint, await request(endpoint, `${kind}_${'Z'.repeat(40)}`), 'INVALID_API_KEY');
  });
  it('401 INVALID_API_KEY for a revoked key', async () => {
    const { secret } = await t.createKey({ kind, revokedAt: '2026-01-01T00:00:00.000Z' });
    await expect401(endpoint, await request(endpoint, secret), 'INVALID_API_KEY');
  });
  it('401 EXPIRED_API_KEY for an expired key', async () => {
    const { secret } = await t.createKey({ kind, expiresAt: '2026-01-01T00:00:00.000Z' });
    await expect401(endpoint, await request(endpoint, secret), 'EXPIRED_API_KEY');
  });

  it('403 INSUFFICIENT_PERMISSIONS for a pk key used from an origin it does not allow', async () => {
    const { secret } = await t.createKey({ kind: 'pk', origins: ['https://allowed.example'], scopes: ['documents:read', 'documents:submit', 'documents:write'] });
    const res = await request(endpoint, secret, { Origin: 'https://evil.example' });
    const error = await expectError(res, 403, 'INSUFFICIENT_PERMISSIONS');
    expect(error.details?.reason).toEqual(expect.any(String));
  });

  it('403 INSUFFICIENT_PERMISSIONS for an sk key sent from a browser origin', async () => {
    const { secret } = await t.createKey({ kind: 'sk' });
    const error = await expectError(await request(endpoint, secret, { Origin: 'https://host.example' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(error.details?.reason).toMatch(/sk_/);
  });

  it('carries the rate-limit headers on every authenticated response', async () => {
    const { secret } = await t.createKey({ kind, rateLimit: 50 });
    const res = await request(endpoint, secret);
    expect(res.headers.get('X-RateLimit-Limit')).toBe('50');
    expect(Number(res.headers.get('X-RateLimit-Remaining'))).toBe(49);
    const reset = Number(res.headers.get('X-RateLimit-Reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
  });
});

describe.each(endpoints.filter((e) => e.scope))('$name without its scope', (endpoint) => {
  it('403 INSUFFICIENT_PERMISSIONS with details.required', async () => {
    const others = ['documents:read', 'documents:submit', 'documents:write'].filter((s) => s !== endpoint.scope) as any;
    const { secret } = await t.createKey({ kind: endpoint.management ? 'sk' : 'pk', scopes: others });
    const error = await expectError(await request(endpoint, secret), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(error.details?.required).toEqual([endpoint.scope]);
  });
});

describe.each(endpoints.filter((e) => e.management))('$name with a pk key', (endpoint) => {
  it('403 INSUFFICIENT_PERMISSIONS, whatever its scopes', async () => {
    const { secret } = await t.createKey({ kind: 'pk', scopes: ['documents:read', 'documents:submit', 'documents:write'] });
    await expectError(await request(endpoint, secret), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});

/** The endpoints a session key may call, for its own document. */
const SESSION_ENDPOINTS = ['POST /sdk/validate-key', 'GET /sdk/documents/{id}', 'POST /sdk/documents/submit'];

describe.each(endpoints.filter((e) => !SESSION_ENDPOINTS.includes(e.name)))('$name with a session key', (endpoint) => {
  it("403 INSUFFICIENT_PERMISSIONS: a session key reaches only its document's SDK endpoints", async () => {
    const { secret } = await t.createSession(document.id);
    const error = await expectError(await request(endpoint, secret), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(error.details?.reason).toEqual(expect.any(String));
  });
});

describe.each(endpoints.filter((e) => SESSION_ENDPOINTS.includes(e.name)))('$name with a session key', (endpoint) => {
  it('answers for its own document', async () => {
    const { secret } = await t.createSession(document.id);
    expect((await request(endpoint, secret)).status).toBeLessThan(300);
  });
  it('401 EXPIRED_API_KEY once it has expired, 401 INVALID_API_KEY once revoked', async () => {
    const expired = await t.createSession(document.id, undefined, { expiresAt: '2026-01-01T00:00:00.000Z' });
    await expect401(endpoint, await request(endpoint, expired.secret), 'EXPIRED_API_KEY');
    const revoked = await t.createSession(document.id);
    await revokeSessionKey(t.storage.db.query, document.id, revoked.id, new Date().toISOString());
    await expect401(endpoint, await request(endpoint, revoked.secret), 'INVALID_API_KEY');
  });
});

describe('a session key of another document', () => {
  it('403 INSUFFICIENT_PERMISSIONS for GET /sdk/documents/{id} and the submit', async () => {
    const { secret } = await t.createSession(lease.id, 'tenant');
    await expectError(await call(t, 'GET', `/sdk/documents/${document.id}`, { key: secret }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'POST', '/sdk/documents/submit', { key: secret, body: payload }), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});

describe('rate limits', () => {
  it('429 RATE_LIMIT_EXCEEDED with Retry-After once the key used its window', async () => {
    const { secret } = await t.createKey({ rateLimit: 3 });
    for (let i = 0; i < 3; i++) expect((await call(t, 'POST', '/sdk/validate-key', { key: secret })).status).toBe(200);
    const res = await call(t, 'GET', `/sdk/documents/${document.id}`, { key: secret });
    const error = await expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
    expect(error.message).toBe('Rate limit of 3 requests per minute exceeded');
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(res.headers.get('X-RateLimit-Limit')).toBe('3');
  });

  it('limits failed authentications per client IP, then refuses even a good key from that IP', async () => {
    const c = await createTestApp(undefined, { AUTH_FAILURES_PER_MINUTE: '5' });
    try {
      const { secret } = await c.createKey();
      for (let i = 0; i < 5; i++) {
        expect((await call(c, 'POST', '/sdk/validate-key', { key: `pk_${'x'.repeat(40)}`, ip: '192.0.2.9' })).status).toBe(401);
      }
      const blocked = await call(c, 'GET', `/sdk/documents/doc_${'A'.repeat(24)}`, { key: secret, ip: '192.0.2.9' });
      expect(blocked.status).toBe(429);
      expect(((await blocked.json()) as any).error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
      const elsewhere = await call(c, 'POST', '/sdk/validate-key', { key: secret, ip: '192.0.2.10' });
      expect(elsewhere.status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
