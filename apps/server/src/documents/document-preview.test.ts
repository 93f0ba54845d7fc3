import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateSamplePdf } from '../pdf/sample.js';
import { PDF_WITHOUT_TRAILER } from '../pdf/test-pdfs.js';
import { capturingLogger, createTestApp, type TestApp } from '../test-support/harness.js';
import { createPreviewSource } from './document-preview.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

describe('createPreviewSource', () => {
  it('draws a missing preview once for concurrent callers, stores it, then serves the stored one', async () => {
    const document = await t.createDocumentWithoutPreview(await generateSamplePdf({ pages: 2 }));
    const previewOf = createPreviewSource(t.storage, capturingLogger().logger);
    const reads = vi.spyOn(t.storage, 'readDocumentContent');

    const previews = await Promise.all(Array.from({ length: 4 }, () => previewOf(document)));
    expect(reads).toHaveBeenCalledTimes(1);
    for (const preview of previews) expect(preview).toMatchObject({ mediaType: 'image/webp', width: 1224, height: 1584 });
    const stored = await t.storage.getDocumentPreview(document.id);
    expect(Buffer.compare(Buffer.from(stored!.content), Buffer.from(previews[0]!.content))).toBe(0);

    expect(await previewOf(document)).toMatchObject({ width: 1224, height: 1584 });
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('remembers a PDF that cannot be drawn for failureTtlMs, logging each attempt, then tries again', async () => {
    const document = await t.createDocumentWithoutPreview(PDF_WITHOUT_TRAILER);
    const { logger, logs } = capturingLogger();
    const previewOf = createPreviewSource(t.storage, logger, { failureTtlMs: 200 });
    const reads = vi.spyOn(t.storage, 'readDocumentContent');

    expect(await Promise.all([previewOf(document), previewOf(document)])).toEqual([null, null]);
    expect(await previewOf(document)).toBeNull();
    expect(reads).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await previewOf(document)).toBeNull();
    expect(reads).toHaveBeenCalledTimes(2);
    expect(logs).toEqual([
      expect.objectContaining({ level: 40, documentId: document.id }),
      expect.objectContaining({ level: 40, documentId: document.id }),
    ]);
    expect(await t.storage.getDocumentPreview(document.id)).toBeNull();
  });
});
