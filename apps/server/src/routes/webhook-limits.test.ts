import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '@signet/contract';
import { call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { fanOutWebhookEvents } from '../storage/queries/webhook-deliveries.js';
import { listWebhookEndpoints } from '../storage/queries/webhook-endpoints.js';

/*
 * The cap on webhook endpoints per organization (`WEBHOOK_MAX_ENDPOINTS`), through the real app on both engines:
 * one key cannot multiply the dispatcher's traffic at a host by registering the same URL a thousand times.
 */

const PUBLIC = 'https://93.184.216.34/hook';

describe.each(engines)('webhook endpoints per organization on $name', (engine) => {
  let t: TestApp;
  let sk: string;

  beforeEach(async () => {
    t = await createTestApp(engine, { WEBHOOK_MAX_ENDPOINTS: '3' });
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterEach(() => t.close());

  const create = (key = sk, url = PUBLIC) => call(t, 'POST', '/webhooks', { key, body: { url, events: ['document.created'] } });
  const count = async (organizationId = t.org.id) => (await listWebhookEndpoints(t.storage.db.query, organizationId, { limit: 1000 })).length;

  async function refusedAtCap(res: Response) {
    expect(res.status).toBe(422);
    const body = ErrorEnvelopeSchema.parse(await res.json());
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details).toMatchObject({ limit: 3 });
    expect(body.error.details?.reason).toContain('WEBHOOK_MAX_ENDPOINTS');
  }

  it('refuses the endpoint past the cap with 422 and stores nothing; disabled ones count; deleting frees a place', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await create();
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    await refusedAtCap(await create(sk, 'https://93.184.216.35/other'));
    expect(await count()).toBe(3);

    expect((await call(t, 'PATCH', `/webhooks/${ids[0]}`, { key: sk, body: { enabled: false } })).status).toBe(200);
    await refusedAtCap(await create());

    expect((await call(t, 'DELETE', `/webhooks/${ids[1]}`, { key: sk })).status).toBe(200);
    expect((await create()).status).toBe(201);
    expect(await count()).toBe(3);
  });

  it('counts per organization: another one still registers', async () => {
    for (let i = 0; i < 3; i++) expect((await create()).status).toBe(201);
    const other = await ensureOrganization(t.storage.db.query, `other-${engine.name}`, 'Other');
    const otherSk = (await t.createKey({ kind: 'sk' }, other.id)).secret;
    expect((await create(otherSk)).status).toBe(201);
    expect(await count(other.id)).toBe(1);
  });

  it('concurrent registrations cannot pass the cap together', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => create()));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 422)).toHaveLength(9);
    for (const res of answers.filter((answer) => answer.status === 422)) await refusedAtCap(res);
    expect(await count()).toBe(3);
  });

  it('one event creates at most one delivery per endpoint, so at most the cap', async () => {
    for (let i = 0; i < 3; i++) expect((await create()).status).toBe(201);
    await refusedAtCap(await create());
    await t.createDocument();
    await fanOutWebhookEvents(t.storage.db, { limit: 100 });
    const endpoints = await listWebhookEndpoints(t.storage.db.query, t.org.id, { limit: 10 });
    let deliveries = 0;
    for (const endpoint of endpoints) {
      const res = await call(t, 'GET', `/webhooks/${endpoint.id}/deliveries?limit=100`, { key: sk });
      deliveries += ((await res.json()) as { data: unknown[] }).data.length;
    }
    expect(deliveries).toBe(3);
  });
});

describe('the cap setting', () => {
  it('defaults to 20 and refuses values outside 1 to 1000', async () => {
    const { loadConfig } = await import('../config.js');
    expect(loadConfig({}).webhooks.maxEndpoints).toBe(20);
    expect(loadConfig({ WEBHOOK_MAX_ENDPOINTS: '1000' }).webhooks.maxEndpoints).toBe(1000);
    expect(() => loadConfig({ WEBHOOK_MAX_ENDPOINTS: '0' })).toThrow(/WEBHOOK_MAX_ENDPOINTS/);
    expect(() => loadConfig({ WEBHOOK_MAX_ENDPOINTS: '1001' })).toThrow(/WEBHOOK_MAX_ENDPOINTS/);
  });
});
