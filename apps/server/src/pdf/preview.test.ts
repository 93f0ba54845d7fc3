import sharp from 'sharp';
import { PDF, PdfArray, PdfNumber } from '@libpdf/core';
import { describe, expect, it } from 'vitest';
import { inspectPdf } from './inspect.js';
import { previewSize, renderPreview } from './preview.js';
import { generateSamplePdf } from './sample.js';
import { PDF_WITHOUT_TRAILER, deepPageTreePdf, markedPdf } from '../../test/pdf/test-pdfs.js';

/** The mean brightness (0–255) of a square of `side` pixels at (`left`, `top`) of an image. */
async function brightness(image: Uint8Array, left: number, top: number, side = 40): Promise<number> {
  const pixels = await sharp(image).extract({ left, top, width: side, height: side }).raw().toBuffer();
  return pixels.reduce((sum, value) => sum + value, 0) / pixels.length;
}

describe('previewSize', () => {
  it.each([
    [{ width: 612, height: 792 }, { width: 1224, height: 1584 }],
    [{ width: 1024, height: 1024 }, { width: 2048, height: 2048 }],
    [{ width: 14400, height: 3000 }, { width: 2048, height: 427 }],
    [{ width: 595.28, height: 841.89 }, { width: 1191, height: 1684 }],
    [{ width: 14400, height: 1 }, { width: 2048, height: 1 }],
  ])('draws %o points at %o pixels', (page, pixels) => {
    expect(previewSize(page)).toEqual(pixels);
  });
});

describe('renderPreview', () => {
  it('draws the first page of a Letter document as a 1224 × 1584 WebP with its text', async () => {
    const preview = await renderPreview(await generateSamplePdf({ pages: 3 }));
    expect(preview).toMatchObject({ mediaType: 'image/webp', width: 1224, height: 1584 });
    const metadata = await sharp(preview.content).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 1224, height: 1584, hasAlpha: false });
    const { channels } = await sharp(preview.content).stats();
    expect(Math.min(...channels.map((channel) => channel.min))).toBeLessThan(64);
  });

  it('draws a blank page white, not transparent', async () => {
    const pdf = PDF.create();
    pdf.addPage({ width: 200, height: 100 });
    const preview = await renderPreview(await pdf.save());
    const { channels } = await sharp(preview.content).stats();
    expect(channels).toHaveLength(3);
    for (const channel of channels) expect(channel.min).toBeGreaterThanOrEqual(250);
  });

  it.each([
    [0, 1224, 1584, 'top-left'],
    [90, 1584, 1224, 'top-right'],
    [180, 1224, 1584, 'bottom-right'],
    [270, 1584, 1224, 'bottom-left'],
  ] as const)('draws a page of /Rotate %i as displayed: %i × %i, the top-left mark at the %s', async (rotation, width, height, corner) => {
    const preview = await renderPreview(await markedPdf({ width: 612, height: 792, rotation }));
    expect(preview).toMatchObject({ width, height });
    const corners = {
      'top-left': [10, 10],
      'top-right': [width - 50, 10],
      'bottom-right': [width - 50, height - 50],
      'bottom-left': [10, height - 50],
    } as const;
    for (const [name, [left, top]] of Object.entries(corners)) {
      const expected = name === corner ? 'dark' : 'white';
      expect((await brightness(preview.content, left, top)) < 128 ? 'dark' : 'white', name).toBe(expected);
    }
  });

  it('draws the crop box, as a viewer shows it', async () => {
    const pdf = PDF.create();
    const page = pdf.addPage({ width: 612, height: 792 });
    page.dict.set('CropBox', new PdfArray([100, 100, 400, 300].map((n) => PdfNumber.of(n))));
    expect(await renderPreview(await pdf.save())).toMatchObject({ width: 600, height: 400 });
  });

  it('fits a very large page into 2048 pixels', async () => {
    const preview = await renderPreview(await markedPdf({ width: 14400, height: 3000 }));
    expect(preview).toMatchObject({ width: 2048, height: 427 });
    expect(await sharp(preview.content).metadata()).toMatchObject({ width: 2048, height: 427 });
  });

  it('draws several documents at once as it draws each alone', async () => {
    const pdfs = await Promise.all([0, 90, 180, 270].map((rotation) => markedPdf({ width: 612, height: 792, rotation })));
    const alone = [];
    for (const pdf of pdfs) alone.push(await renderPreview(pdf));
    const together = await Promise.all(pdfs.map((pdf) => renderPreview(pdf)));
    for (const [index, preview] of together.entries()) {
      expect(Buffer.compare(Buffer.from(preview.content), Buffer.from(alone[index]!.content)), `document ${index}`).toBe(0);
    }
  });

  it.each([
    ['without a trailer', PDF_WITHOUT_TRAILER, /corrupted/],
    ['whose page PDFium cannot reach', deepPageTreePdf(), /first page/],
  ])('refuses a PDF %s that the inspection (@libpdf/core) accepts', async (_case, pdf, message) => {
    await expect(inspectPdf(pdf)).resolves.toEqual({ pageCount: 1 });
    await expect(renderPreview(pdf)).rejects.toThrow(message);
  });
});
