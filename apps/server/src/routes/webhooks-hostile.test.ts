import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '@signet/contract';
import { call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { getWebhookEndpoint, listWebhookEndpoints } from '../storage/queries/webhook-endpoints.js';

/*
 * Hostile input to the webhook endpoints through the real app (no SIGNET_WEBHOOKS_ALLOW_PRIVATE): every refusal is
 * the contract's envelope with its code, no request reaches a private address, and nothing is stored for a refused
 * one.
 */

let t: TestApp;
let sk: string;
const PUBLIC = 'https://93.184.216.34/hook';


async function refused(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = ErrorEnvelopeSchema.parse(await res.json());
  expect(body.error.code).toBe(code);
  return body.error;
}

const create = (body: unknown, headers: Record<string, string> = {}) => call(t, 'POST', '/webhooks', { key: sk, body, headers });

describe.each(engines)('hostile webhook registrations on $name', (engine) => {
  beforeAll(async () => {
    t = await createTestApp(engine);
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterAll(() => t.close());

  it.each([
    'http://2130706433/hook',
    'http://0x7f.1/hook',
    'http://127.1/hook',
    'http://0177.0.0.1/hook',
    'http://[::1]/hook',
    'http://[::ffff:7f00:1]/hook',
    'http://[0:0:0:0:0:ffff:169.254.169.254]/latest',
    // IPv4-compatible, NAT64, 6to4 and Teredo embeddings of loopback, metadata and private addresses.
    'http://[::127.0.0.1]/hook',
    'http://[::7f00:1]/hook',
    'http://[::169.254.169.254]/latest',
    'http://[64:ff9b::a9fe:a9fe]/latest',
    'http://[64:ff9b:1::a00:1]/hook',
    'http://[2002:a9fe:a9fe::1]/latest',
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
    'http://169.254.169.254./latest/meta-data',
    'http://localhost./hook',
    'http://LOCALHOST/hook',
    'http://0.0.0.0:3000/hook',
    'http://10.0.0.1%2f@93.184.216.34/hook',
    'javascript:alert(1)',
    'data:text/plain,hi',
    'file:///etc/passwd',
    'gopher://93.184.216.34/',
    'https://user@93.184.216.34/hook',
    `https://93.184.216.34/${'a'.repeat(3000)}`,
    'not a url',
    '',
  ])('refuses %s, storing nothing', async (url) => {
    const before = (await listWebhookEndpoints(t.storage.db.query, t.org.id, { limit: 1000 })).length;
    const error = await refused(await create({ url, events: ['document.sealed'] }), url.length > 2048 || !/^https?:/i.test(url) || url === 'not a url' || url === '' ? 400 : 422, 'VALIDATION_ERROR');
    expect(error.details?.field).toBe('url');
    expect((await listWebhookEndpoints(t.storage.db.query, t.org.id, { limit: 1000 })).length).toBe(before);
  });

  it.each([
    ['a JSON array', []],
    ['no events', { url: PUBLIC, events: [] }],
    ['an unknown event', { url: PUBLIC, events: ['document.signed'] }],
    ['an event twice', { url: PUBLIC, events: ['document.sealed', 'document.sealed'] }],
    ['events as a string', { url: PUBLIC, events: 'document.sealed' }],
    ['a number for url', { url: 42, events: ['document.sealed'] }],
    ['an unknown member', { url: PUBLIC, events: ['document.sealed'], secret: 'whsec_mine' }],
    ['a description of 501 characters', { url: PUBLIC, events: ['document.sealed'], description: 'x'.repeat(501) }],
    ['null', null],
    // Stored as text: PostgreSQL refuses NUL, SQLite cuts the string there.
    ['a NUL in the description', { url: PUBLIC, events: ['document.sealed'], description: 'Billing\u0000 hook' }],
    ['a NUL in the url', { url: `${PUBLIC}?a=\u0000`, events: ['document.sealed'] }],
  ])('400 VALIDATION_ERROR for %s', async (_, body) => {
    await refused(await create(body), 400, 'VALIDATION_ERROR');
  });

  it.each([
    ['a secret of its own', { url: PUBLIC, events: ['document.sealed'], secret: 'whsec_mine' }, 'secret'],
    ['a misspelt member', { url: PUBLIC, events: ['document.sealed'], desciption: 'Billing' }, 'desciption'],
    ['an unknown member beside a bad one', { url: PUBLIC, events: [], enabled: false }, 'enabled'],
  ])('400 VALIDATION_ERROR naming an unknown member: %s, storing nothing', async (_, body, field) => {
    const before = (await listWebhookEndpoints(t.storage.db.query, t.org.id, { limit: 1000 })).length;
    const error = await refused(await create(body), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual({ field, reason: `received unknown member "${field}"; members not in the schema are refused, not ignored` });
    expect(error.message).toBe(`Invalid ${field}: ${error.details?.reason}`);
    expect((await listWebhookEndpoints(t.storage.db.query, t.org.id, { limit: 1000 })).length).toBe(before);
  });

  it('400 for malformed, deeply nested or duplicate-member JSON; 415 for another media type; 413 past 16 KiB', async () => {
    await refused(await create('{"url":'), 400, 'VALIDATION_ERROR');
    await refused(await create(`${'['.repeat(5000)}${']'.repeat(5000)}`), 400, 'VALIDATION_ERROR');
    await refused(await create(`{"url":"${PUBLIC}","url":"http://127.0.0.1/","events":["document.sealed"]}`), 400, 'VALIDATION_ERROR');
    await refused(await create(JSON.stringify({ url: PUBLIC, events: ['document.sealed'] }), { 'Content-Type': 'text/plain' }), 415, 'VALIDATION_ERROR');
    await refused(await create({ url: PUBLIC, events: ['document.sealed'], description: 'x'.repeat(17_000) }), 413, 'VALIDATION_ERROR');
  });

  it('a PATCH cannot move an endpoint to a private address, nor set its secret or organization', async () => {
    const created = await create({ url: PUBLIC, events: ['document.sealed'] });
    const { data } = (await created.json()) as { data: { id: string } };
    const path = `/webhooks/${data.id}`;
    await refused(await call(t, 'PATCH', path, { key: sk, body: { url: 'http://[::1]:9/' } }), 422, 'VALIDATION_ERROR');
    const secret = await refused(await call(t, 'PATCH', path, { key: sk, body: { secret: 'whsec_AAAA' } }), 400, 'VALIDATION_ERROR');
    expect(secret.details).toEqual({ field: 'secret', reason: expect.stringMatching(/^received unknown member "secret"/) });
    const organization = await refused(await call(t, 'PATCH', path, { key: sk, body: { organizationId: 'org_x' } }), 400, 'VALIDATION_ERROR');
    expect(organization.details?.field).toBe('organizationId');
    await refused(await call(t, 'PATCH', path, { key: sk, body: { enabled: 'yes' } }), 400, 'VALIDATION_ERROR');
    const nul = await refused(await call(t, 'PATCH', path, { key: sk, body: { description: 'aa\u0000bb' } }), 400, 'VALIDATION_ERROR');
    expect(nul.details?.field).toBe('description');
    expect((await getWebhookEndpoint(t.storage.db.query, t.org.id, data.id))?.url).toBe(PUBLIC);
  });

  it("another organization's endpoint is 404 on every route, and unknown ids too", async () => {
    const other = await ensureOrganization(t.storage.db.query, 'elsewhere', 'Elsewhere');
    const otherSk = (await t.createKey({ kind: 'sk' }, other.id)).secret;
    const theirs = (await (await call(t, 'POST', '/webhooks', { key: otherSk, body: { url: PUBLIC, events: ['document.sealed'] } })).json()) as { data: { id: string } };
    const id = theirs.data.id;
    for (const [method, path, body] of [
      ['GET', `/webhooks/${id}`],
      ['PATCH', `/webhooks/${id}`, { enabled: false }],
      ['DELETE', `/webhooks/${id}`],
      ['POST', `/webhooks/${id}/rotate-secret`],
      ['GET', `/webhooks/${id}/deliveries`],
      ['POST', `/webhooks/${id}/test`],
      ['POST', `/webhooks/${id}/deliveries/dlv_${'A'.repeat(30)}/retry`],
    ] as const) {
      await refused(await call(t, method, path, { key: sk, body }), 404, 'NOT_FOUND');
    }
    expect((await getWebhookEndpoint(t.storage.db.query, other.id, id))?.enabled).toBe(true);
    // Dot segments resolve before routing: /webhooks/documents, an id that is not one.
    await refused(await call(t, 'GET', '/webhooks/wh_../../documents', { key: sk }), 400, 'VALIDATION_ERROR');
    await refused(await call(t, 'GET', `/webhooks/wh_${'A'.repeat(65)}`, { key: sk }), 400, 'VALIDATION_ERROR');
    await refused(await call(t, 'GET', '/webhooks?cursor=%00%ff', { key: sk }), 400, 'VALIDATION_ERROR');
    await refused(await call(t, 'GET', '/webhooks?limit=101', { key: sk }), 400, 'VALIDATION_ERROR');
    await refused(await call(t, 'PUT', '/webhooks', { key: sk }), 405, 'NOT_FOUND');
  });
});
