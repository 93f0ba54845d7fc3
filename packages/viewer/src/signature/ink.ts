/** The ink colour of drawn and typed signatures: a blue-black, like a ballpoint pen (and legible on any page). */
export const INK_COLOR = '#14213d';

/**
 * Device pixels per CSS pixel at which a signature is drawn for the PDF: the screen's, but at least 2, so that the
 * PNG stays crisp when the page is zoomed or printed.
 * @example
 * const canvas = renderStrokes(pad.toData(), 480, 180, inkScale());
 */
export function inkScale(): number {
  return Math.max(2, globalThis.devicePixelRatio || 1);
}
