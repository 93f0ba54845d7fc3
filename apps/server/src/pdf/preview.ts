import type { Sharp, SharpOptions } from 'sharp';
import { PREVIEW_MAX_SIDE, PREVIEW_PIXELS_PER_POINT } from '@signet/contract';
import { createCappedPdfium, largestImagePixels, type CappedPdfium } from './pdfium.js';

/** Effort 2 encodes in half the time of the default 4 (about 75 against 150 ms a page) for about 3 % more bytes. */
const WEBP_OPTIONS = { quality: 75, effort: 2 } as const;

/** How much PDFium may take to draw a page. */
/** A drawn page: the shape a document's stored preview has (`DocumentPreview`). */
export interface PagePreview {
  /** `image/webp`. */
  mediaType: string;
  /** Pixels. */
  width: number;
  height: number;
  content: Uint8Array;
}

export interface PreviewLimits {
  /** The most PDFium's WebAssembly heap may grow to, in bytes: decoded streams and images must fit in it. */
  heapBytes: number;
  /** The most pixels (width × height, as declared) of any image on the page: larger ones are not decoded. */
  maxImagePixels: number;
}

export const DEFAULT_PREVIEW_LIMITS: PreviewLimits = { heapBytes: 256 * 1024 * 1024, maxImagePixels: 50_000_000 };

/** A page the preview refuses to draw within its limits; the document is kept without a preview. */
export class PreviewLimitError extends Error {
  constructor(readonly limit: 'memory' | 'image', message: string) {
    super(message);
    this.name = 'PreviewLimitError';
  }
}

interface Tools {
  pdfium: CappedPdfium;
  sharp: (input: Uint8Array, options: SharpOptions) => Sharp;
}

let tools: Promise<Tools> | undefined;
let toolsHeapBytes = 0;

/**
 * PDFium and sharp, loaded on the first render rather than when the process starts (loading sharp's native library
 * alone takes about 100 ms), and kept until PDFium fails: an instance that aborted (out of memory, or any other
 * trap) is unusable, so the next render makes a new one.
 */
function loadTools(heapBytes: number): Promise<Tools> {
  if (tools && toolsHeapBytes !== heapBytes) tools = undefined;
  toolsHeapBytes = heapBytes;
  tools ??= Promise.all([createCappedPdfium(heapBytes), import('sharp')])
    .then(([pdfium, { default: sharp }]) => ({ pdfium, sharp }))
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
 * as WebP. Throws when PDFium cannot open the file or its first page (damaged, encrypted), and a
 * `PreviewLimitError` when the page needs more memory than `limits.heapBytes` or holds an image over
 * `limits.maxImagePixels`.
 * @example const preview = await renderPreview(await readFile('lease.pdf')) // { mediaType: 'image/webp', width: 1224, … }
 */
export async function renderPreview(
  pdf: Uint8Array,
  limits: PreviewLimits = DEFAULT_PREVIEW_LIMITS,
): Promise<PagePreview> {
  const loaded = loadTools(limits.heapBytes);
  const { pdfium, sharp } = await loaded;
  try {
    const document = await pdfium.library.loadDocument(pdf);
    try {
      const page = document.getPage(0);
      // PDFium's page size is the crop box, turned by /Rotate; a page it could not load measures 0 × 0.
      const { originalWidth, originalHeight } = page.getOriginalSize();
      if (!(originalWidth > 0 && originalHeight > 0)) throw new Error('PDFium cannot load the first page');
      const pixels = largestImagePixels(page);
      if (pixels > limits.maxImagePixels) {
        throw new PreviewLimitError('image', `an image of ${pixels} pixels is over the limit of ${limits.maxImagePixels}`);
      }
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
  } catch (error) {
    if (error instanceof PreviewLimitError) throw error;
    // Anything else may have left PDFium in a broken state (an abort poisons the instance): start a new one.
    if (tools === loaded) tools = undefined;
    if (pdfium.overLimit()) {
      throw new PreviewLimitError('memory', `drawing the page needs more than ${limits.heapBytes} bytes of memory`);
    }
    throw error;
  }
}
