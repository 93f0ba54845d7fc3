import { PdfArray, PdfNumber, PdfRef, type PDF, type PdfDict, type PdfObject } from '@libpdf/core';
import type { DisplayedPage } from '../../sealing/render/page-geometry.js';

/** A field's place as Signet stores it: fractions of the page as displayed, from its top-left corner. */
export interface FieldBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Below this many points on a side, a widget is not a place a signer can fill in: it is left out. */
const MIN_SIDE_POINTS = 1;
/** Fractions are kept to six decimals: a thousandth of a point on a page a metre wide. */
const PRECISION = 1e6;

/**
 * A widget's `/Rect` as a box of its page as displayed (docs/api.md, "Fields": fractions, `y` from the top), the
 * inverse of what the seal draws with (`displayedPage`: crop box, then `/Rotate`): its corners are mapped from user
 * space to displayed points, clipped to the page, and turned into fractions. `undefined` for a rectangle that is not
 * four finite numbers, or that leaves less than a point on a side once clipped (outside the crop box, degenerate).
 * @example widgetBox(pdf, widgetDict, displayedPage(pdf, page)) // { x: 0.117647, y: 0.090909, width: 0.326797, height: 0.025253 }
 */
export function widgetBox(pdf: PDF, widget: PdfDict, page: DisplayedPage): FieldBox | undefined {
  const rect = rectOf(pdf, widget.get('Rect'));
  if (!rect) return undefined;
  const [a, b, c, d, e, f] = page.matrix;
  const det = a * d - b * c;
  if (det === 0) return undefined;
  // The matrix maps displayed points to user space; a widget's corners go the other way.
  const corners = [
    [rect[0], rect[1]],
    [rect[2], rect[3]],
  ].map(([ux, uy]) => [(d * (ux! - e) - c * (uy! - f)) / det, (-b * (ux! - e) + a * (uy! - f)) / det] as const);
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max);
  const xs = corners.map(([x]) => clamp(x, page.width));
  const ys = corners.map(([, y]) => clamp(y, page.height));
  const [left, right] = [Math.min(...xs), Math.max(...xs)];
  const [bottom, top] = [Math.min(...ys), Math.max(...ys)];
  if (!(right - left >= MIN_SIDE_POINTS && top - bottom >= MIN_SIDE_POINTS)) return undefined;
  const x = Math.floor((left / page.width) * PRECISION) / PRECISION;
  const y = Math.floor(((page.height - top) / page.height) * PRECISION) / PRECISION;
  const width = within(x, round(right / page.width - x));
  const height = within(y, round((page.height - bottom) / page.height - y));
  // A point may round to nothing on an absurdly large page.
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

/**
 * The smallest box holding every one of `boxes` (a radio group's widgets: docs/form-fields.md).
 * @example unionBox([{ x: 0.1, y: 0.1, width: 0.1, height: 0.1 }, { x: 0.1, y: 0.3, width: 0.1, height: 0.1 }]) // { x: 0.1, y: 0.1, width: 0.1, height: 0.3 }
 */
export function unionBox(boxes: readonly FieldBox[]): FieldBox {
  const x = Math.min(...boxes.map((box) => box.x));
  const y = Math.min(...boxes.map((box) => box.y));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  return { x, y, width: within(x, round(right - x)), height: within(y, round(bottom - y)) };
}

function round(fraction: number): number {
  return Math.round(fraction * PRECISION) / PRECISION;
}

/** `size` shortened, a millionth at a time, until `start + size` is at most 1 in floating point, as the contract checks. */
function within(start: number, size: number): number {
  let fitted = size;
  while (start + fitted > 1) fitted = round(fitted - 1 / PRECISION);
  return fitted;
}

function rectOf(pdf: PDF, object: PdfObject | undefined): [number, number, number, number] | undefined {
  const array = object instanceof PdfRef ? pdf.getObject(object) : object;
  if (!(array instanceof PdfArray) || array.length !== 4) return undefined;
  const values = array.toArray().map((item) => (item instanceof PdfRef ? pdf.getObject(item) : item));
  if (!values.every((value): value is PdfNumber => value instanceof PdfNumber && Number.isFinite(value.value))) return undefined;
  return values.map((value) => value.value) as [number, number, number, number];
}
