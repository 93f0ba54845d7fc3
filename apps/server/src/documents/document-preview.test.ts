import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateSamplePdf } from '../pdf/sample.js';
import { PDF_WITHOUT_TRAILER } from '../../test/pdf/test-pdfs.js';
import { capturingLogger, createTestApp, type TestApp } from '../../test/support/harness.js';
import { sharedPdfPool } from '../pdf-worker/index.js';
import { createPreviewSource } from './document-preview.js';
import { findDocumentPreview } from '../storage/queries/document-files.js';
import type { Storage } from '../storage/types.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

/** How many times the document's file has been read from `storage` since this call. */
function fileReads(storage: Storage): () => number {
  const selects = vi.spyOn(storage.db.query, 'selectFrom');
  return () => selects.mock.calls.filter(([from]) => from === 'document_chunks').length;
}

describe('createPreviewSource', () => {
  it('draws a missing preview once for concurrent callers, stores it, then serves the stored one', async () => {
    const document = await t.createDocumentWithoutPreview(await generateSamplePdf({ pages: 2 }));
    const previewOf = createPreviewSource({ storage: t.storage, logger: capturingLogger().logger, pdfPool: sharedPdfPool() });
    const reads = fileReads(t.storage);

    const previews = await Promise.all(Array.from({ length: 4 }, () => previewOf(document)));
    expect(reads()).toBe(1);
    for (const preview of previews) expect(preview).toMatchObject({ mediaType: 'image/webp', width: 1224, height: 1584 });
    const stored = await findDocumentPreview(t.storage.db.query, document.id);
    expect(Buffer.compare(Buffer.from(stored!.content), Buffer.from(previews[0]!.content))).toBe(0);

    expect(await previewOf(document)).toMatchObject({ width: 1224, height: 1584 });
    expect(reads()).toBe(1);
  });

  it('marks a PDF that cannot be drawn in storage, logging once, and never draws it again', async () => {
    const document = await t.createDocumentWithoutPreview(PDF_WITHOUT_TRAILER);
    const { logger, logs } = capturingLogger();
    const previewOf = createPreviewSource({ storage: t.storage, logger, pdfPool: sharedPdfPool() });
    const reads = fileReads(t.storage);

    expect(await Promise.all([previewOf(document), previewOf(document)])).toEqual([null, null]);
    expect(await previewOf(document)).toBeNull();
    expect(reads()).toBe(1);
    expect(logs).toEqual([expect.objectContaining({ level: 40, documentId: document.id })]);
    expect(await findDocumentPreview(t.storage.db.query, document.id)).toMatchObject({ mediaType: 'none', width: 0, height: 0 });

    // Another instance (a new source over the same storage) sees the mark too.
    const elsewhere = createPreviewSource({ storage: t.storage, logger, pdfPool: sharedPdfPool() });
    expect(await elsewhere(document)).toBeNull();
    expect(reads()).toBe(1);
  });
});
