import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentMetadataSchema, ManagedDocumentSchema, SubmissionRecordSchema, paginatedList, successEnvelope } from '@signet/contract';
import { buildPayload, call, createTestApp, type TestApp } from '../../test/support/harness.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { readDocumentContent } from '../storage/queries/document-files.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

let t: TestApp;
let sk: string;
beforeEach(async () => {
  t = await createTestApp();
  sk = (await t.createKey({ kind: 'sk' })).secret;
});
afterEach(() => t.close());

async function upload(form: FormData, key = sk) {
  return t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': key }, body: form });
}

function uploadForm(pdf: Uint8Array, fields: unknown, filename?: string) {
  const form = new FormData();
  form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'contract.pdf', { type: 'application/pdf' }));
  form.set('fields', typeof fields === 'string' ? fields : JSON.stringify(fields));
  if (filename) form.set('filename', filename);
  return form;
}

describe('POST /documents', () => {
  it('creates a document from a PDF and fields: 201, envelope, pageCount and fileSize computed', async () => {
    const pdf = await generateSamplePdf({ pages: 2 });
    const res = await upload(uploadForm(pdf, sampleFields(2), 'Lease.pdf'));
    expect(res.status).toBe(201);
    const body = successEnvelope(ManagedDocumentSchema).parse(await res.json());
    expect(body.data).toMatchObject({ filename: 'Lease.pdf', mimeType: 'application/pdf', pageCount: 2, fileSize: pdf.byteLength, version: 1, status: 'pending' });
    expect(body.data.fields).toEqual(sampleFields(2));
    expect(body.meta.requestId).toBe(res.headers.get('X-Request-Id'));
    const stored = await readDocumentContent(t.storage.db.query, body.data.id, 0, pdf.byteLength - 1);
    expect(Buffer.compare(stored, pdf)).toBe(0);
  });

  it.each([
    ['a file that is not a PDF', async () => uploadForm(new TextEncoder().encode('hello, not a pdf'), []), 'file'],
    ['fields that are not JSON', async () => uploadForm(await generateSamplePdf({ pages: 1 }), '{nope'), 'fields'],
    ['a field past the page edge', async () => uploadForm(await generateSamplePdf({ pages: 1 }), [{ ...sampleFields(1)[1], x: 0.9, width: 0.2 }]), 'fields[0].width'],
    ['a field on a page that does not exist', async () => uploadForm(await generateSamplePdf({ pages: 1 }), [{ ...sampleFields(1)[1], page: 2 }]), 'fields[0].page'],
    ['a field of an unknown type', async () => uploadForm(await generateSamplePdf({ pages: 1 }), [{ ...sampleFields(1)[1], type: 'slider' }]), 'fields[0].type'],
  ])('400 VALIDATION_ERROR for %s, naming it', async (_case, form, field) => {
    const res = await upload(await form());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { field, reason: expect.any(String) } } });
  });

  it('400 when the body is not multipart', async () => {
    const res = await call(t, 'POST', '/documents', { key: sk, body: { file: 'x' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field: 'body' } } });
  });

  it('413 VALIDATION_ERROR for a PDF over MAX_PDF_BYTES', async () => {
    await t.close();
    t = await createTestApp(undefined, { MAX_PDF_BYTES: '2000' });
    sk = (await t.createKey({ kind: 'sk' })).secret;
    const res = await upload(uploadForm(await generateSamplePdf({ pages: 1 }), sampleFields(1)));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field: 'file' } } });
  });
});

describe('GET /documents', () => {
  const listSchema = paginatedList(DocumentMetadataSchema);

  it('pages newest first with an opaque cursor; no item repeated or skipped while documents are created', async () => {
    const created: Array<{ id: string; createdAt: string }> = [];
    for (let i = 0; i < 45; i++) created.push(await t.createDocument({ pages: 1 }));
    // Newest first; documents of the same millisecond by id, descending.
    const expected = created
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
      .map((d) => d.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=20&cursor=${cursor}` : '?limit=20';
      const res = await call(t, 'GET', `/documents${query}`, { key: sk });
      expect(res.status).toBe(200);
      const body = listSchema.parse(await res.json());
      expect(body.pagination.limit).toBe(20);
      seen.push(...body.data.map((d) => d.id));
      cursor = body.pagination.cursor;
      expect(body.pagination.hasMore).toBe(cursor !== null);
      // Documents created between two page reads are newer: they belong before the first page, not in the rest.
      await Promise.all(Array.from({ length: 5 }, () => t.createDocument({ pages: 1 })));
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);
    // 50 documents, each inspected and drawn in the PDF pool: on a loaded 2-core machine that passed the default 20 s.
  }, 60_000);

  it('defaults to 20 items and shows each item\'s status', async () => {
    for (let i = 0; i < 21; i++) await t.createDocument({ pages: 1 });
    const body = listSchema.parse(await (await call(t, 'GET', '/documents', { key: sk })).json());
    expect(body.data).toHaveLength(20);
    expect(body.pagination).toMatchObject({ hasMore: true, limit: 20 });
    expect(body.data.every((d) => d.status === 'pending')).toBe(true);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['cursor=!!notacursor', 'cursor'],
    [`cursor=${Buffer.from('["x"]').toString('base64url')}`, 'cursor'],
  ])('400 VALIDATION_ERROR for %s', async (query, field) => {
    const res = await call(t, 'GET', `/documents?${query}`, { key: sk });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field } } });
  });

  it("lists only the key's organization", async () => {
    const other = await ensureOrganization(t.storage.db.query, 'other', 'Other');
    await t.createDocument({ organizationId: other.id });
    const mine = await t.createDocument();
    const body = listSchema.parse(await (await call(t, 'GET', '/documents', { key: sk })).json());
    expect(body.data.map((d) => d.id)).toEqual([mine.id]);
  });
});

describe('GET /documents/{id} and /documents/{id}/submission', () => {
  it('returns the document in an envelope, then its submission once completed', async () => {
    const document = await t.createDocument();
    const res = await call(t, 'GET', `/documents/${document.id}`, { key: sk });
    expect(res.status).toBe(200);
    expect(successEnvelope(ManagedDocumentSchema).parse(await res.json()).data.id).toBe(document.id);

    const pending = await call(t, 'GET', `/documents/${document.id}/submission`, { key: sk });
    expect(pending.status).toBe(404);
    expect(await pending.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });

    const pk = await t.createKey();
    const payload = await buildPayload(document);
    const submitted = await call(t, 'POST', '/sdk/documents/submit', { key: pk.secret, body: payload, headers: { 'User-Agent': 'ua/1' } });
    expect(submitted.status).toBe(201);
    const { submissionId } = (await submitted.json()) as { submissionId: string };

    const got = await call(t, 'GET', `/documents/${document.id}/submission`, { key: sk });
    expect(got.status).toBe(200);
    const record = successEnvelope(SubmissionRecordSchema).parse(await got.json()).data;
    expect(record).toMatchObject({
      id: submissionId,
      documentId: document.id,
      keyId: pk.id,
      checksum: payload.checksum,
      submittedAt: payload.submittedAt,
      userAgent: 'ua/1',
      clientIp: '203.0.113.7',
      renderContext: payload.renderContext,
      pages: payload.pages,
      fields: payload.fields,
    });
    const doc = successEnvelope(ManagedDocumentSchema).parse(await (await call(t, 'GET', `/documents/${document.id}`, { key: sk })).json());
    expect(doc.data.status).toBe('completed');
  });

  it('404 DOCUMENT_NOT_FOUND for unknown or foreign documents, 400 for malformed ids', async () => {
    const other = await ensureOrganization(t.storage.db.query, 'other', 'Other');
    const foreign = await t.createDocument({ organizationId: other.id });
    for (const path of [`/documents/${foreign.id}`, `/documents/${foreign.id}/submission`, '/documents/doc_BBBBBBBBBBBBBBBBBBBBBBBB']) {
      const res = await call(t, 'GET', path, { key: sk });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'DOCUMENT_NOT_FOUND' } });
    }
    const bad = await call(t, 'GET', '/documents/xyz', { key: sk });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field: 'documentId' } } });
  });
});
