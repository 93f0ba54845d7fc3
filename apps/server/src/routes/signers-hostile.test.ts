import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/support/envelope.js';
import { generateSamplePdf, sampleFields, sampleLeaseFields } from '../pdf/sample.js';
import type { DocumentRecord } from '../storage/types.js';
import { call, createTestApp, type TestApp } from '../../test/support/harness.js';
import { listDocuments } from '../storage/queries/documents.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

/*
 * Hostile input to what several signers added: the `signers` and `signingOrder` parts of an upload, and the session
 * endpoints. Each refusal is the contract's envelope with its code, names the member, and stores nothing.
 */

let t: TestApp;
let sk: string;
let pdf: Uint8Array;
let lease: DocumentRecord;
let plain: DocumentRecord;

beforeAll(async () => {
  t = await createTestApp();
  sk = (await t.createKey({ kind: 'sk' })).secret;
  pdf = await generateSamplePdf({ pages: 2, countersigned: true });
  lease = await t.createLease();
  plain = await t.createDocument({ pages: 1 });
});
afterAll(() => t.close());

function upload(parts: Record<string, string | File>) {
  const form = new FormData();
  form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'lease.pdf'));
  form.set('fields', JSON.stringify(sampleLeaseFields(2)));
  for (const [name, value] of Object.entries(parts)) form.set(name, value);
  return t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
}

const tenantAndLandlord = JSON.stringify([
  { id: 'tenant', name: 'Tina' },
  { id: 'landlord', name: 'Lars', order: 2 },
]);

describe('the signers of an upload', () => {
  it('creates a document with signers, each field naming one, and each signer with a language if given', async () => {
    const created = await upload({ signers: JSON.stringify([{ id: 'tenant', name: 'Tina', locale: 'pl' }, { id: 'landlord', name: 'Lars', order: 2 }]), signingOrder: 'sequential' });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as any;
    expect(data.signingOrder).toBe('sequential');
    expect(data.signers.map((s: any) => [s.id, s.order, s.status, s.locale])).toEqual([
      ['tenant', 1, 'ready', 'pl'],
      ['landlord', 2, 'waiting', undefined],
    ]);
    const read = ((await (await call(t, 'GET', `/documents/${data.id}`, { key: sk })).json()) as any).data;
    expect(read.signers[0].locale).toBe('pl');
    expect(read.signers[1]).not.toHaveProperty('locale');
  });

  it('takes fields and signers as JSON files too, as curl sends -F fields=@fields.json', async () => {
    const created = await upload({
      fields: new File([`\uFEFF${JSON.stringify(sampleLeaseFields(2))}`], 'fields.json', { type: 'application/json' }),
      signers: new File([tenantAndLandlord], 'signers.json'),
    });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as any;
    expect(data.signers.map((s: any) => s.id)).toEqual(['tenant', 'landlord']);
    expect(data.fields).toHaveLength(sampleLeaseFields(2).length);
  });

  it('413 for a JSON file part over 1 MiB, naming it, and stores nothing', async () => {
    const before = (await listDocuments(t.storage.db.query, t.org.id, { limit: 100 })).length;
    const padded = `${JSON.stringify(sampleLeaseFields(2))}${' '.repeat(1024 * 1024)}`;
    const error = await expectError(await upload({ fields: new File([padded], 'fields.json') }), 413, 'VALIDATION_ERROR');
    expect(error.details?.field).toBe('fields');
    expect((await listDocuments(t.storage.db.query, t.org.id, { limit: 100 })).length).toBe(before);
  });

  const refusals: Array<[string, Record<string, string | File>, string, RegExp]> = [
    ['signers that are not JSON', { signers: '[{"id":' }, 'signers', /JSON array of signers/],
    ['signers that are an object', { signers: '{"id":"tenant"}' }, 'signers', /array/i],
    ['an empty list of signers', { signers: '[]' }, 'signers', /./],
    ['a signer without a name', { signers: '[{"id":"tenant"}]' }, 'signers[0].name', /./],
    ['a blank name', { signers: '[{"id":"tenant","name":"   "}]' }, 'signers[0].name', /./],
    ['a signer id with a slash', { signers: '[{"id":"a/b","name":"A"}]' }, 'signers[0].id', /letters, digits/],
    ['a duplicate signer id', { signers: '[{"id":"tenant","name":"A"},{"id":"tenant","name":"B"}]' }, 'signers[1].id', /duplicate signer id/],
    ['an unknown member', { signers: '[{"id":"tenant","name":"A","role":"admin"}]' }, 'signers[0].role', /received unknown member "role"/],
    ['a misspelt part', { signers: tenantAndLandlord, signingorder: 'sequential' }, 'signingorder', /received unknown part "signingorder"; the parts are file, fields, filename, signers, signingOrder/],
    ['a misspelt email', { signers: '[{"id":"tenant","name":"A","emial":"t@example.com"}]' }, 'signers[0].emial', /received unknown member "emial"/],
    ['a field with a misspelt required', { fields: JSON.stringify(sampleLeaseFields(2).map(({ required, ...field }, i) => (i === 0 ? { ...field, requried: required } : { ...field, required }))) }, 'fields[0].requried', /received unknown member "requried"/],
    ['a field with min beside validation', { fields: JSON.stringify(sampleLeaseFields(2).map((field, i) => (i === 1 ? { ...field, min: 18 } : field))) }, 'fields[1].min', /received unknown member "min"/],
    ['a field with a misspelt rule', { fields: JSON.stringify(sampleLeaseFields(2).map((field, i) => (i === 2 ? { ...field, validation: { minn: 1 } } : field))) }, 'fields[2].validation.minn', /received unknown member "minn"/],
    ['a bad email', { signers: '[{"id":"tenant","name":"A","email":"not-an-email"}]' }, 'signers[0].email', /./],
    ['an order of 0', { signers: '[{"id":"tenant","name":"A","order":0}]' }, 'signers[0].order', /./],
    ['a language Signet does not speak', { signers: '[{"id":"tenant","name":"A","locale":"xx"}]' }, 'signers[0].locale', /"en".*"ar"/],
    ['a language with a region', { signers: '[{"id":"tenant","name":"A","locale":"de-DE"}]' }, 'signers[0].locale', /"de"/],
    ['a language in capitals', { signers: '[{"id":"tenant","name":"A","locale":"EN"}]' }, 'signers[0].locale', /./],
    ['a language that is not text', { signers: '[{"id":"tenant","name":"A","locale":1}]' }, 'signers[0].locale', /./],
    ['a fractional order', { signers: '[{"id":"tenant","name":"A","order":1.5}]' }, 'signers[0].order', /./],
    ['21 signers', { signers: JSON.stringify(Array.from({ length: 21 }, (_, i) => ({ id: `s${i}`, name: `S${i}` }))) }, 'signers', /./],
    ['an unknown signing order', { signers: tenantAndLandlord, signingOrder: 'random' }, 'signingOrder', /parallel.*sequential/],
    ['a signing order without signers', { signingOrder: 'sequential' }, 'signingOrder', /signers/],
    ['a field naming no listed signer', { signers: '[{"id":"tenant","name":"A"}]' }, `fields[${sampleLeaseFields(2).findIndex((field) => field.signerId === 'landlord')}].signerId`, /no signer "landlord"/],
    ['a file in place of the signing order', { signers: tenantAndLandlord, signingOrder: new File(['sequential'], 'order.txt') }, 'signingOrder', /text part/],
    ['a signers file that is not UTF-8', { signers: new File([new Uint8Array([0x5b, 0xff, 0xfe, 0x5d])], 'signers.json') }, 'signers', /UTF-8/],
    ['a fields file that is not JSON', { fields: new File(['[{"id":'], 'fields.json') }, 'fields', /JSON/],
  ];
  it.each(refusals)('400 VALIDATION_ERROR for %s', async (_, parts, field, reason) => {
    const before = (await listDocuments(t.storage.db.query, t.org.id, { limit: 100 })).length;
    const error = await expectError(await upload(parts), 400, 'VALIDATION_ERROR');
    expect(error.details?.field).toBe(field);
    expect(error.details?.reason).toMatch(reason);
    expect((await listDocuments(t.storage.db.query, t.org.id, { limit: 100 })).length).toBe(before);
  });

  it('400 for fields naming signers on a document without them, and for fields naming none on one with them', async () => {
    const form = new FormData();
    form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'lease.pdf'));
    form.set('fields', JSON.stringify(sampleLeaseFields(2)));
    const noSigners = await t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
    expect((await expectError(noSigners, 400, 'VALIDATION_ERROR')).details).toMatchObject({ field: 'fields[0].signerId' });
    const unnamed = new FormData();
    unnamed.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'lease.pdf'));
    unnamed.set('fields', JSON.stringify(sampleFields(2)));
    unnamed.set('signers', tenantAndLandlord);
    const missing = await t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: unnamed });
    expect((await expectError(missing, 400, 'VALIDATION_ERROR')).details).toMatchObject({
      field: 'fields[0].signerId',
      reason: 'on a document with signers, each field names the signer who fills it in',
    });
  });
});

describe('POST /documents/{id}/sessions', () => {
  const create = (documentId: string, body: unknown, headers: Record<string, string> = {}) =>
    call(t, 'POST', `/documents/${documentId}/sessions`, { key: sk, body, headers });

  it('201 with a pk key shown once, valid for an hour by default', async () => {
    const response = await create(lease.id, { signerId: 'tenant' });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as any;
    expect(data.key).toMatch(/^pk_[A-Za-z0-9]{32,}$/);
    expect(data).toMatchObject({ documentId: lease.id, signerId: 'tenant', origins: [], revokedAt: null });
    expect(Date.parse(data.expiresAt) - Date.parse(data.createdAt)).toBe(3600_000);
  });

  const refusals: Array<[string, unknown, number, string]> = [
    ['no signerId on a document with signers', {}, 422, 'signerId'],
    ['an unknown signer', { signerId: 'nobody' }, 422, 'signerId'],
    ['a malformed signer id', { signerId: '../etc' }, 400, 'signerId'],
    ['a lifetime under a minute', { signerId: 'tenant', expiresInSeconds: 59 }, 400, 'expiresInSeconds'],
    ['a lifetime over 7 days', { signerId: 'tenant', expiresInSeconds: 7 * 24 * 3600 + 1 }, 400, 'expiresInSeconds'],
    ['a lifetime as a string', { signerId: 'tenant', expiresInSeconds: '3600' }, 400, 'expiresInSeconds'],
    ['an origin with a path', { signerId: 'tenant', origins: ['https://host.example/app'] }, 400, 'origins[0]'],
    ['an origin of another scheme', { signerId: 'tenant', origins: ['javascript:alert(1)'] }, 400, 'origins[0]'],
    ['21 origins', { signerId: 'tenant', origins: Array.from({ length: 21 }, (_, i) => `https://h${i}.example`) }, 400, 'origins'],
    ['an unknown member', { signerId: 'tenant', scopes: ['documents:write'] }, 400, 'scopes'],
    ['a misspelt member', { signerId: 'tenant', expiresInSecond: 60 }, 400, 'expiresInSecond'],
    ['an array body', [{ signerId: 'tenant' }], 400, 'body'],
    ['a string body', '"tenant"', 400, 'body'],
    ['malformed JSON', '{"signerId":', 400, 'body'],
    ['a duplicate member', '{"signerId":"tenant","signerId":"landlord"}', 400, 'signerId'],
  ];
  it.each(refusals)('%s: refused, naming it', async (_, body, status, field) => {
    const error = await expectError(await create(lease.id, body), status, 'VALIDATION_ERROR');
    expect(error.details?.field ?? 'body').toBe(field);
  });

  it('422 for a signerId on a document without signers; a session without one works there', async () => {
    const error = await expectError(await create(plain.id, { signerId: 'tenant' }), 422, 'VALIDATION_ERROR');
    expect(error.details).toMatchObject({ field: 'signerId' });
    expect((await create(plain.id, {})).status).toBe(201);
  });

  it('413 for an oversized body, 415-free: a body that is not JSON is named', async () => {
    await expectError(await create(lease.id, { signerId: 'tenant', pad: 'x'.repeat(20_000) }), 413, 'VALIDATION_ERROR');
  });

  it("404 DOCUMENT_NOT_FOUND for another organization's document, as for none", async () => {
    const elsewhere = await ensureOrganization(t.storage.db.query, 'signers-elsewhere', 'Elsewhere');
    const foreign = await t.createDocument({ pages: 1, organizationId: elsewhere.id });
    await expectError(await create(foreign.id, {}), 404, 'DOCUMENT_NOT_FOUND');
    await expectError(await create(`doc_${'Q'.repeat(24)}`, {}), 404, 'DOCUMENT_NOT_FOUND');
    await expectError(await create('not-an-id', {}), 400, 'VALIDATION_ERROR');
  });
});

describe('DELETE /documents/{id}/sessions/{keyId}', () => {
  it('revokes once and answers the same record again; an organization key is not a session', async () => {
    const session = await t.createSession(lease.id, 'landlord');
    const first = await call(t, 'DELETE', `/documents/${lease.id}/sessions/${session.id}`, { key: sk });
    const revokedAt = ((await first.json()) as any).data.revokedAt;
    const second = await call(t, 'DELETE', `/documents/${lease.id}/sessions/${session.id}`, { key: sk });
    expect(((await second.json()) as any).data.revokedAt).toBe(revokedAt);
    // Revoked by the host, of a document still open: the refusal gives no reason of the document's.
    const refused = await expectError(await call(t, 'GET', `/sdk/documents/${lease.id}`, { key: session.secret }), 401, 'INVALID_API_KEY');
    expect(refused.details).toBeUndefined();
    const orgKey = await t.createKey();
    await expectError(await call(t, 'DELETE', `/documents/${lease.id}/sessions/${orgKey.id}`, { key: sk }), 404, 'NOT_FOUND');
    expect((await call(t, 'POST', '/sdk/validate-key', { key: orgKey.secret })).status).toBe(200);
    await expectError(await call(t, 'DELETE', `/documents/${lease.id}/sessions/nope`, { key: sk }), 400, 'VALIDATION_ERROR');
  });
});
