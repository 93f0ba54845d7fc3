/**
 * A new canvas of `width`×`height` pixels, rounded to whole pixels and at least 1×1: a canvas with no pixels can be
 * neither drawn on nor encoded.
 * @example
 * const canvas = createCanvas(cssWidth * scale, cssHeight * scale);
 */
export function createCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  return canvas;
}

/**
 * The 2D context of `canvas`. Throws when the browser gives none (out of memory, or a canvas larger than it allows),
 * since every caller would otherwise draw nothing and encode an empty image.
 * @example
 * const context = context2d(canvas, { willReadFrequently: true });
 */
export function context2d(canvas: HTMLCanvasElement, settings?: CanvasRenderingContext2DSettings): CanvasRenderingContext2D {
  const context = canvas.getContext('2d', settings);
  if (!context) throw new Error('A 2D canvas context is not available');
  return context;
}
