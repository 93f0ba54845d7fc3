import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyValidationResultSchema, SdkDocumentSchema } from '@signet/contract';
import { call, createTestApp, type TestApp } from '../../test/support/harness.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

describe('POST /sdk/validate-key', () => {
  it('answers a usable key with its organization and scopes, without envelope', async () => {
    const { secret } = await t.createKey({ kind: 'pk', expiresAt: '2099-01-01T00:00:00.000Z' });
    const res = await call(t, 'POST', '/sdk/validate-key', { key: secret });
    expect(res.status).toBe(200);
    const body = KeyValidationResultSchema.parse(await res.json());
    expect(body).toEqual({
      valid: true,
      organizationId: t.org.id,
      organizationName: 'Acme Test',
      scopes: ['documents:read', 'documents:submit'],
      expiresAt: '2099-01-01T00:00:00.000Z',
    });
    expect(res.headers.get('X-RateLimit-Limit')).toBe('600');
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('599');
  });

  it.each([
    ['missing', undefined, /Missing API key/],
    ['malformed', 'pk_short', /Malformed/],
    ['unknown', `sk_${'a'.repeat(40)}`, /Unknown/],
  ])('answers a %s key with 401 { valid: false, error }', async (_case, key, message) => {
    const res = await call(t, 'POST', '/sdk/validate-key', { key });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { valid: boolean; error: string };
    expect(body.valid).toBe(false);
    expect(body.error).toMatch(message);
    expect(Object.keys(body).sort()).toEqual(['error', 'valid']);
  });

  it('answers revoked and expired keys with 401 { valid: false }', async () => {
    const revoked = await t.createKey({ revokedAt: new Date().toISOString() });
    const expired = await t.createKey({ expiresAt: '2020-01-01T00:00:00.000Z' });
    for (const [key, message] of [[revoked.secret, /revoked/], [expired.secret, /expired/]] as const) {
      const res = await call(t, 'POST', '/sdk/validate-key', { key });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ valid: false, error: expect.stringMatching(message) });
    }
  });
});

describe('GET /sdk/documents/{documentId}', () => {
  it('returns metadata, a tokenized documentUrl and the fields, without envelope', async () => {
    const document = await t.createDocument({ pages: 3 });
    const { id, secret } = await t.createKey();
    const res = await call(t, 'GET', `/sdk/documents/${document.id}`, { key: secret });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const body = SdkDocumentSchema.parse(await res.json());
    expect(body.metadata).toEqual({
      id: document.id,
      filename: 'agreement.pdf',
      mimeType: 'application/pdf',
      pageCount: 3,
      fileSize: document.fileSize,
      createdAt: document.createdAt,
      updatedAt: document.updatedAt,
      version: 1,
      status: 'pending',
    });
    expect(body.documentUrl).toMatch(new RegExp(`^http://localhost/sdk/documents/${document.id}/file\\?token=\\d+\\.${id}\\.[A-Za-z0-9_-]{43}$`));
    expect(body.fields).toEqual(document.fields);
    const text = body.fields.find((f) => f.type === 'text' && f.editable);
    expect(text?.placeholder).toBe('Jane Doe');
    expect(body.fields.find((f) => f.type === 'signature')).not.toHaveProperty('placeholder');
  });

  it("names the asking key in documentUrl's token: two keys, two tokens; each key its own again", async () => {
    const document = await t.createDocument({ pages: 1 });
    const [a, b] = [await t.createKey(), await t.createKey({ kind: 'sk' })];
    const tokenOf = async (key: string) => {
      const body = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key })).json()) as { documentUrl: string };
      return new URL(body.documentUrl).searchParams.get('token')!;
    };
    const [first, second, again] = [await tokenOf(a.secret), await tokenOf(b.secret), await tokenOf(a.secret)];
    expect(first.split('.')[1]).toBe(a.id);
    expect(second.split('.')[1]).toBe(b.id);
    expect(again.split('.')[1]).toBe(a.id);
  });

  it('uses PUBLIC_BASE_URL for documentUrl when set', async () => {
    await t.close();
    t = await createTestApp(undefined, { PUBLIC_BASE_URL: 'https://sign.example.com/' });
    const document = await t.createDocument();
    const { secret } = await t.createKey();
    const body = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key: secret })).json()) as { documentUrl: string };
    expect(body.documentUrl.startsWith(`https://sign.example.com/sdk/documents/${document.id}/file?token=`)).toBe(true);
  });

  it('404 DOCUMENT_NOT_FOUND for an unknown id and for another organization\'s document', async () => {
    const { secret } = await t.createKey();
    const other = await ensureOrganization(t.storage.db.query, 'someone-else', 'Someone Else');
    const foreign = await t.createDocument({ organizationId: other.id });
    for (const id of ['doc_AAAAAAAAAAAAAAAAAAAAAAAA', foreign.id]) {
      const res = await call(t, 'GET', `/sdk/documents/${id}`, { key: secret });
      expect(res.status).toBe(404);
      const body = (await res.json()) as any;
      expect(body).toMatchObject({ success: false, error: { code: 'DOCUMENT_NOT_FOUND' } });
      expect(body.meta.requestId).toBe(res.headers.get('X-Request-Id'));
    }
  });

  it('400 VALIDATION_ERROR with field and reason for a malformed id', async () => {
    const { secret } = await t.createKey();
    const res = await call(t, 'GET', '/sdk/documents/not-an-id', { key: secret });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: { field: 'documentId', reason: expect.stringContaining('doc_') } },
    });
  });
});
