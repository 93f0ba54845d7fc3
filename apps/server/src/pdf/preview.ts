import type { PDFiumLibrary } from '@hyzyla/pdfium';
import type { Sharp, SharpOptions } from 'sharp';
import { PREVIEW_MAX_SIDE, PREVIEW_PIXELS_PER_POINT } from '@signet/contract';
import type { DocumentPreview } from '../storage/types.js';

/** Effort 2 encodes in half the time of the default 4 (about 75 against 150 ms a page) for about 3 % more bytes. */
const WEBP_OPTIONS = { quality: 75, effort: 2 } as const;

interface Tools {
  pdfium: PDFiumLibrary;
  sharp: (input: Uint8Array, options: SharpOptions) => Sharp;
}

let tools: Promise<Tools> | undefined;

/**
 * PDFium and sharp, loaded on the first render rather than when the server starts (loading sharp's native library
 * alone takes about 100 ms, which every start of the server and the command line would pay), and kept for the life
 * of the process: one WebAssembly instance serves every app and storage of the process, and it holds no handle
 * that would keep the process alive, so nothing closes it.
 */
function loadTools(): Promise<Tools> {
  tools ??= Promise.all([import('@hyzyla/pdfium'), import('sharp')])
    .then(async ([{ PDFiumLibrary }, { default: sharp }]) => ({ pdfium: await PDFiumLibrary.init(), sharp }))
    .catch((error: unknown) => {
      tools = undefined;
      throw error;
    });
  return tools;
}

/**
 * The pixel size of a page of `width` × `height` points: `PREVIEW_PIXELS_PER_POINT` pixels a point, scaled down so
 * that neither side exceeds `PREVIEW_MAX_SIDE`, and at least one pixel a side.
 * @example previewSize({ width: 612, height: 792 }) // { width: 1224, height: 1584 }
 */
export function previewSize(page: { width: number; height: number }): { width: number; height: number } {
  const scale = Math.min(PREVIEW_PIXELS_PER_POINT, PREVIEW_MAX_SIDE / Math.max(page.width, page.height));
  return {
    width: Math.max(1, Math.min(PREVIEW_MAX_SIDE, Math.round(page.width * scale))),
    height: Math.max(1, Math.min(PREVIEW_MAX_SIDE, Math.round(page.height * scale))),
  };
}

/**
 * Draws the first page of a PDF as a viewer shows it (its crop box, its `/Rotate` applied, on white) and encodes it
 * as WebP. Throws when PDFium cannot open the file or its first page (damaged, encrypted).
 * @example const preview = await renderPreview(await readFile('lease.pdf')) // { mediaType: 'image/webp', width: 1224, … }
 */
export async function renderPreview(pdf: Uint8Array): Promise<DocumentPreview> {
  const { pdfium, sharp } = await loadTools();
  const document = await pdfium.loadDocument(pdf);
  try {
    const page = document.getPage(0);
    // PDFium's page size is the crop box, turned by /Rotate; a page it could not load measures 0 × 0.
    const { originalWidth, originalHeight } = page.getOriginalSize();
    if (!(originalWidth > 0 && originalHeight > 0)) throw new Error('PDFium cannot load the first page');
    const size = previewSize({ width: originalWidth, height: originalHeight });
    // `width` and `height` are the target in pixels at scale 1, so the rounding is ours rather than PDFium's floor.
    const bitmap = await page.render({ ...size, scale: 1, render: 'bitmap', transparent: false });
    const content = await sharp(bitmap.data, { raw: { width: bitmap.width, height: bitmap.height, channels: 4 } })
      .removeAlpha()
      .webp(WEBP_OPTIONS)
      .toBuffer();
    return { mediaType: 'image/webp', width: bitmap.width, height: bitmap.height, content };
  } finally {
    document.destroy();
  }
}
