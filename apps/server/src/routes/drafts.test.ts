import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/support/envelope.js';
import { type FieldDefinition } from '@signet/contract';
import { LEASE_SIGNERS, generateSamplePdf, sampleFields, sampleLeaseFields } from '../pdf/sample.js';
import { buildPayload, call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { findSignerStates } from '../storage/queries/signers.js';

/*
 * Drafts (docs/api.md, "Drafts"): created with `?draft=true`, edited whole with `If-Match`, checked and made
 * signable by sending; not signable before. On both engines.
 */

const data = async (response: Response) => ((await response.json()) as { data: any }).data;

describe.each(engines)('drafts on $name', (engine) => {
  let t: TestApp;
  let sk: string;
  let pk: string;
  let pdf: Uint8Array;
  beforeAll(async () => {
    t = await createTestApp(engine);
    sk = (await t.createKey({ kind: 'sk' })).secret;
    pk = (await t.createKey()).secret;
    pdf = await generateSamplePdf({ pages: 2 });
  });
  afterAll(() => t.close());

  async function createDraft(parts: Record<string, string> = {}) {
    const form = new FormData();
    form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'lease.pdf'));
    for (const [name, value] of Object.entries(parts)) form.set(name, value);
    const response = await t.app.request('/documents?draft=true', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
    expect(response.status).toBe(201);
    expect(response.headers.get('ETag')).toBe('"1"');
    return data(response);
  }
  const put = (id: string, body: unknown, ifMatch?: string, key = sk) =>
    call(t, 'PUT', `/documents/${id}/draft`, { key, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
  const send = (id: string, ifMatch?: string, key = sk) =>
    call(t, 'POST', `/documents/${id}/send`, { key, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });

  it('creates a draft without fields, reads it with its ETag, and saves with If-Match; its PDF URL outlives the saves', async () => {
    const created = await createDraft();
    expect(created).toMatchObject({ status: 'draft', version: 1, fields: [] });

    const read = await call(t, 'GET', `/documents/${created.id}/draft`, { key: sk });
    expect(read.status).toBe(200);
    expect(read.headers.get('ETag')).toBe('"1"');
    const draft = await data(read);
    expect(draft).toMatchObject({ id: created.id, status: 'draft', version: 1, fields: [], pageCount: 2 });
    expect(draft.signers).toBeUndefined();
    const file = new URL(draft.documentUrl);
    expect((await t.app.request(file.pathname + file.search)).status).toBe(200);

    await expectError(await put(created.id, { fields: sampleFields(2) }), 428, 'PRECONDITION_REQUIRED');
    const stale = await expectError(await put(created.id, { fields: sampleFields(2) }, '"7"'), 412, 'PRECONDITION_FAILED');
    expect(stale.details).toMatchObject({ currentVersion: 1, field: 'If-Match' });
    await expectError(await put(created.id, { fields: sampleFields(2) }, 'W/"1"'), 412, 'PRECONDITION_FAILED');

    const saved = await put(created.id, { fields: sampleFields(2) }, '"1"');
    expect(saved.status).toBe(200);
    expect(saved.headers.get('ETag')).toBe('"2"');
    expect(await data(saved)).toMatchObject({ version: 2, status: 'draft', fields: sampleFields(2) });
    // A list of tags names the current one too.
    expect((await put(created.id, { fields: sampleFields(1) }, '"1", "2"')).status).toBe(200);
    expect((await t.app.request(file.pathname + file.search)).status).toBe(200);
    expect((await call(t, 'GET', `/documents/${created.id}`, { key: sk })).headers.get('ETag')).toBe('"3"');
  });

  it('saves fields still being set up, and replaces signers with their rows; the first of two saves on one version wins', async () => {
    const draft = await createDraft();
    const select: FieldDefinition = { id: 'plan', type: 'select', page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05, required: true, editable: true, label: 'Plan' };
    const withSigners = { fields: sampleLeaseFields(2), signers: LEASE_SIGNERS.map((signer) => ({ ...signer })), signingOrder: 'sequential' };
    const saved = await put(draft.id, withSigners, '"1"');
    expect(saved.status).toBe(200);
    expect(await data(saved)).toMatchObject({ signingOrder: 'sequential', signers: [{ id: 'tenant', email: 'tina@example.com', order: 1 }, { id: 'landlord', order: 2 }] });
    expect((await findSignerStates(t.storage.db.query, draft.id)).map((state) => state.signerId).sort()).toEqual(['landlord', 'tenant']);

    const back = await put(draft.id, { fields: [select] }, '"2"');
    expect(back.status).toBe(200);
    expect((await data(back)).signers).toBeUndefined();
    expect((await findSignerStates(t.storage.db.query, draft.id)).map((state) => state.signerId)).toEqual(['']);

    const [a, b] = await Promise.all([put(draft.id, { fields: sampleFields(2) }, '"3"'), put(draft.id, { fields: [select] }, '"3"')]);
    expect([a.status, b.status].sort()).toEqual([200, 412]);
  });

  it('refuses what creation refuses: a field off the page, a field naming no signer, an order without signers', async () => {
    const draft = await createDraft();
    const off = sampleFields(2).map((field, i) => (i === 0 ? { ...field, page: 3 } : field));
    expect((await expectError(await put(draft.id, { fields: off }, '"1"'), 400, 'VALIDATION_ERROR')).details).toMatchObject({ field: 'fields[0].page' });
    expect((await expectError(await put(draft.id, { fields: sampleLeaseFields(2) }, '"1"'), 400, 'VALIDATION_ERROR')).details).toMatchObject({
      field: 'fields[0].signerId',
    });
    expect((await expectError(await put(draft.id, { fields: [], signingOrder: 'sequential' }, '"1"'), 400, 'VALIDATION_ERROR')).details).toMatchObject({
      field: 'signingOrder',
    });
    expect((await call(t, 'GET', `/documents/${draft.id}/draft`, { key: sk })).headers.get('ETag')).toBe('"1"');
  });

  it('is not signable: the SDK read, a submission, a decline and a session key are 409 "draft"', async () => {
    const draft = await createDraft({ fields: JSON.stringify(sampleFields(2)) });
    const document = { ...draft, fields: sampleFields(2) };
    const refusals = [
      await call(t, 'GET', `/sdk/documents/${draft.id}`, { key: pk }),
      await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) }),
      await call(t, 'POST', `/sdk/documents/${draft.id}/decline`, { key: pk, body: { reason: 'No' } }),
      await call(t, 'POST', `/documents/${draft.id}/sessions`, { key: sk, body: {} }),
    ];
    for (const response of refusals) expect((await expectError(response, 409, 'SUBMISSION_FAILED')).details).toMatchObject({ reason: 'draft' });
  });

  it('sending names every problem, then makes the draft signable with document.sent in its trail and to webhooks', async () => {
    const hook = await call(t, 'POST', '/webhooks', { key: sk, body: { url: 'https://93.184.216.34/hook', events: ['document.sent'] } });
    expect(hook.status).toBe(201);
    const draft = await createDraft();
    const fields: FieldDefinition[] = [
      { id: 'plan', type: 'select', page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05, required: true, editable: true, label: 'Plan', signerId: 'landlord' },
      { id: 'age', type: 'number', page: 1, x: 0.1, y: 0.3, width: 0.2, height: 0.05, required: true, editable: true, label: 'Age', validation: { min: 9, max: 1 }, signerId: 'landlord' },
    ];
    const signers = LEASE_SIGNERS.map((signer) => ({ ...signer }));
    expect((await put(draft.id, { fields, signers }, '"1"')).status).toBe(200);
    await expectError(await send(draft.id), 428, 'PRECONDITION_REQUIRED');
    await expectError(await send(draft.id, '"1"'), 412, 'PRECONDITION_FAILED');
    const refused = await expectError(await send(draft.id, '"2"'), 422, 'VALIDATION_ERROR');
    expect((refused.details as { problems: unknown[] }).problems).toEqual([
      { field: 'fields[0].options', reason: 'a select field needs options' },
      { field: 'fields[1].validation.max', reason: 'must not be less than min' },
      { field: 'signers[0]', reason: expect.stringMatching(/"tenant" has no field/) },
      { field: 'signers[1]', reason: expect.stringMatching(/"landlord" has no signature field/) },
    ]);

    expect((await put(draft.id, { fields: sampleLeaseFields(2), signers, signingOrder: 'sequential' }, '"2"')).status).toBe(200);
    const sent = await send(draft.id, '"3"');
    expect(sent.status).toBe(200);
    expect(sent.headers.get('ETag')).toBe('"4"');
    expect(await data(sent)).toMatchObject({ status: 'pending', version: 4, signers: [{ id: 'tenant', status: 'ready' }, { id: 'landlord', status: 'waiting' }] });

    const audit = await data(await call(t, 'GET', `/documents/${draft.id}/audit`, { key: sk }));
    expect(audit.events.map((event: { type: string }) => event.type)).toEqual(['document.created', 'document.sent']);
    const events = await t.storage.db.query.selectFrom('webhook_events').select(['type', 'body']).where('document_id', '=', draft.id).execute();
    expect(events.map((event) => event.type)).toEqual(['document.sent']);
    expect(JSON.parse(events[0]!.body)).toMatchObject({ type: 'document.sent', data: { documentId: draft.id, version: 4 } });

    // Signable now: a session key opens it; it is no draft any more.
    expect((await call(t, 'POST', `/documents/${draft.id}/sessions`, { key: sk, body: { signerId: 'tenant' } })).status).toBe(201);
    const again = await expectError(await send(draft.id, '"4"'), 409, 'DOCUMENT_NOT_DRAFT');
    expect(again.details).toMatchObject({ status: 'pending' });
    await expectError(await put(draft.id, { fields: [] }, '"4"'), 409, 'DOCUMENT_NOT_DRAFT');
    await expectError(await call(t, 'POST', `/documents/${draft.id}/builder-sessions`, { key: sk, body: {} }), 409, 'DOCUMENT_NOT_DRAFT');
  });

  it('leaves documents created the current way as they were: sent at creation, not editable', async () => {
    const document = await t.createDocument({ pages: 1 });
    await expectError(await put(document.id, { fields: [] }, '"1"'), 409, 'DOCUMENT_NOT_DRAFT');
    await expectError(await send(document.id, '"1"'), 409, 'DOCUMENT_NOT_DRAFT');
    const draft = await data(await call(t, 'GET', `/documents/${document.id}/draft`, { key: sk }));
    expect(draft).toMatchObject({ status: 'pending', version: 1 });
    const audit = await data(await call(t, 'GET', `/documents/${document.id}/audit`, { key: sk }));
    expect(audit.events.map((event: { type: string }) => event.type)).toEqual(['document.created']);
  });
});
