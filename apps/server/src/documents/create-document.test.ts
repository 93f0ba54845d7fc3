import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { PDF_WITHOUT_TRAILER } from '../../test/pdf/test-pdfs.js';
import { capturingLogger, sqlite } from '../../test/support/harness.js';
import type { Storage } from '../storage/types.js';
import { NO_PREVIEW } from './document-preview.js';
import { cleanFilename, createDocument } from './create-document.js';
import { findDocumentPreview } from '../storage/queries/document-files.js';
import { findDocument } from '../storage/queries/documents.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

let storage: Storage;
let organizationId: string;
beforeEach(async () => {
  storage = await sqlite.open();
  organizationId = (await ensureOrganization(storage.db.query, 'acme', 'Acme')).id;
});
afterEach(() => storage.close());

async function refusal(input: Partial<Parameters<typeof createDocument>[1]>) {
  const bytes = await generateSamplePdf({ pages: 2 });
  try {
    await createDocument(storage, { organizationId, bytes, fields: sampleFields(2), maxPdfBytes: 10_000_000, ...input });
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a refusal');
}

describe('createDocument', () => {
  it('stores a parsed PDF with its page count, size, hash and fields', async () => {
    const bytes = await generateSamplePdf({ pages: 2 });
    const document = await createDocument(storage, { organizationId, filename: '../../etc/Lease\u0007.pdf', bytes, fields: JSON.stringify(sampleFields(2)), maxPdfBytes: 10_000_000 });
    expect(document).toMatchObject({ filename: 'Lease.pdf', pageCount: 2, fileSize: bytes.byteLength, status: 'pending', version: 1 });
    expect(document.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await findDocument(storage.db.query, document.id)).toEqual(document);
  });

  it('stores the page-1 preview with the document', async () => {
    const document = await createDocument(storage, { organizationId, bytes: await generateSamplePdf({ pages: 2 }), fields: sampleFields(2), maxPdfBytes: 10_000_000 });
    expect(await findDocumentPreview(storage.db.query, document.id)).toMatchObject({ mediaType: 'image/webp', width: 1224, height: 1584 });
  });

  it('creates a document whose first page cannot be drawn, marked as having no preview, and logs why', async () => {
    const { logger, logs } = capturingLogger();
    const document = await createDocument(storage, { organizationId, bytes: PDF_WITHOUT_TRAILER, fields: [], maxPdfBytes: 10_000_000, logger });
    expect(await findDocument(storage.db.query, document.id)).toEqual(document);
    const mark = await findDocumentPreview(storage.db.query, document.id);
    expect(mark).toMatchObject({ mediaType: NO_PREVIEW.mediaType, width: 0, height: 0 });
    expect(mark!.content.byteLength).toBe(0);
    expect(logs).toEqual([
      expect.objectContaining({ level: 40, documentId: document.id, msg: expect.stringMatching(/no preview/), err: expect.objectContaining({ message: expect.stringMatching(/corrupted/) }) }),
    ]);
  });

  it.each([
    ['bytes that are not a PDF', { bytes: new TextEncoder().encode('<html>') }, 400, 'file'],
    ['a truncated PDF', { bytes: new TextEncoder().encode('%PDF-1.7\n1 0 obj') }, 400, 'file'],
    ['a file over the limit', { maxPdfBytes: 100 }, 413, 'file'],
    ['fields that are not JSON', { fields: '[{' }, 400, 'fields'],
    ['fields that are not an array', { fields: { id: 'x' } }, 400, 'fields'],
    ['a field beyond the right edge', { fields: [{ ...sampleFields(2)[1]!, x: 0.9, width: 0.2 }] }, 400, 'fields[0].width'],
    ['a field past the last page', { fields: [{ ...sampleFields(2)[1]!, page: 3 }] }, 400, 'fields[0].page'],
    ['duplicate field ids', { fields: [sampleFields(2)[1]!, sampleFields(2)[1]!] }, 400, 'fields[1].id'],
    ['a negative coordinate', { fields: [{ ...sampleFields(2)[1]!, y: -0.1 }] }, 400, 'fields[0].y'],
    ['a prefill of the wrong shape', { fields: [{ ...sampleFields(2)[0]!, value: { type: 'text', content: 5 } }] }, 400, 'fields[0].value.content'],
    ['a prefill of another type', { fields: [{ ...sampleFields(2)[0]!, value: { type: 'checkbox', checked: true } }] }, 400, 'fields[0].value.type'],
    ['no fields at all', { fields: undefined }, 400, 'fields'],
  ])('refuses %s', async (_case, input, status, field) => {
    const error = await refusal(input as never);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.status).toBe(status);
    expect(error.details).toMatchObject({ field, reason: expect.any(String) });
  });

  it('cleans file names', () => {
    expect(cleanFilename('C:\\Users\\me\\a.pdf')).toBe('a.pdf');
    expect(cleanFilename('')).toBe('document.pdf');
    expect(cleanFilename('..')).toBe('document.pdf');
    expect(cleanFilename('x'.repeat(300)).length).toBe(255);
    expect(cleanFilename(`${'x'.repeat(300)}.pdf`)).toBe(`${'x'.repeat(251)}.pdf`);
    // A right-to-left override would show "invoice\u202Efdp.exe" as "invoiceexe.pdf".
    expect(cleanFilename('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanFilename('  two\tspaced   name.pdf ')).toBe('two spaced name.pdf');
    expect(Array.from(cleanFilename('\u{1F4C4}'.repeat(300)))).toHaveLength(255);
  });
});
