import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../test/support/harness.js';
import { signDocumentToken } from '../documents/token.js';
import type { DocumentRecord } from '../storage/types.js';
import { readDocumentContent } from '../storage/queries/document-files.js';

let t: TestApp;
let document: DocumentRecord;
let fileUrl: string;
let whole: Uint8Array;

beforeEach(async () => {
  t = await createTestApp();
  document = await t.createDocument({ pages: 300 });
  const { secret } = await t.createKey();
  const body = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key: secret })).json()) as { documentUrl: string };
  fileUrl = new URL(body.documentUrl).pathname + new URL(body.documentUrl).search;
  whole = await readDocumentContent(t.storage.db.query, document.id, 0, document.fileSize - 1);
});
afterEach(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) => t.app.request(path, { headers });

describe('GET /sdk/documents/{id}/file', () => {
  it('serves the whole PDF with the token alone, no API key', async () => {
    const res = await get(fileUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Accept-Ranges')).toBe('bytes');
    expect(res.headers.get('Content-Length')).toBe(String(document.fileSize));
    expect(res.headers.get('ETag')).toBe(`"${document.sha256}"`);
    expect(res.headers.get('Cache-Control')).toBe('private, max-age=300');
    expect(res.headers.get('Vary')).toBe('Origin');
    expect(res.headers.get('Content-Disposition')).toMatch(/^inline; filename="agreement.pdf"/);
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Content-Encoding')).toBeNull();
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.byteLength).toBe(document.fileSize);
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(Buffer.compare(bytes, whole)).toBe(0);
  });

  it.each([
    ['bytes=0-1023', 0, 1023],
    ['bytes=1000-', 1000, -1],
    ['bytes=-500', -500, -1],
    ['bytes=262100-262200', 262100, 262200],
  ])('answers Range %s with 206 and Content-Range', async (range, from, to) => {
    const size = document.fileSize;
    const start = from < 0 ? size + from : from;
    const end = to < 0 ? size - 1 : to;
    const res = await get(fileUrl, { Range: range });
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe(`bytes ${start}-${end}/${size}`);
    expect(res.headers.get('Content-Length')).toBe(String(end - start + 1));
    expect(Buffer.compare(new Uint8Array(await res.arrayBuffer()), whole.subarray(start, end + 1))).toBe(0);
  });

  it.each(['bytes=999999999-', 'bytes=50-10', 'bytes=-0', 'bytes=abc'])('answers the bad range %s with 416', async (range) => {
    const res = await get(fileUrl, { Range: range });
    expect(res.status).toBe(416);
    expect(res.headers.get('Content-Range')).toBe(`bytes */${document.fileSize}`);
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { field: 'Range' } } });
  });

  it('answers If-None-Match with the ETag with 304, and ignores a Range whose If-Range is stale', async () => {
    expect((await get(fileUrl, { 'If-None-Match': `"${document.sha256}"` })).status).toBe(304);
    const res = await get(fileUrl, { Range: 'bytes=0-9', 'If-Range': '"old"' });
    expect(res.status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.request(fileUrl, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Length')).toBe(String(document.fileSize));
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('403 INSUFFICIENT_PERMISSIONS for a tampered, missing, foreign or expired token', async () => {
    const token = new URL(fileUrl, 'http://x').searchParams.get('token')!;
    const other = await t.createDocument();
    const expired = signDocumentToken('whatever', { documentId: document.id, version: 1, expires: 1, keyId: 'key_AAAAAAAAAAAAAAAAAAAAAAAA' });
    const cases = [
      `/sdk/documents/${document.id}/file?token=${token.slice(0, -2)}xx`,
      `/sdk/documents/${document.id}/file`,
      `/sdk/documents/${other.id}/file?token=${token}`,
      `/sdk/documents/${document.id}/file?token=${expired}`,
    ];
    for (const path of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_PERMISSIONS', details: { reason: expect.any(String) } } });
    }
  });

  it('400 VALIDATION_ERROR naming documentId for a malformed id', async () => {
    const res = await get('/sdk/documents/not-a-doc/file?token=1.x');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field: 'documentId' } } });
  });

  it('403 with reason "expired" once the token lifetime has passed', async () => {
    await t.close();
    t = await createTestApp(undefined, { DOCUMENT_TOKEN_TTL_SECONDS: '1' });
    document = await t.createDocument();
    const { secret } = await t.createKey();
    const body = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key: secret })).json()) as { documentUrl: string };
    const url = new URL(body.documentUrl);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const res = await get(url.pathname + url.search);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { details: { reason: expect.stringMatching(/expired/) } } });
  });

  it('grants any origin the file (the token is the capability) and exposes the range headers', async () => {
    const res = await get(fileUrl, { Origin: 'https://host.example', Range: 'bytes=0-9' });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://host.example');
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('Content-Range');
    expect(res.headers.get('Vary')).toBe('Origin');
  });
});
