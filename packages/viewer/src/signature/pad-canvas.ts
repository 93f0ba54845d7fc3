import SignaturePad, { type Options, type PointGroup } from 'signature_pad';
import { context2d, createCanvas } from './canvas-2d.js';
import { INK_COLOR } from './ink.js';

/** How the pad's pen writes: a blue-black ballpoint whose width follows the stroke's speed. */
export const PEN_OPTIONS: Options = { penColor: INK_COLOR, minWidth: 0.8, maxWidth: 2.8 };

/**
 * Sizes a signature pad's backing store to its CSS size × `devicePixelRatio` and scales its context, so that strokes
 * are sharp on high-density screens, then redraws the strokes (which signature_pad keeps in CSS pixels). Does
 * nothing while the canvas is not displayed (a hidden tab), when its strokes would be lost for nothing.
 * @example
 * const observer = new ResizeObserver(() => fitPadCanvas(canvas, pad));
 * observer.observe(canvas);
 */
export function fitPadCanvas(canvas: HTMLCanvasElement, pad: SignaturePad): void {
  const { width: cssWidth, height: cssHeight } = canvas.getBoundingClientRect();
  if (cssWidth === 0 || cssHeight === 0) return;
  const ratio = Math.max(canvas.ownerDocument.defaultView?.devicePixelRatio ?? 1, 1);
  const width = Math.round(cssWidth * ratio);
  const height = Math.round(cssHeight * ratio);
  if (canvas.width === width && canvas.height === height) return;
  // Resizing clears the pixels (and the transform) but not the pad's strokes, which `redraw` paints again.
  canvas.width = width;
  canvas.height = height;
  // Exact CSS → device mapping (not `ratio`), since the backing store is rounded to whole pixels.
  canvas.getContext('2d')?.setTransform(width / cssWidth, 0, 0, height / cssHeight, 0, 0);
  pad.redraw();
}

/**
 * Redraws strokes on a new canvas of `cssWidth`×`cssHeight` CSS pixels at `scale` device pixels each: the pad's
 * ink at a resolution that does not depend on the signer's screen.
 * @example
 * const ink = renderStrokes(pad.toData(), 480, 180, 2); // a 960×360 canvas
 */
export function renderStrokes(strokes: PointGroup[], cssWidth: number, cssHeight: number, scale: number): HTMLCanvasElement {
  const canvas = createCanvas(cssWidth * scale, cssHeight * scale);
  const painter = new SignaturePad(canvas, PEN_OPTIONS);
  // Only its drawing is wanted: it takes no input.
  painter.off();
  context2d(canvas).setTransform(scale, 0, 0, scale, 0, 0);
  painter.fromData(strokes);
  return canvas;
}
