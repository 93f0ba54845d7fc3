import { context2d, createCanvas } from './canvas-2d.js';

/** The image types a signature may be uploaded as (the file input's `accept`). */
export const ACCEPTED_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** Why an uploaded file cannot be used as a signature. */
export type ImageInkError = 'unsupported-type' | 'too-large' | 'undecodable';

export interface ImageInkOptions {
  /** The box the image is scaled down to fit (never up). Default 1200×400, ample for a signature on a page. */
  maxWidth?: number;
  maxHeight?: number;
  /** Files above this many bytes are refused before decoding. Default 20 MiB (a phone photo is well under it). */
  maxFileBytes?: number;
}

/**
 * Decodes an uploaded image (PNG, JPEG or WebP), scales it to fit 1200×400 px and turns its paper background
 * transparent (see {@link removePaperBackground}): a canvas ready for `trimInk`, or an error code.
 * @example
 * const result = await inkCanvasFromImageFile(input.files[0]);
 * if ('error' in result) showError(result.error);
 * else onApply(trimInk(result.canvas));
 */
export async function inkCanvasFromImageFile(
  file: Blob,
  options: ImageInkOptions = {},
): Promise<{ canvas: HTMLCanvasElement } | { error: ImageInkError }> {
  const { maxWidth = 1200, maxHeight = 400, maxFileBytes = 20 * 1024 * 1024 } = options;
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return { error: 'unsupported-type' };
  if (file.size > maxFileBytes) return { error: 'too-large' };
  const bitmap = await decodeImage(file);
  if (!bitmap) return { error: 'undecodable' };
  try {
    const scale = Math.min(1, maxWidth / bitmap.width, maxHeight / bitmap.height);
    const canvas = createCanvas(bitmap.width * scale, bitmap.height * scale);
    const context = context2d(canvas, { willReadFrequently: true });
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    removePaperBackground(pixels);
    context.putImageData(pixels, 0, 0);
    return { canvas };
  } finally {
    bitmap.close();
  }
}

/** `file` decoded, or null when its bytes are not an image the browser can decode. */
export async function decodeImage(file: Blob): Promise<ImageBitmap | null> {
  try {
    return await createImageBitmap(file);
  } catch (error) {
    // Undecodable bytes are the user's file, not a fault of ours: Chromium and Firefox say InvalidStateError.
    if (error instanceof DOMException) return null;
    throw error;
  }
}

/**
 * Makes the paper of a scanned or photographed signature transparent, in place, so that it sits on the page like
 * ink. The paper's brightness is the median luminance of the opaque pixels (a signature is mostly paper); pixels
 * as bright as the paper become transparent, darker ones fade in over a short ramp, and the ramp's pixels are
 * un-blended from the paper colour so that edges do not keep a pale fringe. An image whose median is dark (not
 * paper) is left as it is.
 * @example
 * const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
 * removePaperBackground(pixels);
 * context.putImageData(pixels, 0, 0);
 */
export function removePaperBackground(image: ImageData): void {
  const { data } = image;
  const paper = medianOpaqueLuminance(data);
  if (paper === null || paper < 160) return;
  // Below `solid` a pixel is all ink; at `clear` and above it is paper (with some room for scanner noise).
  const clear = paper - 14;
  const solid = clear - 70;
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i]!;
    const g = data[i + 1]!;
    const b = data[i + 2]!;
    const lum = luminance(r, g, b);
    if (lum <= solid) continue;
    if (lum >= clear) {
      data[i + 3] = 0;
      continue;
    }
    const coverage = (clear - lum) / (clear - solid);
    data[i] = unblend(r, paper, coverage);
    data[i + 1] = unblend(g, paper, coverage);
    data[i + 2] = unblend(b, paper, coverage);
    data[i + 3] = Math.round(data[i + 3]! * coverage);
  }
}

/** The ink colour that, laid over `paper` with this coverage, looks like `value`. */
function unblend(value: number, paper: number, coverage: number): number {
  return Math.max(0, Math.min(255, Math.round((value - (1 - coverage) * paper) / coverage)));
}

function luminance(r: number, g: number, b: number): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function medianOpaqueLuminance(data: Uint8ClampedArray): number | null {
  const histogram = new Uint32Array(256);
  let count = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3]! < 128) continue;
    histogram[Math.round(luminance(data[i]!, data[i + 1]!, data[i + 2]!))]! += 1;
    count += 1;
  }
  if (count === 0) return null;
  let seen = 0;
  for (let level = 0; level < 256; level++) {
    seen += histogram[level]!;
    if (seen * 2 >= count) return level;
  }
  return 255;
}
