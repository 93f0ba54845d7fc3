import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/support/envelope.js';
import { buildPayload, call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { JobRunner } from '../jobs/runner.js';
import { expireJob } from '../documents/expiry.js';
import { findDocument } from '../storage/queries/documents.js';
import { fanOutWebhookEvents, listWebhookDeliveries } from '../storage/queries/webhook-deliveries.js';

/*
 * Expiry (docs/lifecycle.md): `expiresAt` at creation; after it a document not completed reads `expired`, refuses
 * signing with 409 `details.reason: "expired"`, and the `expire` job sends `document.expired` once. On both engines.
 * Time passing is made by moving the stored `expires_at` (and the job's `run_at`) into the past.
 */

describe.each(engines)('expiry on $name', (engine) => {
  let t: TestApp;
  let pk: string;
  let sk: string;
  let pdf: Uint8Array;
  beforeAll(async () => {
    t = await createTestApp(engine);
    pk = (await t.createKey()).secret;
    sk = (await t.createKey({ kind: 'sk' })).secret;
    pdf = await generateSamplePdf({ pages: 1 });
  });
  afterAll(() => t.close());

  const upload = (expiresAt: string | undefined, query = '') => {
    const form = new FormData();
    form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'a.pdf'));
    form.set('fields', JSON.stringify(sampleFields(1)));
    if (expiresAt !== undefined) form.set('expiresAt', expiresAt);
    return t.app.request(`/documents${query}`, { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
  };
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  /** Moves a document's expiry, and its job, to `ms` ago (after its creation, as a real expiry is). */
  async function expireNow(documentId: string, ms = 1) {
    const at = Date.now() - ms;
    await t.storage.db.query.updateTable('documents').set({ expires_at: at }).where('id', '=', documentId).execute();
    await t.storage.db.query.updateTable('jobs').set({ run_at: at }).where('key', '=', documentId).where('kind', '=', 'expire').execute();
  }

  it('keeps expiresAt, shows it, and signs as usual until it has passed', async () => {
    const expiresAt = inDays(30);
    const res = await upload(expiresAt.replace('Z', '+00:00'));
    expect(res.status).toBe(201);
    const created = ((await res.json()) as any).data;
    expect(created).toMatchObject({ status: 'pending', expiresAt });
    expect(((await (await call(t, 'GET', `/documents/${created.id}`, { key: sk })).json()) as any).data.expiresAt).toBe(expiresAt);
    const sdk = (await (await call(t, 'GET', `/sdk/documents/${created.id}`, { key: pk })).json()) as any;
    expect(sdk.metadata).toMatchObject({ status: 'pending', expiresAt });
    const document = (await findDocument(t.storage.db.query, created.id))!;
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) })).status).toBe(201);
    await expireNow(document.id);
    // Completed before: never expired.
    expect(((await (await call(t, 'GET', `/documents/${created.id}`, { key: sk })).json()) as any).data.status).toBe('completed');
  });

  it('after expiresAt: expired, signing refused with 409 expired, no void; the job sends document.expired once', async () => {
    const hook = await call(t, 'POST', '/webhooks', { key: sk, body: { url: 'https://93.184.216.34/hook', events: ['document.expired'] } });
    const webhookId = ((await hook.json()) as any).data.id;
    const created = ((await (await upload(inDays(1))).json()) as any).data;
    const document = (await findDocument(t.storage.db.query, created.id))!;
    await expireNow(document.id);

    const managed = ((await (await call(t, 'GET', `/documents/${document.id}`, { key: sk })).json()) as any).data;
    expect(managed.status).toBe('expired');
    for (const res of [
      await call(t, 'GET', `/sdk/documents/${document.id}`, { key: pk }),
      await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) }),
      await call(t, 'POST', `/sdk/documents/${document.id}/decline`, { key: pk, body: { reason: 'late' } }),
      await call(t, 'POST', `/documents/${document.id}/sessions`, { key: sk, body: {} }),
    ]) {
      expect((await expectError(res, 409, 'SUBMISSION_FAILED')).details).toMatchObject({ reason: 'expired' });
    }
    const voided = await expectError(await call(t, 'POST', `/documents/${document.id}/void`, { key: sk, body: { reason: 'x' } }), 409, 'DOCUMENT_CLOSED');
    expect(voided.details).toMatchObject({ status: 'expired' });
    const audit = ((await (await call(t, 'GET', `/documents/${document.id}/audit`, { key: sk })).json()) as any).data.events;
    expect(audit.map((event: { type: string }) => event.type)).toEqual(['document.created', 'document.expired']);

    const runner = new JobRunner({ db: t.storage.db, logger: t.logger });
    runner.register(expireJob);
    runner.start();
    try {
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        runner.wake('expire');
        const row = await t.storage.db.query.selectFrom('documents').select('expired_at').where('id', '=', document.id).executeTakeFirst();
        if (row?.expired_at !== null && row?.expired_at !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await runner.stop();
    }
    while ((await fanOutWebhookEvents(t.storage.db, { limit: 100 })) > 0);
    const deliveries = await listWebhookDeliveries(t.storage.db.query, webhookId, { limit: 10 });
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(['document.expired']);
    const jobs = await t.storage.db.query.selectFrom('jobs').select('status').where('key', '=', document.id).execute();
    expect(jobs).toEqual([{ status: 'done' }]);
  });

  it.each([
    ['not a time', 'tomorrow', /ISO 8601/],
    ['a time without a zone', '2030-01-01T00:00:00', /ISO 8601/],
    ['an empty value', '', /ISO 8601/],
    ['a time in the past', new Date(Date.now() - 60_000).toISOString(), /future/],
    ['a time over a year ahead', new Date(Date.now() + 367 * 86_400_000).toISOString(), /365 days/],
  ])('400 VALIDATION_ERROR naming expiresAt for %s; nothing is created', async (_, value, reason) => {
    const before = ((await (await call(t, 'GET', '/documents?limit=100', { key: sk })).json()) as any).data.length;
    const error = await expectError(await upload(value), 400, 'VALIDATION_ERROR');
    expect(error.details).toMatchObject({ field: 'expiresAt', reason: expect.stringMatching(reason) });
    expect(((await (await call(t, 'GET', '/documents?limit=100', { key: sk })).json()) as any).data.length).toBe(before);
  });

  it('a misspelt part is refused, not ignored', async () => {
    const form = new FormData();
    form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'a.pdf'));
    form.set('fields', JSON.stringify(sampleFields(1)));
    form.set('expiresat', inDays(1));
    const res = await t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
    expect((await expectError(res, 400, 'VALIDATION_ERROR')).details).toMatchObject({ field: 'expiresat' });
  });
});
