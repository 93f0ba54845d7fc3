import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { documentPreviewUrl } from '@signet/contract';
import { newId } from '../ids.js';
import { generateSamplePdf } from '../pdf/sample.js';
import { PDF_WITHOUT_TRAILER, markedPdf } from '../../test/pdf/test-pdfs.js';
import { call, createTestApp, type TestApp } from '../../test/support/harness.js';
import { findDocumentPreview } from '../storage/queries/document-files.js';

let t: TestApp;
/** A pk key to get `documentUrl` with, an sk key to upload with. */
let keys: { pk: string; sk: string };
beforeEach(async () => {
  t = await createTestApp();
  keys = { pk: (await t.createKey()).secret, sk: (await t.createKey({ kind: 'sk' })).secret };
});
afterEach(() => {
  vi.useRealTimers();
  return t.close();
});

/** The preview's path and query, derived from `documentUrl` as the viewer derives it. */
async function previewPath(documentId: string): Promise<string> {
  const res = await call(t, 'GET', `/sdk/documents/${documentId}`, { key: keys.pk });
  const url = new URL(documentPreviewUrl(((await res.json()) as { documentUrl: string }).documentUrl)!);
  return url.pathname + url.search;
}

/** A document made by `POST /documents` from `pdf`, as an integrator makes one. */
async function upload(pdf: Uint8Array): Promise<string> {
  const form = new FormData();
  form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'upload.pdf', { type: 'application/pdf' }));
  form.set('fields', '[]');
  const res = await t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': keys.sk }, body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

const get = (path: string, init: RequestInit = {}) => t.app.request(path, init);

async function imageOf(res: Response) {
  const bytes = Buffer.from(await res.arrayBuffer());
  return { bytes, metadata: await sharp(bytes).metadata() };
}

describe('GET /sdk/documents/{id}/preview', () => {
  it('serves the first page as WebP with the token alone, cacheable and loadable from another origin', async () => {
    const document = await t.createDocument({ pages: 3 });
    const res = await get(await previewPath(document.id));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/webp');
    expect(res.headers.get('ETag')).toBe(`"${document.sha256}-preview"`);
    expect(res.headers.get('Cache-Control')).toBe('private, max-age=300');
    expect(res.headers.get('Vary')).toBe('Origin');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin');
    expect(res.headers.get('Timing-Allow-Origin')).toBe('*');
    const { bytes, metadata } = await imageOf(res);
    expect(res.headers.get('Content-Length')).toBe(String(bytes.byteLength));
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(metadata).toMatchObject({ format: 'webp', width: 1224, height: 1584 });
    const { channels } = await sharp(bytes).stats();
    expect(Math.min(...channels.map((channel) => channel.min))).toBeLessThan(64);
  });

  it.each([
    ['a page turned by /Rotate 90', { width: 612, height: 792, rotation: 90 }, 1584, 1224],
    ['a page of 200 × 41.7 inches', { width: 14400, height: 3000 }, 2048, 427],
  ])('draws %s at %i × %i', async (_case, page, width, height) => {
    const documentId = await upload(await markedPdf(page));
    const { metadata } = await imageOf(await get(await previewPath(documentId)));
    expect(metadata).toMatchObject({ width, height });
  });

  it('answers If-None-Match with the ETag with 304, and HEAD with the headers alone', async () => {
    const document = await t.createDocument({ pages: 1 });
    const path = await previewPath(document.id);
    const whole = await get(path);
    const etag = whole.headers.get('ETag')!;

    const notModified = await get(path, { headers: { 'If-None-Match': `"other", ${etag}` } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('ETag')).toBe(etag);
    expect(notModified.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin');
    expect((await get(path, { headers: { 'If-None-Match': `"${document.sha256}"` } })).status).toBe(200);

    const head = await get(path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Type')).toBe('image/webp');
    expect(head.headers.get('Content-Length')).toBe(whole.headers.get('Content-Length'));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('403 INSUFFICIENT_PERMISSIONS for a tampered, missing or foreign token, or an unknown document', async () => {
    const document = await t.createDocument({ pages: 1 });
    const other = await t.createDocument({ pages: 1 });
    const token = new URL(await previewPath(document.id), 'http://x').searchParams.get('token')!;
    const cases = [
      `/sdk/documents/${document.id}/preview?token=${token.slice(0, -2)}xx`,
      `/sdk/documents/${document.id}/preview`,
      `/sdk/documents/${other.id}/preview?token=${token}`,
      `/sdk/documents/${newId('doc')}/preview?token=${token}`,
    ];
    for (const path of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({
        success: false,
        error: { code: 'INSUFFICIENT_PERMISSIONS', details: { reason: expect.stringMatching(/missing or invalid/) } },
      });
      expect(res.headers.get('ETag')).toBeNull();
    }
  });

  it('403 with reason "expired" once the token lifetime has passed', async () => {
    const document = await t.createDocument({ pages: 1 });
    const path = await previewPath(document.id);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (t.config.documentTokenTtlSeconds + 120) * 1000);
    const res = await get(path);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      success: false,
      error: { code: 'INSUFFICIENT_PERMISSIONS', details: { reason: expect.stringMatching(/expired/) } },
    });
  });

  it('400 VALIDATION_ERROR naming documentId for a malformed id', async () => {
    const res = await get('/sdk/documents/not-a-doc/preview?token=1.x');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field: 'documentId' } } });
  });

  it('grants any origin the preview, as the file', async () => {
    const document = await t.createDocument({ pages: 1 });
    const res = await get(await previewPath(document.id), { headers: { Origin: 'https://host.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://host.example');
    expect(res.headers.get('Vary')).toBe('Origin');
  });

  it('draws the preview of a document stored without one (created before previews) on the first request, and stores it', async () => {
    const document = await t.createDocumentWithoutPreview(await generateSamplePdf({ pages: 2 }));
    const res = await get(await previewPath(document.id));
    expect(res.status).toBe(200);
    const { bytes, metadata } = await imageOf(res);
    expect(metadata).toMatchObject({ format: 'webp', width: 1224, height: 1584 });
    const stored = await findDocumentPreview(t.storage.db.query, document.id);
    expect(Buffer.compare(Buffer.from(stored!.content), bytes)).toBe(0);
  });

  it('404 NOT_FOUND for a document whose first page cannot be drawn; the document itself is created', async () => {
    const documentId = await upload(PDF_WITHOUT_TRAILER);
    expect(t.logs).toContainEqual(expect.objectContaining({ level: 40, documentId, msg: expect.stringMatching(/no preview/) }));
    const path = await previewPath(documentId);
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({
        success: false,
        error: { code: 'NOT_FOUND', message: expect.stringMatching(/no preview/) },
        meta: { requestId: res.headers.get('X-Request-Id') },
      });
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      expect(res.headers.get('ETag')).toBeNull();
    }
    const file = await get(path.replace('/preview?', '/file?'));
    expect(file.status).toBe(200);
  });
});
