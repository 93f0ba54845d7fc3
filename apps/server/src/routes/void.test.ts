import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagedDocumentSchema, fieldsOfSigner, successEnvelope } from '@signet/contract';
import { expectError } from '../../test/support/envelope.js';
import { buildPayload, call, completeValues, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { findDocument } from '../storage/queries/documents.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { findSealState } from '../storage/queries/seals.js';
import { fanOutWebhookEvents, listWebhookDeliveries } from '../storage/queries/webhook-deliveries.js';

/*
 * Voiding (docs/lifecycle.md): the sender withdraws a document not completed, a draft too. It reads `voided`, its
 * session and builder session keys and its document URLs stop at once, it takes no submission or decline, and says
 * so on its audit trail and to webhook endpoints. On both engines.
 */

describe.each(engines)('voiding on $name', (engine) => {
  let t: TestApp;
  let pk: string;
  let sk: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    pk = (await t.createKey()).secret;
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterAll(() => t.close());

  const voidIt = (key: string | undefined, documentId: string, body: unknown, headers: Record<string, string> = {}) =>
    call(t, 'POST', `/documents/${documentId}/void`, { ...(key ? { key } : {}), body, headers });
  const local = (url: string) => new URL(url).pathname + new URL(url).search;

  it('voids a pending document: its status, keys, URLs, submit, decline, audit trail and webhook event', async () => {
    const document = await t.createDocument({ pages: 1 });
    const hook = await call(t, 'POST', '/webhooks', { key: sk, body: { url: 'https://93.184.216.34/hook', events: ['document.voided'] } });
    const webhookId = ((await hook.json()) as any).data.id;
    const session = await t.createSession(document.id);
    const sdk = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key: pk })).json()) as any;
    const viaSession = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key: session.secret })).json()) as any;
    expect((await t.app.request(local(sdk.documentUrl))).status).toBe(200);

    const res = await voidIt(sk, document.id, { reason: '  Sent to the wrong tenant.  ' });
    expect(res.status).toBe(200);
    const voided = successEnvelope(ManagedDocumentSchema).parse(await res.json()).data;
    expect(voided).toMatchObject({ id: document.id, status: 'voided', version: 2, voided: { reason: 'Sent to the wrong tenant.', voidedAt: expect.any(String) } });
    expect(res.headers.get('ETag')).toBe('"2"');
    const managed = ((await (await call(t, 'GET', `/documents/${document.id}`, { key: sk })).json()) as any).data;
    expect(managed).toEqual(voided);
    const listed = ((await (await call(t, 'GET', '/documents?limit=100', { key: sk })).json()) as any).data;
    expect(listed.find((item: { id: string }) => item.id === document.id).status).toBe('voided');

    // Signing stops: the SDK read and the submit answer 409 voided, the session key is revoked, the URLs refused.
    const read = await expectError(await call(t, 'GET', `/sdk/documents/${document.id}`, { key: pk }), 409, 'SUBMISSION_FAILED');
    expect(read.details).toMatchObject({ reason: 'voided' });
    const submitted = await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) });
    expect((await expectError(submitted, 409, 'SUBMISSION_FAILED')).details).toMatchObject({ reason: 'voided' });
    const declined = await call(t, 'POST', `/sdk/documents/${document.id}/decline`, { key: pk, body: { reason: 'no' } });
    expect((await expectError(declined, 409, 'SUBMISSION_FAILED')).details).toMatchObject({ reason: 'voided' });
    // The revoked session key's refusal says why, so that the signer's viewer can say it too.
    const revoked = await expectError(await call(t, 'GET', `/sdk/documents/${document.id}`, { key: session.secret }), 401, 'INVALID_API_KEY');
    expect(revoked.details).toEqual({ reason: 'voided' });
    for (const url of [sdk.documentUrl, viaSession.documentUrl, sdk.documentUrl.replace('/file?', '/preview?')]) {
      const refused = await expectError(await t.app.request(local(url)), 403, 'INSUFFICIENT_PERMISSIONS');
      expect(refused.details?.reason).toMatch(/voided|revoked/);
    }
    const newSession = await call(t, 'POST', `/documents/${document.id}/sessions`, { key: sk, body: {} });
    expect((await expectError(newSession, 409, 'SUBMISSION_FAILED')).details).toMatchObject({ reason: 'voided' });
    // Never sealed: the sealed copy answers as for any document not sealed.
    await expectError(await call(t, 'GET', `/documents/${document.id}/signed.pdf`, { key: sk }), 409, 'DOCUMENT_NOT_SEALED');
    expect((await findSealState(t.storage.db.query, document.id)).job).toBeNull();

    const audit = ((await (await call(t, 'GET', `/documents/${document.id}/audit`, { key: sk })).json()) as any).data.events;
    expect(audit.map((event: { type: string }) => event.type)).toEqual(['document.created', 'document.opened', 'document.voided']);
    expect(audit[2]).toEqual({ type: 'document.voided', occurredAt: voided.voided!.voidedAt, ip: null, userAgent: null });
    while ((await fanOutWebhookEvents(t.storage.db, { limit: 100 })) > 0);
    const deliveries = await listWebhookDeliveries(t.storage.db.query, webhookId, { limit: 10 });
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(['document.voided']);
  });

  it('voids a draft: its builder session key and its documentUrl stop, and it can no longer be edited or sent', async () => {
    const form = new FormData();
    form.set('file', new File([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>], 'draft.pdf'));
    form.set('fields', JSON.stringify(sampleFields(1)));
    const created = await t.app.request('/documents?draft=true', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
    const draft = ((await created.json()) as any).data;
    const builder = ((await (await call(t, 'POST', `/documents/${draft.id}/builder-sessions`, { key: sk, body: { allowSend: true } })).json()) as any).data;
    const { documentUrl } = ((await (await call(t, 'GET', `/documents/${draft.id}/draft`, { key: builder.key })).json()) as any).data;
    expect((await t.app.request(local(documentUrl))).status).toBe(200);

    expect(((await (await voidIt(sk, draft.id, { reason: 'Wrong file' })).json()) as any).data.status).toBe('voided');
    expect((await expectError(await call(t, 'GET', `/documents/${draft.id}/draft`, { key: builder.key }), 401, 'INVALID_API_KEY')).details).toEqual({ reason: 'voided' });
    await expectError(await t.app.request(local(documentUrl)), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'POST', `/documents/${draft.id}/send`, { key: sk, headers: { 'If-Match': '"2"' } }), 409, 'DOCUMENT_NOT_DRAFT');
    const edit = await call(t, 'PUT', `/documents/${draft.id}/draft`, { key: sk, body: { fields: [] }, headers: { 'If-Match': '"2"' } });
    await expectError(edit, 409, 'DOCUMENT_NOT_DRAFT');
    const read = await expectError(await call(t, 'GET', `/sdk/documents/${draft.id}`, { key: pk }), 409, 'SUBMISSION_FAILED');
    expect(read.details).toMatchObject({ reason: 'voided' });
  });

  it('409 DOCUMENT_CLOSED for a completed, declined or voided document, which stays as it was', async () => {
    const completed = await t.createDocument({ pages: 1 });
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(completed) })).status).toBe(201);
    const declined = await t.createDocument({ pages: 1 });
    expect((await call(t, 'POST', `/sdk/documents/${declined.id}/decline`, { key: pk, body: { reason: 'no' } })).status).toBe(200);
    const voided = await t.createDocument({ pages: 1 });
    expect((await voidIt(sk, voided.id, { reason: 'first' })).status).toBe(200);
    for (const [document, status] of [[completed, 'completed'], [declined, 'declined'], [voided, 'voided']] as const) {
      const error = await expectError(await voidIt(sk, document.id, { reason: 'again' }), 409, 'DOCUMENT_CLOSED');
      expect(error.details).toMatchObject({ status, reason: expect.any(String) });
      expect((await findDocument(t.storage.db.query, document.id))!.status).toBe(status);
    }
    expect((await findDocument(t.storage.db.query, voided.id))!.voided!.reason).toBe('first');
  });

  it('a lease partly signed is voided; the other signer can no longer sign', async () => {
    const lease = await t.createLease({ signingOrder: 'parallel' });
    const tenant = (await t.createSession(lease.id, 'tenant')).secret;
    const landlord = (await t.createSession(lease.id, 'landlord')).secret;
    const own = { ...lease, fields: fieldsOfSigner(lease.fields, 'tenant') };
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: tenant, body: await buildPayload(own, completeValues(own.fields)) })).status).toBe(201);
    expect(((await (await voidIt(sk, lease.id, { reason: 'The flat was let to someone else' })).json()) as any).data.status).toBe('voided');
    await expectError(await call(t, 'GET', `/sdk/documents/${lease.id}`, { key: landlord }), 401, 'INVALID_API_KEY');
    const theirs = { ...lease, fields: fieldsOfSigner(lease.fields, 'landlord') };
    const submitted = await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: { ...(await buildPayload(theirs, completeValues(theirs.fields))) } });
    expect([409, 422]).toContain(submitted.status);
    expect((await findDocument(t.storage.db.query, lease.id))!.status).toBe('voided');
  });

  it.each([
    ['an empty reason', { reason: '' }, 'reason'],
    ['a blank reason', { reason: '   ' }, 'reason'],
    ['a reason over 500 characters', { reason: 'x'.repeat(501) }, 'reason'],
    ['a reason that is not a string', { reason: 42 }, 'reason'],
    ['no reason', {}, 'reason'],
    ['an unknown member', { reason: 'no', status: 'completed' }, 'status'],
    ['an array', [{ reason: 'no' }], 'body'],
    ['malformed JSON', '{"reason":', 'body'],
    ['a reason holding a NUL', { reason: 'No\u0000, not this' }, 'reason'],
  ])('400 VALIDATION_ERROR for %s, and the document stays pending', async (_, body, field) => {
    const document = await t.createDocument({ pages: 1 });
    const error = await expectError(await voidIt(sk, document.id, body), 400, 'VALIDATION_ERROR');
    expect(error.details?.field ?? 'body').toBe(field);
    expect((await findDocument(t.storage.db.query, document.id))!.status).toBe('pending');
  });

  it('auth: no key, a pk key, a session key, a missing scope, an sk key from a browser; 415 and 413; a bad id; another organization', async () => {
    const document = await t.createDocument({ pages: 1 });
    const body = { reason: 'no' };
    await expectError(await voidIt(undefined, document.id, body), 401, 'INVALID_API_KEY');
    await expectError(await voidIt(`sk_${'Z'.repeat(40)}`, document.id, body), 401, 'INVALID_API_KEY');
    await expectError(await voidIt(pk, document.id, body), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await voidIt((await t.createSession(document.id)).secret, document.id, body), 403, 'INSUFFICIENT_PERMISSIONS');
    const readOnly = (await t.createKey({ kind: 'sk', scopes: ['documents:read'] })).secret;
    expect((await expectError(await voidIt(readOnly, document.id, body), 403, 'INSUFFICIENT_PERMISSIONS')).details?.required).toEqual(['documents:write']);
    await expectError(await voidIt(sk, document.id, body, { Origin: 'https://host.example' }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await voidIt(sk, document.id, JSON.stringify(body), { 'Content-Type': 'text/plain' }), 415, 'VALIDATION_ERROR');
    await expectError(await voidIt(sk, document.id, { reason: 'x'.repeat(20_000) }), 413, 'VALIDATION_ERROR');
    await expectError(await voidIt(sk, 'doc_nope', body), 400, 'VALIDATION_ERROR');
    await expectError(await voidIt(sk, 'xyz', body), 400, 'VALIDATION_ERROR');
    await expectError(await voidIt(sk, `doc_${'Z'.repeat(24)}`, body), 404, 'DOCUMENT_NOT_FOUND');
    const elsewhere = await ensureOrganization(t.storage.db.query, `void-elsewhere-${engine.name}`, 'Elsewhere');
    const foreign = await t.createDocument({ pages: 1, organizationId: elsewhere.id });
    await expectError(await voidIt(sk, foreign.id, body), 404, 'DOCUMENT_NOT_FOUND');
    expect((await findDocument(t.storage.db.query, foreign.id))!.status).toBe('pending');
    expect((await findDocument(t.storage.db.query, document.id))!.status).toBe('pending');
  });
});
