import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentTombstoneSchema, successEnvelope } from '@signet/contract';
import { expectError } from '../../test/support/envelope.js';
import { buildPayload, call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

/*
 * Erasure (docs/lifecycle.md): `DELETE /documents/{id}` deletes a document's content and keeps its tombstone; the
 * document is unknown from then on (404, `details.reason: "erased"`) but to its audit trail, and a second erasure is
 * a 410. On both engines, the storage read back row by row.
 */

describe.each(engines)('erasure on $name', (engine) => {
  let t: TestApp;
  let pk: string;
  let sk: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    pk = (await t.createKey()).secret;
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterAll(() => t.close());

  const erase = (key: string | undefined, documentId: string, headers: Record<string, string> = {}) =>
    call(t, 'DELETE', `/documents/${documentId}`, { ...(key ? { key } : {}), headers });
  const local = (url: string) => new URL(url).pathname + new URL(url).search;
  const count = async (table: 'document_chunks' | 'document_previews', documentId: string) =>
    (await t.storage.db.query.selectFrom(table).select('document_id').where('document_id', '=', documentId).execute()).length;

  // A minute: the first test of the file makes, submits and reads a document on a cold PDF pool.
  it('erases a completed document: content gone, tombstone kept, unknown from then on but to its audit trail', { timeout: 60_000 }, async () => {
    const document = await t.createDocument({ pages: 1 });
    const session = await t.createSession(document.id);
    const sdk = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key: pk })).json()) as any;
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) })).status).toBe(201);
    expect(await count('document_chunks', document.id)).toBeGreaterThan(0);
    expect(await count('document_previews', document.id)).toBe(1);

    const res = await erase(sk, document.id);
    expect(res.status).toBe(200);
    const tombstone = successEnvelope(DocumentTombstoneSchema).parse(await res.json()).data;
    expect(tombstone).toEqual({ id: document.id, sha256: document.sha256, createdAt: document.createdAt, erasedAt: expect.any(String), erasedBy: expect.stringMatching(/^key_/) });

    expect(await count('document_chunks', document.id)).toBe(0);
    expect(await count('document_previews', document.id)).toBe(0);
    const submissions = await t.storage.db.query.selectFrom('submissions').select(['payload', 'seal_images', 'checksum']).where('document_id', '=', document.id).execute();
    expect(submissions).toEqual([{ payload: '{}', seal_images: null, checksum: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    const row = await t.storage.db.query.selectFrom('documents').select(['filename', 'fields', 'sha256']).where('id', '=', document.id).executeTakeFirst();
    expect(row).toEqual({ filename: 'erased', fields: '[]', sha256: document.sha256 });

    for (const [method, path, key] of [
      ['GET', `/documents/${document.id}`, sk],
      ['GET', `/documents/${document.id}/submissions`, sk],
      ['GET', `/documents/${document.id}/signed.pdf`, sk],
      ['POST', `/documents/${document.id}/void`, sk],
      ['GET', `/sdk/documents/${document.id}`, pk],
    ] as const) {
      const error = await expectError(await call(t, method, path, { key, ...(method === 'POST' ? { body: { reason: 'x' } } : {}) }), 404, 'DOCUMENT_NOT_FOUND');
      expect(error.details).toMatchObject({ reason: 'erased' });
    }
    const revoked = await expectError(await call(t, 'GET', `/sdk/documents/${document.id}`, { key: session.secret }), 401, 'INVALID_API_KEY');
    expect(revoked.details).toEqual({ reason: 'erased' });
    await expectError(await t.app.request(local(sdk.documentUrl)), 403, 'INSUFFICIENT_PERMISSIONS');
    const listed = ((await (await call(t, 'GET', '/documents?limit=100', { key: sk })).json()) as any).data;
    expect(listed.map((item: { id: string }) => item.id)).not.toContain(document.id);

    const audit = ((await (await call(t, 'GET', `/documents/${document.id}/audit`, { key: sk })).json()) as any).data.events;
    expect(audit.at(-1)).toEqual({ type: 'document.erased', occurredAt: tombstone.erasedAt, ip: null, userAgent: null });
    expect(audit.map((event: { type: string }) => event.type)).toContain('document.submitted');

    const again = await expectError(await erase(sk, document.id), 410, 'DOCUMENT_ERASED');
    expect(again.details).toMatchObject({ id: document.id, sha256: document.sha256, erasedAt: tombstone.erasedAt });
  });

  it('auth and hostile input: no key, a pk key, a session key, a missing scope, a browser; a bad id; another organization', async () => {
    const document = await t.createDocument({ pages: 1 });
    await expectError(await erase(undefined, document.id), 401, 'INVALID_API_KEY');
    await expectError(await erase(`sk_${'Z'.repeat(40)}`, document.id), 401, 'INVALID_API_KEY');
    await expectError(await erase(pk, document.id), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await erase((await t.createSession(document.id)).secret, document.id), 403, 'INSUFFICIENT_PERMISSIONS');
    const readOnly = (await t.createKey({ kind: 'sk', scopes: ['documents:read'] })).secret;
    expect((await expectError(await erase(readOnly, document.id), 403, 'INSUFFICIENT_PERMISSIONS')).details?.required).toEqual(['documents:write']);
    await expectError(await erase(sk, document.id, { Origin: 'https://host.example' }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await erase(sk, 'doc_nope'), 400, 'VALIDATION_ERROR');
    await expectError(await erase(sk, `doc_${'Z'.repeat(24)}`), 404, 'DOCUMENT_NOT_FOUND');
    const elsewhere = await ensureOrganization(t.storage.db.query, `erase-elsewhere-${engine.name}`, 'Elsewhere');
    const foreign = await t.createDocument({ pages: 1, organizationId: elsewhere.id });
    await expectError(await erase(sk, foreign.id), 404, 'DOCUMENT_NOT_FOUND');
    expect(await count('document_chunks', foreign.id)).toBeGreaterThan(0);
    expect(await count('document_chunks', document.id)).toBeGreaterThan(0);
  });
});
