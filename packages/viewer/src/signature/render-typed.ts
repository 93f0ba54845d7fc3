import { SUBMISSION_LIMITS } from '@signet/contract';
import { context2d } from './canvas-2d.js';
import { HANDWRITING_FONT_STACK, loadHandwritingFont } from './handwriting-font.js';
import { INK_COLOR, inkScale } from './ink.js';

export interface TypedSignatureOptions {
  /** Glyph size in CSS pixels. Default 72. */
  fontSizePx?: number;
  /** Device pixels per CSS pixel. Default {@link inkScale}: the screen's, at least 2. */
  scale?: number;
  /** Ink colour. Default the pad's blue-black. */
  color?: string;
}

/**
 * Draws `text` in the handwriting font on a new canvas just large enough for its glyphs (swashes included), once
 * the font has loaded; give the canvas to `trimInk` for the PNG.
 * @example
 * const png = trimInk(await renderTypedSignature('Ada Lovelace'));
 */
export async function renderTypedSignature(text: string, options: TypedSignatureOptions = {}): Promise<HTMLCanvasElement> {
  const { fontSizePx = 72, color = INK_COLOR, scale = inkScale() } = options;
  let size = fontSizePx * scale;
  const canvas = document.createElement('canvas');
  const context = context2d(canvas);

  let font = await loadHandwritingFont(text, size);
  context.font = font;
  let metrics = context.measureText(text);
  // A long name would make a canvas wider than the server accepts: shrink the glyphs instead of cropping them.
  const margin = Math.ceil(size * 0.25);
  const widest = SUBMISSION_LIMITS.maxImageSide - 2 * margin;
  const inkWidth = metrics.actualBoundingBoxLeft + metrics.actualBoundingBoxRight;
  if (inkWidth > widest) {
    size = Math.floor((size * widest) / inkWidth);
    // The faces `text` needs are loaded already: which subsets it needs does not depend on the size.
    font = `${size}px ${HANDWRITING_FONT_STACK}`;
    context.font = font;
    metrics = context.measureText(text);
  }

  canvas.width = Math.ceil(metrics.actualBoundingBoxLeft + metrics.actualBoundingBoxRight) + 2 * margin;
  canvas.height = Math.ceil(metrics.actualBoundingBoxAscent + metrics.actualBoundingBoxDescent) + 2 * margin;
  // Resizing a canvas resets its context, font included.
  context.font = font;
  context.fillStyle = color;
  context.textBaseline = 'alphabetic';
  context.fillText(text, margin + metrics.actualBoundingBoxLeft, margin + metrics.actualBoundingBoxAscent);
  return canvas;
}
