import { SUBMISSION_LIMITS, dataUrlByteLength } from '@signet/contract';
import { context2d, createCanvas } from './canvas-2d.js';

/** A rectangle of pixels: `x`, `y` of its top-left pixel, its `width` and `height`. */
export interface InkBounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TrimInkOptions {
  /** A pixel is ink when its alpha is above this (0–255); low enough to keep anti-aliased edges. Default 8. */
  alphaThreshold?: number;
  /** Transparent margin around the ink, in source pixels, so that strokes are not cut flush. Default 4. */
  padding?: number;
  /** The longest side the PNG may have. Default: the server's `SUBMISSION_LIMITS.maxImageSide`. */
  maxSide?: number;
  /** The most bytes the PNG may have once decoded. Default: the server's `SUBMISSION_LIMITS.maxImageBytes`. */
  maxBytes?: number;
}

const PNG_DATA_URL_PREFIX = 'data:image/png;base64,';

/**
 * The bounding box of the pixels whose alpha is above `alphaThreshold`, or `null` when there are none.
 * @example
 * const box = findInkBounds(context.getImageData(0, 0, canvas.width, canvas.height));
 * if (box) console.log(`${box.width}×${box.height} px of ink at ${box.x},${box.y}`);
 */
export function findInkBounds(image: ImageData, alphaThreshold = 8): InkBounds | null {
  const { data, width, height } = image;
  let top = -1;
  let bottom = -1;
  let left = width;
  let right = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width * 4;
    let first = -1;
    let last = -1;
    for (let x = 0; x < width; x++) {
      if (data[row + x * 4 + 3]! > alphaThreshold) {
        if (first < 0) first = x;
        last = x;
      }
    }
    if (first < 0) continue;
    if (top < 0) top = y;
    bottom = y;
    if (first < left) left = first;
    if (last > right) right = last;
  }
  if (top < 0) return null;
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/**
 * A PNG data URL of just the ink of `source` (a canvas or its pixels) with a little transparent padding, or `null`
 * when there is no ink. The PNG always fits the server's limits: it is downscaled until its longest side is at most
 * `maxSide` and its decoded size at most `maxBytes`.
 * @example
 * const png = trimInk(signaturePadCanvas);
 * if (png) onApply(png); // 'data:image/png;base64,…'
 */
export function trimInk(source: HTMLCanvasElement | ImageData, options: TrimInkOptions = {}): string | null {
  const {
    alphaThreshold = 8,
    padding = 4,
    maxSide = SUBMISSION_LIMITS.maxImageSide,
    maxBytes = SUBMISSION_LIMITS.maxImageBytes,
  } = options;
  if (source.width === 0 || source.height === 0) return null;
  const canvas = source instanceof ImageData ? canvasOf(source) : source;
  const image = source instanceof ImageData ? source : context2d(canvas).getImageData(0, 0, canvas.width, canvas.height);
  const box = findInkBounds(image, alphaThreshold);
  if (!box) return null;

  let scale = Math.min(1, maxSide / (Math.max(box.width, box.height) + 2 * padding));
  for (;;) {
    const png = encodeRegion(canvas, box, padding, scale);
    const bytes = dataUrlByteLength(png);
    // A 1×1 PNG is ~70 bytes, so shrinking always ends; each pass aims a little under the limit to converge fast.
    if (bytes <= maxBytes) return png;
    scale *= Math.sqrt(maxBytes / bytes) * 0.9;
  }
}

function encodeRegion(source: HTMLCanvasElement, box: InkBounds, padding: number, scale: number): string {
  const out = createCanvas((box.width + 2 * padding) * scale, (box.height + 2 * padding) * scale);
  const context = context2d(out);
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  const inset = padding * scale;
  context.drawImage(source, box.x, box.y, box.width, box.height, inset, inset, box.width * scale, box.height * scale);
  const png = out.toDataURL('image/png');
  if (!png.startsWith(PNG_DATA_URL_PREFIX)) throw new Error('This browser cannot encode a canvas as PNG');
  return png;
}

function canvasOf(image: ImageData): HTMLCanvasElement {
  const canvas = createCanvas(image.width, image.height);
  context2d(canvas).putImageData(image, 0, 0);
  return canvas;
}
