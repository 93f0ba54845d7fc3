import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/support/envelope.js';
import { fieldsOfSigner } from '@signet/contract';
import { storageEngines } from '../../test/storage/test-engines.js';
import { buildPayload, call, completeValues, createTestApp, type TestApp } from '../../test/support/harness.js';
import { findDocument } from '../storage/queries/documents.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { findSealState } from '../storage/queries/seals.js';
import { fanOutWebhookEvents, listWebhookDeliveries } from '../storage/queries/webhook-deliveries.js';

/*
 * Declining: a signer declines with a reason; the document is declined, takes no submission, keeps its
 * first decline on a repeat, and says so on its audit trail and to webhook endpoints. On both engines.
 */

const engines = await storageEngines();

describe.each(engines)('declining on $name', (engine) => {
  let t: TestApp;
  let pk: string;
  let sk: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    pk = (await t.createKey()).secret;
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterAll(() => t.close());

  const decline = (key: string, documentId: string, body: unknown) => call(t, 'POST', `/sdk/documents/${documentId}/decline`, { key, body });

  it('declines with a reason, once: a repeat answers the first decline, a submission is refused, the trail says so', async () => {
    const document = await t.createDocument({ pages: 1 });
    const hook = await call(t, 'POST', '/webhooks', { key: sk, body: { url: 'https://93.184.216.34/hook', events: ['document.declined'] } });
    const webhookId = ((await hook.json()) as any).data.id;

    const first = await decline(pk, document.id, { reason: '  The rent is not what we agreed.  ' });
    expect(first.status).toBe(200);
    const result = (await first.json()) as any;
    expect(result).toEqual({ documentId: document.id, status: 'declined', reason: 'The rent is not what we agreed.', declinedAt: expect.any(String) });
    const again = await decline(pk, document.id, { reason: 'Another reason' });
    expect(await again.json()).toEqual(result);

    const submitted = await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) });
    expect((await expectError(submitted, 409, 'SUBMISSION_FAILED')).details).toMatchObject({ reason: 'declined' });

    const managed = ((await (await call(t, 'GET', `/documents/${document.id}`, { key: sk })).json()) as any).data;
    expect(managed).toMatchObject({ status: 'declined', declined: { reason: 'The rent is not what we agreed.', declinedAt: result.declinedAt } });
    const sdk = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key: pk })).json()) as any;
    expect(sdk.metadata.status).toBe('declined');
    const audit = ((await (await call(t, 'GET', `/documents/${document.id}/audit`, { key: sk })).json()) as any).data.events;
    expect(audit.map((event: { type: string }) => event.type)).toEqual(['document.created', 'document.declined']);
    expect(audit[1]).toMatchObject({ ip: '203.0.113.7' });
    expect((await findSealState(t.storage.db.query, document.id)).job).toBeNull();

    while ((await fanOutWebhookEvents(t.storage.db, { limit: 100 })) > 0);
    const deliveries = await listWebhookDeliveries(t.storage.db.query, webhookId, { limit: 10 });
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(['document.declined']);
  });

  it('refuses to decline a completed document, and a signer who has signed; a session key declines for its signer', async () => {
    const completed = await t.createDocument({ pages: 1 });
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(completed) })).status).toBe(201);
    expect((await expectError(await decline(pk, completed.id, { reason: 'Too late' }), 409, 'SUBMISSION_FAILED')).details).toMatchObject({
      reason: 'completed',
    });

    const lease = await t.createLease({ signingOrder: 'parallel' });
    const tenant = (await t.createSession(lease.id, 'tenant')).secret;
    const landlord = (await t.createSession(lease.id, 'landlord')).secret;
    const own = { ...lease, fields: fieldsOfSigner(lease.fields, 'tenant') };
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: tenant, body: await buildPayload(own, completeValues(own.fields)) })).status).toBe(201);
    expect((await expectError(await decline(tenant, lease.id, { reason: 'Changed my mind' }), 409, 'SUBMISSION_FAILED')).details).toMatchObject({
      reason: 'already_signed',
    });
    const declined = await decline(landlord, lease.id, { reason: 'The deposit is missing' });
    expect(await declined.json()).toMatchObject({ status: 'declined', signerId: 'landlord' });
    const other = await t.createDocument({ pages: 1 });
    await expectError(await decline(landlord, other.id, { reason: 'Not mine' }), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it.each([
    ['an empty reason', { reason: '' }, 'reason'],
    ['a blank reason', { reason: '   ' }, 'reason'],
    ['a reason over 1000 characters', { reason: 'x'.repeat(1001) }, 'reason'],
    ['a reason that is not a string', { reason: 42 }, 'reason'],
    ['no reason', {}, 'reason'],
    ['an unknown member', { reason: 'no', status: 'completed' }, 'status'],
    ['a misspelt reason', { raeson: 'no' }, 'raeson'],
    ['an array', [{ reason: 'no' }], 'body'],
    ['malformed JSON', '{"reason":', 'body'],
    // PostgreSQL's text refuses NUL (it was a 500) and SQLite cut the stored reason there.
    ['a reason holding a NUL', { reason: 'No\u0000, not this' }, 'reason'],
  ])('400 VALIDATION_ERROR for %s, and the document stays pending', async (_, body, field) => {
    const document = await t.createDocument({ pages: 1 });
    const error = await expectError(await decline(pk, document.id, body), 400, 'VALIDATION_ERROR');
    expect(error.details?.field ?? 'body').toBe(field);
    expect((await findDocument(t.storage.db.query, document.id))!.status).toBe('pending');
  });

  it("404 for another organization's document, 400 for a malformed id", async () => {
    const elsewhere = await ensureOrganization(t.storage.db.query, `decline-elsewhere-${engine.name}`, 'Elsewhere');
    const foreign = await t.createDocument({ pages: 1, organizationId: elsewhere.id });
    await expectError(await decline(pk, foreign.id, { reason: 'no' }), 404, 'DOCUMENT_NOT_FOUND');
    await expectError(await decline(pk, 'doc_nope', { reason: 'no' }), 400, 'VALIDATION_ERROR');
    expect((await findDocument(t.storage.db.query, foreign.id))!.status).toBe('pending');
  });
});
