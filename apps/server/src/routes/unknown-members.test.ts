import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, type FieldDefinition } from '@signet/contract';
import { generateSamplePdf, sampleFields, sampleLeaseFields } from '../pdf/sample.js';
import { buildPayload, call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { findDocument, listDocuments } from '../storage/queries/documents.js';
import { getWebhookEndpoint, listWebhookEndpoints } from '../storage/queries/webhook-endpoints.js';
import { findOrganizationProfile } from '../storage/queries/organizations.js';

/*
 * Requests are strict (docs/decisions.md): a member no schema lists, at the top of a body or nested in it, is refused
 * with 400 VALIDATION_ERROR naming it by its path, never dropped, on every endpoint that takes JSON and in the
 * `fields` and `signers` of an upload; nothing is stored for it. On both engines.
 */

const reasonFor = (name: string) => `received unknown member "${name}"; members not in the schema are refused, not ignored`;

async function refusedNaming(response: Response, field: string) {
  expect(response.status, field).toBe(400);
  const body = ErrorEnvelopeSchema.parse(await response.json());
  const name = /([^.[\]]+)$/.exec(field)![1]!;
  expect(body.error, field).toMatchObject({ code: 'VALIDATION_ERROR', details: { field, reason: reasonFor(name) } });
  expect(body.error.message).toBe(`Invalid ${field}: ${reasonFor(name)}`);
}

/** `fields` with `change` applied to its field `index`. */
const changed = (fields: FieldDefinition[], index: number, change: (field: Record<string, unknown>) => Record<string, unknown>) =>
  fields.map((field, at) => (at === index ? change({ ...field }) : field));

describe.each(engines)('unknown members on $name', (engine) => {
  let t: TestApp;
  let sk: string;
  let pk: string;
  let pdf: Uint8Array;
  beforeAll(async () => {
    t = await createTestApp(engine);
    sk = (await t.createKey({ kind: 'sk' })).secret;
    pk = (await t.createKey()).secret;
    pdf = await generateSamplePdf({ pages: 2, countersigned: true });
  });
  afterAll(() => t.close());

  const documentCount = async () => (await listDocuments(t.storage.db.query, t.org.id, { limit: 1000 })).length;
  const webhookCount = async () => (await listWebhookEndpoints(t.storage.db.query, t.org.id, { limit: 1000 })).length;

  function upload(fields: unknown, signers?: unknown) {
    const form = new FormData();
    form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'lease.pdf'));
    form.set('fields', JSON.stringify(fields));
    if (signers !== undefined) form.set('signers', JSON.stringify(signers));
    return t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
  }

  describe('POST /documents', () => {
    const fields = sampleFields(2);
    const textIndex = fields.findIndex((field) => field.type === 'text' && field.value === undefined);

    it('creates a document from field definitions with only listed members (the control)', async () => {
      expect(textIndex).toBeGreaterThan(0);
      expect((await upload(fields)).status).toBe(201);
    });

    it.each([
      ['a misspelt required', changed(fields, 0, ({ required, ...field }) => ({ ...field, requried: required })), 'fields[0].requried'],
      ['min beside validation, not inside it', changed(fields, textIndex, (field) => ({ ...field, min: 18 })), `fields[${textIndex}].min`],
      ['a misspelt rule inside validation', changed(fields, textIndex, (field) => ({ ...field, validation: { minn: 1 } })), `fields[${textIndex}].validation.minn`],
      ['a member in a prefill', changed(fields, textIndex, (field) => ({ ...field, value: { type: 'text', content: 'Ada', bold: true } })), `fields[${textIndex}].value.bold`],
      [
        'a member in an option',
        changed(fields, textIndex, (field) => ({ ...field, type: 'select', options: [{ value: 'a', label: 'A', selected: true }] })),
        `fields[${textIndex}].options[0].selected`,
      ],
    ])('400 naming %s, storing nothing', async (_, sent, field) => {
      const before = await documentCount();
      await refusedNaming(await upload(sent), field);
      expect(await documentCount()).toBe(before);
    });

    it('400 naming a part the form does not take, storing nothing', async () => {
      const before = await documentCount();
      const form = new FormData();
      form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'lease.pdf'));
      form.set('fields', JSON.stringify(fields));
      form.set('metadata', '{"crm":"42"}');
      const response = await t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
      expect(response.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(await response.json()).error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { field: 'metadata', reason: 'received unknown part "metadata"; the parts are file, fields, filename, signers, signingOrder, expiresAt, delivery, reminders, tags, formFields' },
      });
      expect(await documentCount()).toBe(before);
    });

    it('400 naming a signer\'s misspelt member, storing nothing', async () => {
      const before = await documentCount();
      const signers = [{ id: 'tenant', name: 'Tina', emial: 'tina@example.com' }, { id: 'landlord', name: 'Lars' }];
      await refusedNaming(await upload(sampleLeaseFields(2), signers), 'signers[0].emial');
      expect(await documentCount()).toBe(before);
    });
  });

  it('POST /documents/{id}/sessions: 400 naming a member at the top', async () => {
    const lease = await t.createLease();
    await refusedNaming(await call(t, 'POST', `/documents/${lease.id}/sessions`, { key: sk, body: { signerId: 'tenant', signer: 'landlord' } }), 'signer');
    expect((await call(t, 'POST', `/documents/${lease.id}/sessions`, { key: sk, body: { signerId: 'tenant' } })).status).toBe(201);
  });

  it('POST /webhooks and PATCH /webhooks/{id}: 400 naming the member, nothing stored or changed', async () => {
    const before = await webhookCount();
    const hook = { url: 'https://93.184.216.34/hook', events: ['document.sealed'] };
    await refusedNaming(await call(t, 'POST', '/webhooks', { key: sk, body: { ...hook, secret: 'whsec_mine' } }), 'secret');
    expect(await webhookCount()).toBe(before);
    const created = await call(t, 'POST', '/webhooks', { key: sk, body: hook });
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    await refusedNaming(await call(t, 'PATCH', `/webhooks/${id}`, { key: sk, body: { enabled: false, disabledReason: 'mine' } }), 'disabledReason');
    expect(await getWebhookEndpoint(t.storage.db.query, t.org.id, id)).toMatchObject({ enabled: true });
  });

  it('PATCH /organization: 400 naming the member, nothing changed', async () => {
    await refusedNaming(await call(t, 'PATCH', '/organization', { key: sk, body: { brandColor: '#0a7d4f', accentColor: '#ffffff' } }), 'accentColor');
    expect(await findOrganizationProfile(t.storage.db.query, t.org.id)).toMatchObject({ brandColor: null });
    expect((await call(t, 'PATCH', '/organization', { key: sk, body: { brandColor: '#0a7d4f' } })).status).toBe(200);
  });

  it('POST /sdk/documents/{id}/decline: 400 naming the member; the document stays pending', async () => {
    const document = await t.createDocument({ pages: 1 });
    await refusedNaming(await call(t, 'POST', `/sdk/documents/${document.id}/decline`, { key: pk, body: { reason: 'No', signerId: 'x' } }), 'signerId');
    expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('pending');
  });

  describe('POST /sdk/documents/submit', () => {
    it.each([
      ['at the top', (p: Record<string, any>) => (p.metadata = { source: 'crm' }), 'metadata'],
      ['in renderContext', (p: Record<string, any>) => (p.renderContext.zoom = 2), 'renderContext.zoom'],
      ['in a page', (p: Record<string, any>) => (p.pages[1].label = 'ii'), 'pages[1].label'],
      ['in a field', (p: Record<string, any>) => (p.fields[0].label = 'Name'), 'fields[0].label'],
      ['in a position', (p: Record<string, any>) => (p.fields[0].position.rotation = 0), 'fields[0].position.rotation'],
      ['in a value', (p: Record<string, any>) => (p.fields[0].value.html = '<b>Ada</b>'), 'fields[0].value.html'],
      ['in a style', (p: Record<string, any>) => (p.fields[0].style.color = 'red'), 'fields[0].style.color'],
    ])('400 naming a member %s, though the checksum covers it; the document stays pending', async (_, mutate, field) => {
      const document = await t.createDocument({ pages: 2 });
      // On a deep copy: the payload shares its style and prefills with other payloads.
      const payload = await buildPayload(document, undefined, (p) => mutate(Object.assign(p, structuredClone(p))));
      expect(payload.fields[0].style, 'the first field is typed text').toBeDefined();
      await refusedNaming(await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: payload }), field);
      expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('pending');
      expect((await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) })).status).toBe(201);
    });
  });
});
