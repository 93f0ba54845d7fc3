import type { PDFPageProxy } from 'pdfjs-dist';

/** The largest canvas iOS Safari will draw (width × height); larger ones stay blank. */
export const MAX_CANVAS_PIXELS = 16_777_216;

/** A canvas backing store: whole pixels, and the device pixels per CSS pixel it actually gets. */
export interface BackingSize {
  width: number;
  height: number;
  pixelRatio: number;
}

/**
 * The backing store for a canvas shown at `cssWidth` × `cssHeight`: sharp at `devicePixelRatio`, but never more than
 * `maxPixels` in total (then the ratio is lowered and the bitmap is upscaled by the browser, slightly soft but drawn).
 * @example canvasBackingSize(800, 1000, 2) // { width: 1600, height: 2000, pixelRatio: 2 }
 * @example canvasBackingSize(3000, 4000, 3).width * canvasBackingSize(3000, 4000, 3).height <= MAX_CANVAS_PIXELS // true
 */
export function canvasBackingSize(cssWidth: number, cssHeight: number, devicePixelRatio: number, maxPixels = MAX_CANVAS_PIXELS): BackingSize {
  if (!(cssWidth > 0) || !(cssHeight > 0)) return { width: 0, height: 0, pixelRatio: 0 };
  let pixelRatio = devicePixelRatio > 0 && Number.isFinite(devicePixelRatio) ? devicePixelRatio : 1;
  if (cssWidth * cssHeight * pixelRatio * pixelRatio > maxPixels) pixelRatio = Math.sqrt(maxPixels / (cssWidth * cssHeight));
  // Flooring keeps the area within the cap; at least one pixel each way so that a sliver of a page still draws.
  const width = Math.max(1, Math.floor(cssWidth * pixelRatio));
  const height = Math.max(1, Math.floor(cssHeight * pixelRatio));
  return { width, height, pixelRatio };
}

/**
 * Frees a canvas's bitmap now (browsers keep it until garbage collection otherwise) and takes it off the page.
 * @example releaseCanvas(previousCanvas)
 */
export function releaseCanvas(canvas: HTMLCanvasElement): void {
  canvas.width = 0;
  canvas.height = 0;
  canvas.remove();
}

export interface RenderPageOptions {
  /** The page box's size in CSS pixels. */
  cssWidth: number;
  cssHeight: number;
  devicePixelRatio: number;
  /** Aborting cancels the pdf.js render task; the promise then rejects. */
  signal: AbortSignal;
  maxPixels?: number;
}

/**
 * Draws `page` (with its own rotation) into a new canvas that fills a `cssWidth` × `cssHeight` box, and resolves
 * with it once drawn, marked `data-rendered="true"`. The canvas is built off-screen, so a bitmap already on screen
 * can stay there until this one replaces it. On failure or abort the canvas is released.
 * @example const canvas = await renderPage(page, { cssWidth: 612, cssHeight: 792, devicePixelRatio: 2, signal });
 */
export async function renderPage(page: PDFPageProxy, options: RenderPageOptions): Promise<HTMLCanvasElement> {
  const { signal } = options;
  signal.throwIfAborted();
  const size = canvasBackingSize(options.cssWidth, options.cssHeight, options.devicePixelRatio, options.maxPixels);
  const canvas = document.createElement('canvas');
  canvas.className = 'signet-page-bitmap';
  canvas.width = size.width;
  canvas.height = size.height;
  const viewport = page.getViewport({ scale: 1 });
  // Map the displayed page exactly onto the backing store (the box is rounded to whole CSS pixels).
  const transform = [size.width / viewport.width, 0, 0, size.height / viewport.height, 0, 0];
  const task = page.render({ canvas, viewport, transform });
  const cancel = () => task.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    await task.promise;
  } catch (error) {
    releaseCanvas(canvas);
    throw error;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
  canvas.setAttribute('data-rendered', 'true');
  return canvas;
}
