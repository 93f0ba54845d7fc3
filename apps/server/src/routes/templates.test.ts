import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagedDocumentSchema, TemplateSchema, fieldsOfSigner, successEnvelope, type FieldDefinition } from '@signet/contract';
import { expectError } from '../../test/support/envelope.js';
import { buildPayload, call, completeValues, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { generateSamplePdf, sampleLeaseFields } from '../pdf/sample.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { readDocumentContent } from '../storage/queries/document-files.js';
import { createHash } from 'node:crypto';

/*
 * Templates (docs/templates.md): created from an upload, read, listed, edited under `If-Match` as new versions,
 * deleted; documents made from them copy the current version, bind each role to a signer and take prefilled values;
 * a builder session key reaches its template alone. On both engines.
 */

const ROLES = [
  { id: 'tenant', name: 'Tenant', order: 1 },
  { id: 'landlord', name: 'Landlord', order: 2 },
];
const SIGNERS = [
  { role: 'landlord', name: 'Lars Landlord', email: 'lars@example.com' },
  { role: 'tenant', name: 'Tina Tenant' },
];

describe.each(engines)('templates on $name', (engine) => {
  let t: TestApp;
  let sk: string;
  let pdf: Uint8Array;
  beforeAll(async () => {
    t = await createTestApp(engine);
    sk = (await t.createKey({ kind: 'sk' })).secret;
    pdf = await generateSamplePdf({ pages: 1 });
  });
  afterAll(() => t.close());

  const local = (url: string) => new URL(url).pathname + new URL(url).search;

  function templateForm(parts: Record<string, string> = {}, file: Uint8Array = pdf) {
    const form = new FormData();
    form.set('file', new File([file as Uint8Array<ArrayBuffer>], 'lease.pdf', { type: 'application/pdf' }));
    const defaults = { name: 'Lease', fields: JSON.stringify(sampleLeaseFields(1)), roles: JSON.stringify(ROLES), signingOrder: 'sequential' };
    for (const [name, value] of Object.entries({ ...defaults, ...parts })) if (value !== '') form.set(name, value);
    return form;
  }
  const upload = (form: FormData, key = sk) => t.app.request('/templates', { method: 'POST', headers: { 'X-API-Key': key }, body: form });

  async function newTemplate(parts: Record<string, string> = {}) {
    const response = await upload(templateForm(parts));
    expect(response.status, await response.clone().text()).toBe(201);
    return successEnvelope(TemplateSchema).parse(await response.json()).data;
  }
  const makeDocument = (templateId: string, body: unknown, key = sk) => call(t, 'POST', `/templates/${templateId}/documents`, { key, body });

  it('creates, reads and lists a template, and serves its PDF to the holder of its documentUrl', async () => {
    const response = await upload(templateForm({ expiresInDays: '14' }));
    expect(response.status).toBe(201);
    expect(response.headers.get('ETag')).toBe('"1"');
    const template = successEnvelope(TemplateSchema).parse(await response.json()).data;
    expect(template).toMatchObject({
      name: 'Lease',
      filename: 'lease.pdf',
      pageCount: 1,
      version: 1,
      fileSize: pdf.byteLength,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      roles: ROLES,
      signingOrder: 'sequential',
      expiresInDays: 14,
      fields: sampleLeaseFields(1),
    });
    expect(template.id).toMatch(/^tpl_/);

    const read = await call(t, 'GET', `/templates/${template.id}`, { key: sk });
    expect(read.headers.get('ETag')).toBe('"1"');
    const body = successEnvelope(TemplateSchema).parse(await read.json()).data;
    expect({ ...body, documentUrl: '' }).toEqual({ ...template, documentUrl: '' });

    const file = await t.app.request(local(body.documentUrl));
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(pdf);
    const range = await t.app.request(local(body.documentUrl), { headers: { Range: 'bytes=0-9' } });
    expect(range.status).toBe(206);
    await expectError(await t.app.request(local(body.documentUrl).replace(/token=.*/, 'token=nope')), 403, 'INSUFFICIENT_PERMISSIONS');
    // The token is bound to the template: it opens no document, and a document's token opens no template.
    const document = await t.createDocument({ pages: 1 });
    await expectError(await t.app.request(local(body.documentUrl).replace(`/sdk/templates/${template.id}`, `/sdk/documents/${document.id}`)), 403, 'INSUFFICIENT_PERMISSIONS');

    const listed = (await (await call(t, 'GET', '/templates?limit=100', { key: sk })).json()) as any;
    expect(listed.data.map((item: { id: string }) => item.id)).toContain(template.id);
    expect(listed.data.find((item: { id: string }) => item.id === template.id)).toEqual({
      id: template.id,
      name: 'Lease',
      filename: 'lease.pdf',
      pageCount: 1,
      version: 1,
      createdAt: template.createdAt,
      updatedAt: template.updatedAt,
    });
  });

  it('pages through templates with a cursor, newest first', async () => {
    const other = await ensureOrganization(t.storage.db.query, `paging-${engine.name}`, 'Paging');
    const key = (await t.createKey({ kind: 'sk' }, other.id)).secret;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await upload(templateForm({ name: `T${i}` }), key);
      ids.unshift(((await response.json()) as any).data.id);
    }
    const first = (await (await call(t, 'GET', '/templates?limit=2', { key })).json()) as any;
    expect(first.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
    expect(first.pagination).toMatchObject({ hasMore: true, limit: 2 });
    const second = (await (await call(t, 'GET', `/templates?limit=2&cursor=${first.pagination.cursor}`, { key })).json()) as any;
    expect(second.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(2));
    expect(second.pagination).toMatchObject({ hasMore: false, cursor: null });
    await expectError(await call(t, 'GET', '/templates?cursor=nope', { key }), 400, 'VALIDATION_ERROR');
  });

  it('makes a signable document: roles bound to signers, values prefilled, the template and version recorded', async () => {
    const template = await newTemplate({ expiresInDays: '3' });
    const before = Date.now();
    const response = await makeDocument(template.id, {
      signers: SIGNERS,
      values: { agreement_number: { type: 'text', content: 'AGR-7' }, signer_company: { type: 'text', content: 'Acme' } },
    });
    expect(response.status, await response.clone().text()).toBe(201);
    expect(response.headers.get('ETag')).toBe('"1"');
    const document = successEnvelope(ManagedDocumentSchema).parse(await response.json()).data;
    expect(document).toMatchObject({
      status: 'pending',
      filename: 'lease.pdf',
      pageCount: 1,
      template: { id: template.id, version: 1 },
      signingOrder: 'sequential',
    });
    expect(document.signers!.map(({ id, name, email, order }) => ({ id, name, email, order }))).toEqual([
      { id: 'tenant', name: 'Tina Tenant', email: undefined, order: 1 },
      { id: 'landlord', name: 'Lars Landlord', email: 'lars@example.com', order: 2 },
    ]);
    const byId = new Map(document.fields.map((field) => [field.id, field]));
    expect(byId.get('agreement_number')).toMatchObject({ editable: false, value: { type: 'text', content: 'AGR-7' } });
    expect(byId.get('signer_company')).toMatchObject({ editable: true, value: { type: 'text', content: 'Acme' } });
    const expires = Date.parse(document.expiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + 3 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3 * 86_400_000);
    // The file is the template's, byte for byte.
    const stored = await readDocumentContent(t.storage.db.query, document.id, 0, document.fileSize - 1);
    expect(createHash('sha256').update(stored).digest('hex')).toBe(template.sha256);

    // Both signers sign, in turn: the document completes.
    for (const signer of ['tenant', 'landlord']) {
      const session = await t.createSession(document.id, signer);
      const own = fieldsOfSigner(document.fields, signer);
      const submitted = await call(t, 'POST', '/sdk/documents/submit', {
        key: session.secret,
        body: await buildPayload({ ...document, fields: own }, completeValues(own)),
      });
      expect(submitted.status, await submitted.clone().text()).toBe(201);
    }
    const managed = ((await (await call(t, 'GET', `/documents/${document.id}`, { key: sk })).json()) as any).data;
    expect(managed.status).toBe('completed');
    expect(managed.template).toEqual({ id: template.id, version: 1 });
  });

  it('versions a template: an edit under If-Match makes version 2 and changes no document made before', async () => {
    const template = await newTemplate();
    const first = successEnvelope(ManagedDocumentSchema).parse(await (await makeDocument(template.id, { signers: SIGNERS })).json()).data;
    const fields: FieldDefinition[] = sampleLeaseFields(1).map((field) => (field.id === 'signer_company' ? { ...field, label: 'Employer', required: true } : field));
    const change = { name: 'Lease 2027', fields, roles: ROLES, signingOrder: 'parallel' };

    await expectError(await call(t, 'PUT', `/templates/${template.id}`, { key: sk, body: change }), 428, 'PRECONDITION_REQUIRED');
    const saved = await call(t, 'PUT', `/templates/${template.id}`, { key: sk, body: change, headers: { 'If-Match': '"1"' } });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(saved.headers.get('ETag')).toBe('"2"');
    const updated = successEnvelope(TemplateSchema).parse(await saved.json()).data;
    expect(updated).toMatchObject({ version: 2, name: 'Lease 2027', signingOrder: 'parallel', sha256: template.sha256 });
    const stale = await expectError(await call(t, 'PUT', `/templates/${template.id}`, { key: sk, body: change, headers: { 'If-Match': '"1"' } }), 412, 'PRECONDITION_FAILED');
    expect(stale.details?.currentVersion).toBe(2);

    const before = ((await (await call(t, 'GET', `/documents/${first.id}`, { key: sk })).json()) as any).data;
    expect(before.fields).toEqual(first.fields);
    expect(before.signingOrder).toBe('sequential');
    expect(before.template).toEqual({ id: template.id, version: 1 });
    const second = successEnvelope(ManagedDocumentSchema).parse(await (await makeDocument(template.id, { signers: SIGNERS })).json()).data;
    expect(second.template).toEqual({ id: template.id, version: 2 });
    expect(second.signingOrder).toBe('parallel');
    expect(second.fields.find((field) => field.id === 'signer_company')).toMatchObject({ label: 'Employer', required: true });

    // Without roles, the documents have one implicit signer; `expiresInDays: null` removes the default.
    const noRoles = await call(t, 'PUT', `/templates/${template.id}`, {
      key: sk,
      body: { fields: sampleLeaseFields(1).map(({ signerId: _, ...field }) => field), expiresInDays: null },
      headers: { 'If-Match': '"2"' },
    });
    expect(noRoles.status, await noRoles.clone().text()).toBe(200);
    const plain = successEnvelope(TemplateSchema).parse(await noRoles.json()).data;
    expect(plain.roles).toBeUndefined();
    const single = successEnvelope(ManagedDocumentSchema).parse(await (await makeDocument(template.id, {})).json()).data;
    expect(single.signers).toBeUndefined();
    expect(single.template).toEqual({ id: template.id, version: 3 });
    expect(single.expiresAt).toBeUndefined();
  });

  it('refuses signers that do not bind each role once, unknown or ill-typed values, and a template that cannot be signed', async () => {
    const template = await newTemplate();
    const refused = async (body: unknown, status: number, field: string | RegExp) => {
      const error = await expectError(await makeDocument(template.id, body), status, 'VALIDATION_ERROR');
      expect(error.details?.field).toMatch(field);
      return error;
    };
    await refused({}, 400, 'signers');
    await refused({ signers: [SIGNERS[0]] }, 400, 'signers');
    await refused({ signers: [...SIGNERS, { role: 'tenant', name: 'Twice' }] }, 400, 'signers[2].role');
    await refused({ signers: [...SIGNERS.slice(0, 1), { role: 'guarantor', name: 'G' }] }, 400, 'signers[1].role');
    await refused({ signers: SIGNERS, values: { nope: { type: 'text', content: 'x' } } }, 400, 'values.nope');
    await refused({ signers: SIGNERS, values: { signer_company: { type: 'checkbox', checked: true } } }, 400, 'values.signer_company.type');
    await refused({ signers: SIGNERS, values: { signed_date: { type: 'date', content: '2026-02-31' } } }, 422, 'values.signed_date.content');
    await refused({ signers: SIGNERS, stray: true }, 400, 'stray');
    await refused({ signers: [{ role: 'tenant', name: ' ' }, SIGNERS[0]] }, 400, 'signers[0].name');
    await refused({ signers: SIGNERS, expiresAt: '2020-01-01T00:00:00Z' }, 400, 'expiresAt');
    await refused({ signers: [{ ...SIGNERS[0], locale: 'zh' }, SIGNERS[1]] }, 400, 'signers[0].locale');
    // A role's signer may have a language: the document keeps it.
    const spoken = successEnvelope(ManagedDocumentSchema).parse(await (await makeDocument(template.id, { signers: [{ ...SIGNERS[0], locale: 'nl' }, SIGNERS[1]] })).json()).data;
    expect(Object.fromEntries(spoken.signers!.map((signer) => [signer.id, signer.locale]))).toEqual({ landlord: 'nl', tenant: undefined });

    // A read-only required field without a value, and a role without a signature field: every problem at once.
    const fields = sampleLeaseFields(1)
      .filter((field) => field.id !== 'landlord_signature')
      .map((field) => (field.id === 'agreement_number' ? { ...field, required: true, value: undefined } : field));
    const saved = await call(t, 'PUT', `/templates/${template.id}`, { key: sk, body: { fields, roles: ROLES }, headers: { 'If-Match': '"1"' } });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const problems = await expectError(await makeDocument(template.id, { signers: SIGNERS }), 422, 'VALIDATION_ERROR');
    expect((problems.details?.problems as Array<{ field: string }>).map((problem) => problem.field)).toEqual(['roles[1]', 'fields[0]']);
    // Given a value, the read-only field is filled in; a draft is checked when it is sent instead.
    const draft = await makeDocument(template.id, { signers: SIGNERS, draft: true });
    expect(draft.status).toBe(201);
    expect(((await draft.json()) as any).data.status).toBe('draft');
  });

  it('refuses a bad upload, naming the part, and an unknown template in any organization but its own', async () => {
    const bad = async (parts: Record<string, string>, field: string, status = 400) => {
      const error = await expectError(await upload(templateForm(parts)), status, 'VALIDATION_ERROR');
      expect(error.details?.field).toBe(field);
    };
    await bad({ roles: '[{' }, 'roles');
    await bad({ roles: JSON.stringify([{ id: 'tenant', name: 'A' }, { id: 'tenant', name: 'B' }]) }, 'roles[1].id');
    await bad({ roles: '' , signingOrder: 'sequential' }, 'signingOrder');
    await bad({ expiresInDays: '0' }, 'expiresInDays');
    await bad({ expiresInDays: 'soon' }, 'expiresInDays');
    await bad({ name: 'x'.repeat(201) }, 'name');
    await bad({ fields: JSON.stringify([{ ...sampleLeaseFields(1)[0], signerId: 'guarantor' }]) }, 'fields[0].signerId');
    await bad({ fields: JSON.stringify([{ ...sampleLeaseFields(1)[0], page: 2 }]) }, 'fields[0].page');
    await bad({ tags: 'yes' }, 'tags');
    await bad({ formFields: 'merge' }, 'formFields');
    const stray = templateForm();
    stray.set('signers', '[]');
    expect((await expectError(await upload(stray), 400, 'VALIDATION_ERROR')).details?.field).toBe('signers');
    const notPdf = await upload(templateForm({}, new TextEncoder().encode('not a pdf')));
    expect(notPdf.status).toBeGreaterThanOrEqual(400);
    expect(notPdf.status).toBeLessThan(500);

    const template = await newTemplate();
    const other = await ensureOrganization(t.storage.db.query, `elsewhere-${engine.name}`, 'Elsewhere');
    const foreign = (await t.createKey({ kind: 'sk' }, other.id)).secret;
    await expectError(await call(t, 'GET', `/templates/${template.id}`, { key: foreign }), 404, 'NOT_FOUND');
    await expectError(await makeDocument(template.id, { signers: SIGNERS }, foreign), 404, 'NOT_FOUND');
    await expectError(await call(t, 'DELETE', `/templates/${template.id}`, { key: foreign }), 404, 'NOT_FOUND');
    await expectError(await call(t, 'GET', '/templates/tpl_nope', { key: sk }), 400, 'VALIDATION_ERROR');
    // pk keys never reach the management routes.
    await expectError(await call(t, 'GET', `/templates/${template.id}`, { key: (await t.createKey()).secret }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'GET', '/templates', { key: (await t.createKey({ kind: 'sk', scopes: ['webhooks:write'] })).secret }), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('gives a builder session key its template alone, and revokes it', async () => {
    const template = await newTemplate();
    const another = await newTemplate();
    const created = await call(t, 'POST', `/templates/${template.id}/builder-sessions`, { key: sk, body: { origins: ['https://app.example'] } });
    expect(created.status).toBe(201);
    const session = ((await created.json()) as any).data;
    expect(session).toMatchObject({ templateId: template.id, origins: ['https://app.example'], revokedAt: null });
    const browser = { Origin: 'https://app.example' };

    const read = await call(t, 'GET', `/templates/${template.id}`, { key: session.key, headers: browser });
    expect(read.status).toBe(200);
    // The author's page is of another origin: the answer is granted to it, and so is the preflight of a save.
    expect(read.headers.get('Access-Control-Allow-Origin')).toBe('https://app.example');
    const preflight = await t.app.request(`/templates/${template.id}`, {
      method: 'OPTIONS',
      headers: { ...browser, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'x-api-key, if-match, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Methods')).toContain('PUT');
    // An sk key is never used from a browser: refused, and its refusal readable by the page.
    await expectError(await call(t, 'GET', `/templates/${template.id}`, { key: sk, headers: browser }), 403, 'INSUFFICIENT_PERMISSIONS');
    const { documentUrl } = ((await read.json()) as any).data;
    expect((await t.app.request(local(documentUrl))).status).toBe(200);
    const saved = await call(t, 'PUT', `/templates/${template.id}`, {
      key: session.key,
      headers: { ...browser, 'If-Match': '"1"' },
      body: { fields: sampleLeaseFields(1), roles: ROLES, signingOrder: 'sequential' },
    });
    expect(saved.status).toBe(200);

    await expectError(await call(t, 'GET', `/templates/${another.id}`, { key: session.key, headers: browser }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await makeDocument(template.id, { signers: SIGNERS }, session.key), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'DELETE', `/templates/${template.id}`, { key: session.key, headers: browser }), 403, 'INSUFFICIENT_PERMISSIONS');
    const document = await t.createDocument({ pages: 1 });
    await expectError(await call(t, 'GET', `/documents/${document.id}/draft`, { key: session.key, headers: browser }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'GET', `/templates/${template.id}`, { key: session.key, headers: { Origin: 'https://evil.example' } }), 403, 'INSUFFICIENT_PERMISSIONS');

    const revoked = await call(t, 'DELETE', `/templates/${template.id}/builder-sessions/${session.id}`, { key: sk });
    expect(((await revoked.json()) as any).data).toMatchObject({ id: session.id, revokedAt: expect.any(String) });
    await expectError(await call(t, 'GET', `/templates/${template.id}`, { key: session.key, headers: browser }), 401, 'INVALID_API_KEY');
    await expectError(await t.app.request(local(documentUrl)), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'DELETE', `/templates/${another.id}/builder-sessions/${session.id}`, { key: sk }), 404, 'NOT_FOUND');
  });

  it('deletes a template, its PDF and its builder session keys, and keeps the documents made from it', async () => {
    const template = await newTemplate();
    const document = successEnvelope(ManagedDocumentSchema).parse(await (await makeDocument(template.id, { signers: SIGNERS })).json()).data;
    const session = ((await (await call(t, 'POST', `/templates/${template.id}/builder-sessions`, { key: sk, body: {} })).json()) as any).data;
    const { documentUrl } = ((await (await call(t, 'GET', `/templates/${template.id}`, { key: sk })).json()) as any).data;

    const deleted = await call(t, 'DELETE', `/templates/${template.id}`, { key: sk });
    expect(deleted.status).toBe(200);
    expect(((await deleted.json()) as any).data).toEqual({ id: template.id, deleted: true });
    await expectError(await call(t, 'GET', `/templates/${template.id}`, { key: sk }), 404, 'NOT_FOUND');
    await expectError(await call(t, 'DELETE', `/templates/${template.id}`, { key: sk }), 404, 'NOT_FOUND');
    await expectError(await makeDocument(template.id, { signers: SIGNERS }), 404, 'NOT_FOUND');
    await expectError(await t.app.request(local(documentUrl)), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'GET', `/templates/${template.id}`, { key: session.key }), 401, 'INVALID_API_KEY');
    const kept = await call(t, 'GET', `/documents/${document.id}`, { key: sk });
    expect(((await kept.json()) as any).data).toMatchObject({ id: document.id, status: 'pending', template: { id: template.id, version: 1 } });
  });
});
