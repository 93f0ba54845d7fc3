import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/support/envelope.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

/*
 * Builder session keys (docs/api.md, "Drafts"): a pk key bound to one draft that reads and edits it, and sends it only
 * when allowed; every other endpoint refuses it. The auth matrix of every draft endpoint, and hostile input to them.
 * On both engines.
 */

const data = async (response: Response) => ((await response.json()) as { data: any }).data;

describe.each(engines)('builder sessions on $name', (engine) => {
  let t: TestApp;
  let sk: string;
  let pdf: Uint8Array;
  beforeAll(async () => {
    t = await createTestApp(engine, { MAX_BODY_BYTES: String(256 * 1024) });
    sk = (await t.createKey({ kind: 'sk' })).secret;
    pdf = await generateSamplePdf({ pages: 1 });
  });
  afterAll(() => t.close());

  async function createDraft(organizationSk = sk) {
    const form = new FormData();
    form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'a.pdf'));
    const response = await t.app.request('/documents?draft=true', { method: 'POST', headers: { 'X-API-Key': organizationSk }, body: form });
    expect(response.status).toBe(201);
    return (await data(response)) as { id: string };
  }
  async function builder(documentId: string, body: Record<string, unknown> = {}) {
    const response = await call(t, 'POST', `/documents/${documentId}/builder-sessions`, { key: sk, body });
    expect(response.status).toBe(201);
    return (await data(response)) as { id: string; key: string; allowSend: boolean; origins: string[]; expiresAt: string };
  }
  const fields = () => ({ fields: sampleFields(1) });

  it('mints a key that reads and edits its draft, and sends it only with allowSend', async () => {
    const draft = await createDraft();
    const editing = await builder(draft.id);
    expect(editing).toMatchObject({ documentId: draft.id, allowSend: false, origins: [], revokedAt: null });
    expect(editing.key).toMatch(/^pk_/);

    const read = await call(t, 'GET', `/documents/${draft.id}/draft`, { key: editing.key });
    expect(read.status).toBe(200);
    const { documentUrl } = await data(read);
    const file = new URL(documentUrl);
    expect((await t.app.request(file.pathname + file.search)).status).toBe(200);
    expect((await call(t, 'PUT', `/documents/${draft.id}/draft`, { key: editing.key, body: fields(), headers: { 'If-Match': '"1"' } })).status).toBe(200);
    const refused = await expectError(await call(t, 'POST', `/documents/${draft.id}/send`, { key: editing.key, headers: { 'If-Match': '"2"' } }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(refused.details?.reason).toMatch(/allowSend/);

    const validated = await call(t, 'POST', '/sdk/validate-key', { key: editing.key });
    expect(await validated.json()).toMatchObject({ valid: true, documentId: draft.id });

    const sending = await builder(draft.id, { allowSend: true, expiresInSeconds: 600 });
    expect(sending.allowSend).toBe(true);
    const sent = await call(t, 'POST', `/documents/${draft.id}/send`, { key: sending.key, headers: { 'If-Match': '"2"' } });
    expect(sent.status).toBe(200);
    expect((await data(sent)).status).toBe('pending');
    // After sending, the builder may still read what it sent, not change it.
    expect((await call(t, 'GET', `/documents/${draft.id}/draft`, { key: sending.key })).status).toBe(200);
    await expectError(await call(t, 'PUT', `/documents/${draft.id}/draft`, { key: sending.key, body: fields(), headers: { 'If-Match': '"3"' } }), 409, 'DOCUMENT_NOT_DRAFT');
  });

  it('refuses a builder key everywhere else, and on another draft', async () => {
    const draft = await createDraft();
    const other = await createDraft();
    const { key } = await builder(draft.id, { allowSend: true });
    const elsewhere = [
      call(t, 'GET', '/documents', { key }),
      call(t, 'GET', `/documents/${draft.id}`, { key }),
      call(t, 'GET', `/documents/${draft.id}/audit`, { key }),
      call(t, 'GET', `/sdk/documents/${draft.id}`, { key }),
      call(t, 'POST', '/sdk/documents/submit', { key, body: {} }),
      call(t, 'POST', `/sdk/documents/${draft.id}/decline`, { key, body: { reason: 'x' } }),
      call(t, 'POST', `/documents/${draft.id}/sessions`, { key, body: {} }),
      call(t, 'POST', `/documents/${draft.id}/builder-sessions`, { key, body: {} }),
      call(t, 'GET', '/webhooks', { key }),
      call(t, 'GET', '/organization', { key }),
      call(t, 'PATCH', '/organization', { key, body: { brandColor: '#0a7d4f' } }),
      call(t, 'GET', `/documents/${other.id}/draft`, { key }),
      call(t, 'PUT', `/documents/${other.id}/draft`, { key, body: fields(), headers: { 'If-Match': '"1"' } }),
      call(t, 'POST', `/documents/${other.id}/send`, { key, headers: { 'If-Match': '"1"' } }),
    ];
    for (const response of await Promise.all(elsewhere)) await expectError(response, 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('holds to its origins, answers CORS, and ends when revoked or expired', async () => {
    const draft = await createDraft();
    const session = await builder(draft.id, { origins: ['https://host.example'] });
    const allowed = await call(t, 'GET', `/documents/${draft.id}/draft`, { key: session.key, headers: { Origin: 'https://host.example' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('Access-Control-Allow-Origin')).toBe('https://host.example');
    expect(allowed.headers.get('Access-Control-Expose-Headers')).toContain('ETag');
    await expectError(await call(t, 'GET', `/documents/${draft.id}/draft`, { key: session.key, headers: { Origin: 'https://evil.example' } }), 403, 'INSUFFICIENT_PERMISSIONS');
    const preflight = await t.app.request(`/documents/${draft.id}/draft`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://host.example', 'Access-Control-Request-Method': 'PUT' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Methods')).toContain('PUT');
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toContain('If-Match');
    const { documentUrl } = await data(await call(t, 'GET', `/documents/${draft.id}/draft`, { key: session.key }));

    const revoked = await call(t, 'DELETE', `/documents/${draft.id}/builder-sessions/${session.id}`, { key: sk });
    expect(revoked.status).toBe(200);
    expect((await data(revoked)).revokedAt).toEqual(expect.any(String));
    await expectError(await call(t, 'GET', `/documents/${draft.id}/draft`, { key: session.key }), 401, 'INVALID_API_KEY');
    const file = new URL(documentUrl);
    await expectError(await t.app.request(file.pathname + file.search), 403, 'INSUFFICIENT_PERMISSIONS');
    // The signers' session route does not revoke a builder key, nor the other way round.
    const other = await builder(draft.id);
    await expectError(await call(t, 'DELETE', `/documents/${draft.id}/sessions/${other.id}`, { key: sk }), 404, 'NOT_FOUND');

    const expired = await createApiKeyRecord(t.storage, {
      organizationId: t.org.id,
      kind: 'pk',
      scopes: ['documents:read', 'documents:write'],
      expiresAt: new Date(Date.now() - 1000).toISOString(),
      documentId: draft.id,
      builder: 'edit',
    });
    await expectError(await call(t, 'GET', `/documents/${draft.id}/draft`, { key: expired.key }), 401, 'EXPIRED_API_KEY');
  });

  describe('the auth matrix of every draft endpoint', () => {
    const endpoints = [
      { name: 'getDraft', method: 'GET', path: (id: string) => `/documents/${id}/draft`, scope: 'documents:read' as const },
      { name: 'updateDraft', method: 'PUT', path: (id: string) => `/documents/${id}/draft`, scope: 'documents:write' as const, body: { fields: [] } },
      { name: 'sendDocument', method: 'POST', path: (id: string) => `/documents/${id}/send`, scope: 'documents:write' as const },
      { name: 'createBuilderSession', method: 'POST', path: (id: string) => `/documents/${id}/builder-sessions`, scope: 'documents:write' as const, body: {} },
      {
        name: 'revokeBuilderSession',
        method: 'DELETE',
        path: (id: string) => `/documents/${id}/builder-sessions/key_${'Q'.repeat(24)}`,
        scope: 'documents:write' as const,
      },
    ];
    for (const endpoint of endpoints) {
      it(`${endpoint.name}: no key, a bad key, a pk key, a missing scope, an sk key from a browser, a signer's session key, another organization`, async () => {
        const draft = await createDraft();
        const request = (key: string | undefined, headers: Record<string, string> = {}, documentId = draft.id) =>
          call(t, endpoint.method, endpoint.path(documentId), {
            ...(key === undefined ? {} : { key }),
            ...(endpoint.body ? { body: endpoint.body } : {}),
            headers: { 'If-Match': '"1"', ...headers },
          });
        await expectError(await request(undefined), 401, 'INVALID_API_KEY');
        await expectError(await request('sk_short'), 401, 'INVALID_API_KEY');
        await expectError(await request(`sk_${'Z'.repeat(40)}`), 401, 'INVALID_API_KEY');
        await expectError(await request((await t.createKey()).secret), 403, 'INSUFFICIENT_PERMISSIONS');
        const lacking = (await t.createKey({ kind: 'sk', scopes: endpoint.scope === 'documents:read' ? ['documents:write'] : ['documents:read'] })).secret;
        expect((await expectError(await request(lacking), 403, 'INSUFFICIENT_PERMISSIONS')).details?.required).toEqual([endpoint.scope]);
        await expectError(await request(sk, { Origin: 'https://host.example' }), 403, 'INSUFFICIENT_PERMISSIONS');
        const signed = await t.createDocument({ pages: 1 });
        await expectError(await request((await t.createSession(signed.id)).secret, {}, signed.id), 403, 'INSUFFICIENT_PERMISSIONS');
        const foreign = await ensureOrganization(t.storage.db.query, `other-${endpoint.name.toLowerCase()}`, 'Other');
        const foreignSk = (await t.createKey({ kind: 'sk' }, foreign.id)).secret;
        await expectError(await request(foreignSk), 404, 'DOCUMENT_NOT_FOUND');
        await expectError(await request(sk, {}, 'doc_nope'), 400, 'VALIDATION_ERROR');
      });
    }
  });

  describe('hostile input', () => {
    it('PUT: bad JSON, not JSON, unknown members, wrong types, a NUL, a huge body', async () => {
      const draft = await createDraft();
      const put = (body: unknown, headers: Record<string, string> = {}) =>
        call(t, 'PUT', `/documents/${draft.id}/draft`, { key: sk, body, headers: { 'If-Match': '"1"', ...headers } });
      const field = sampleFields(1)[0]!;
      const cases: Array<[unknown, number, string | RegExp]> = [
        ['{"fields":', 400, 'body'],
        ['[]', 400, 'body'],
        [{ fieldz: [] }, 400, 'fieldz'],
        [{ fields: [{ ...field, requried: true }] }, 400, 'fields[0].requried'],
        [{ fields: 'x' }, 400, 'fields'],
        [{ fields: [{ ...field, x: '0.1' }] }, 400, 'fields[0].x'],
        [{ fields: [], signers: {} }, 400, 'signers'],
        [{ fields: [], signers: [{ id: 'a', name: 'A', role: 'x' }] }, 400, 'signers[0].role'],
        [{ fields: [], signers: [{ id: 'a', name: 'A' }], signingOrder: 'random' }, 400, 'signingOrder'],
        [{ fields: [{ ...field, label: 'a\u0000b' }] }, 400, 'fields[0].label'],
        [{ fields: Array.from({ length: 501 }, (_, i) => ({ ...field, id: `f${i}` })) }, 400, 'fields'],
        [{ fields: [], pad: 'x'.repeat(300 * 1024) }, 413, 'body'],
      ];
      for (const [body, status, field] of cases) {
        const error = await expectError(await put(body), status, 'VALIDATION_ERROR');
        expect(error.details?.field, JSON.stringify(body).slice(0, 80)).toBe(field);
      }
      expect((await expectError(await put(JSON.stringify({ fields: [] }), { 'Content-Type': 'text/plain' }), 415, 'VALIDATION_ERROR')).details?.field).toBe('Content-Type');
      expect((await call(t, 'GET', `/documents/${draft.id}/draft`, { key: sk })).headers.get('ETag')).toBe('"1"');
    });

    it('If-Match: malformed values are a 400 naming it, on PUT and on send', async () => {
      const draft = await createDraft();
      for (const value of ['1', '"1', 'W/', '"1",', '"a"b"', `"${'1'.repeat(300)}"`, '*, "1"']) {
        for (const response of [
          await call(t, 'PUT', `/documents/${draft.id}/draft`, { key: sk, body: fields(), headers: { 'If-Match': value } }),
          await call(t, 'POST', `/documents/${draft.id}/send`, { key: sk, headers: { 'If-Match': value } }),
        ]) {
          expect((await expectError(response, 400, 'VALIDATION_ERROR')).details?.field, value).toBe('If-Match');
        }
      }
      // `*` matches whatever version is current.
      expect((await call(t, 'PUT', `/documents/${draft.id}/draft`, { key: sk, body: fields(), headers: { 'If-Match': '*' } })).status).toBe(200);
    });

    it('builder-sessions: unknown members, wrong types, out-of-range values, not JSON, too large', async () => {
      const draft = await createDraft();
      const create = (body: unknown, headers: Record<string, string> = {}) => call(t, 'POST', `/documents/${draft.id}/builder-sessions`, { key: sk, body, headers });
      const cases: Array<[unknown, number, string]> = [
        ['{"allowSend":', 400, 'body'],
        [{ allowSend: 'yes' }, 400, 'allowSend'],
        [{ allowedOrigins: ['https://a.example'] }, 400, 'allowedOrigins'],
        [{ expiresInSeconds: 10 }, 400, 'expiresInSeconds'],
        [{ expiresInSeconds: 2 * 24 * 3600 }, 400, 'expiresInSeconds'],
        [{ origins: ['https://a.example/path'] }, 400, 'origins[0]'],
        [{ origins: Array.from({ length: 21 }, (_, i) => `https://h${i}.example`) }, 400, 'origins'],
        [{ pad: 'x'.repeat(20_000) }, 413, 'body'],
      ];
      for (const [body, status, field] of cases) {
        expect((await expectError(await create(body), status, 'VALIDATION_ERROR')).details?.field).toBe(field);
      }
      await expectError(await create('{}', { 'Content-Type': 'text/plain' }), 415, 'VALIDATION_ERROR');
      await expectError(await call(t, 'DELETE', `/documents/${draft.id}/builder-sessions/xyz`, { key: sk }), 400, 'VALIDATION_ERROR');
    });
  });
});
