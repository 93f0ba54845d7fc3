import type { FieldRect, Handle, PageSize } from './field-edits.js';

/**
 * Snapping a field to what is printed on its page and to the other fields (docs/decisions.md, "Builder: snapping and
 * several fields"). Pure geometry in page points, x from the left and y from the TOP of the page as displayed: the
 * lines come from pdf.js's operator list and text content (`printedLines`), a drag's rectangle is moved onto the
 * nearest of them (`snapRect`).
 */

/** Positions a field's edges may snap to, in points: `x` of vertical lines, `y` of horizontal ones. */
export interface SnapLines {
  x: number[];
  y: number[];
}

/** A 2-D affine transform as PDF and pdf.js write it: `[a, b, c, d, e, f]`. */
type Matrix = readonly number[];

/** The pdf.js operator codes read here (pdf.js's `OPS`; `snap.test.ts` checks they are pdf.js's own). */
export const SNAP_OPS = { save: 10, restore: 11, transform: 12, constructPath: 91, endPath: 28, paintFormXObjectBegin: 74, paintFormXObjectEnd: 75 } as const;
/** pdf.js's `DrawOPS`: the codes inside a `constructPath`'s packed path. */
export const DRAW_OPS = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

/** What `page.getOperatorList()` answers, as far as it is read here. */
export interface OperatorListLike {
  fnArray: ArrayLike<number>;
  argsArray: ArrayLike<unknown>;
}

/** An item of `page.getTextContent()`: text runs have `str` and `transform` (marked-content items have neither). */
export interface TextItemLike {
  str?: string;
  transform?: Matrix;
  type?: string;
}

/** A printed segment shorter than this (points) is not a line to snap to: glyph strokes, dots, ticks. */
const MIN_LINE = 6;
/** How far from axis-aligned (points across its length) a segment may be and still count as horizontal or vertical. */
const SKEW = 0.25;

const multiply = (m: Matrix, n: Matrix): number[] => [
  m[0]! * n[0]! + m[1]! * n[2]!,
  m[0]! * n[1]! + m[1]! * n[3]!,
  m[2]! * n[0]! + m[3]! * n[2]!,
  m[2]! * n[1]! + m[3]! * n[3]!,
  m[4]! * n[0]! + m[5]! * n[2]! + n[4]!,
  m[4]! * n[1]! + m[5]! * n[3]! + n[5]!,
];
const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0]! * x + m[2]! * y + m[4]!, m[1]! * x + m[3]! * y + m[5]!];

/**
 * The lines, box edges and text baselines and left edges printed on a page, in displayed points (`viewport` is
 * `page.getViewport({ scale: 1 }).transform`, which takes PDF space to the page as shown, /Rotate included).
 * Painted paths only (a clip's `endPath` draws nothing), straight horizontal and vertical segments of them, under the
 * current transform (`save`, `restore`, `transform`, form XObjects); each position once, to a hundredth of a point.
 * @example printedLines({ fnArray: [91], argsArray: [[20, [rect(72, 582, 222, 22)], null]] }, [], [1, 0, 0, -1, 0, 792], page).y // [188, 210]
 */
export function printedLines(operators: OperatorListLike, text: readonly TextItemLike[], viewport: Matrix, size: PageSize): SnapLines {
  const xs = new Set<number>();
  const ys = new Set<number>();
  const keep = (set: Set<number>, value: number, max: number) => {
    if (value >= -0.01 && value <= max + 0.01) set.add(Math.round(value * 100) / 100);
  };
  const segment = (m: Matrix, x0: number, y0: number, x1: number, y1: number) => {
    const [ax, ay] = apply(m, x0, y0);
    const [bx, by] = apply(m, x1, y1);
    const dx = Math.abs(bx - ax);
    const dy = Math.abs(by - ay);
    if (dx >= MIN_LINE && dy <= SKEW) keep(ys, (ay + by) / 2, size.height);
    else if (dy >= MIN_LINE && dx <= SKEW) keep(xs, (ax + bx) / 2, size.width);
  };

  let ctm: Matrix = viewport;
  const stack: Matrix[] = [];
  for (let i = 0; i < operators.fnArray.length; i++) {
    const fn = operators.fnArray[i];
    const args = operators.argsArray[i] as unknown[] | null;
    if (fn === SNAP_OPS.save) stack.push(ctm);
    else if (fn === SNAP_OPS.restore) ctm = stack.pop() ?? viewport;
    else if (fn === SNAP_OPS.transform && args) ctm = multiply(args as number[], ctm);
    else if (fn === SNAP_OPS.paintFormXObjectBegin && args) {
      stack.push(ctm);
      if (Array.isArray(args[0]) || ArrayBuffer.isView(args[0])) ctm = multiply(args[0] as number[], ctm);
    } else if (fn === SNAP_OPS.paintFormXObjectEnd) ctm = stack.pop() ?? viewport;
    else if (fn === SNAP_OPS.constructPath && args && args[0] !== SNAP_OPS.endPath) {
      const path = (args[1] as ArrayLike<number>[] | undefined)?.[0];
      if (path) walkPath(path, (x0, y0, x1, y1) => segment(ctm, x0, y0, x1, y1));
    }
  }

  for (const item of text) {
    const t = item.transform;
    if (!t || !item.str?.trim()) continue;
    // Upright or rotated by a quarter turn: its baseline and start are lines on the page as shown.
    const m = multiply(t, viewport);
    const [x, y] = apply(m, 0, 0);
    if (Math.abs(m[1]!) < 1e-3 && Math.abs(m[2]!) < 1e-3) {
      keep(ys, y, size.height);
      keep(xs, x, size.width);
    } else if (Math.abs(m[0]!) < 1e-3 && Math.abs(m[3]!) < 1e-3) {
      keep(xs, x, size.width);
      keep(ys, y, size.height);
    }
  }
  const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b);
  return { x: sorted(xs), y: sorted(ys) };
}

/** Calls `line` for each straight segment of a packed pdf.js path (curves are skipped, their end point kept). */
function walkPath(path: ArrayLike<number>, line: (x0: number, y0: number, x1: number, y1: number) => void) {
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  for (let i = 0; i < path.length; ) {
    switch (path[i++]) {
      case DRAW_OPS.moveTo:
        x = startX = path[i++]!;
        y = startY = path[i++]!;
        break;
      case DRAW_OPS.lineTo: {
        const nx = path[i++]!;
        const ny = path[i++]!;
        line(x, y, nx, ny);
        x = nx;
        y = ny;
        break;
      }
      case DRAW_OPS.curveTo:
        i += 4;
        x = path[i++]!;
        y = path[i++]!;
        break;
      case DRAW_OPS.quadraticCurveTo:
        i += 2;
        x = path[i++]!;
        y = path[i++]!;
        break;
      case DRAW_OPS.closePath:
        if (x !== startX || y !== startY) line(x, y, startX, startY);
        x = startX;
        y = startY;
        break;
      default:
        return;
    }
  }
}

/** The edges and centres of other fields on the page (points), for alignment guides. */
export function fieldLines(rects: readonly FieldRect[], size: PageSize): SnapLines {
  const x: number[] = [];
  const y: number[] = [];
  for (const rect of rects) {
    const left = rect.x * size.width;
    const top = rect.y * size.height;
    const width = rect.width * size.width;
    const height = rect.height * size.height;
    x.push(left, left + width / 2, left + width);
    y.push(top, top + height / 2, top + height);
  }
  return { x, y };
}

/** A line a snapped rectangle lies on while it is dragged: drawn as a guide (`at` in points; `field` when another field's). */
export interface Guide {
  axis: 'x' | 'y';
  at: number;
  field: boolean;
}

export interface SnapInput {
  /** The rectangle as the pointer puts it, in page fractions. */
  rect: FieldRect;
  /** What the drag does: moves the whole field, or the edges of a resize handle. */
  handle: Handle | 'move';
  size: PageSize;
  /** What is printed on the page (none while it is not known yet). */
  printed?: SnapLines;
  /** The edges and centres of the page's other fields. */
  fields?: SnapLines;
  /** How near (points) an edge must be to a line to snap to it: a few screen pixels at the current zoom. */
  threshold: number;
}

interface Best {
  delta: number;
  at: number;
  field: boolean;
}

/** The nearest line to any of `edges` within `threshold` (another field's wins a tie). */
function nearest(edges: readonly number[], printed: readonly number[], fields: readonly number[], threshold: number): Best | null {
  let best: Best | null = null;
  const consider = (lines: readonly number[], field: boolean) => {
    for (const edge of edges) {
      for (const line of lines) {
        const delta = line - edge;
        const distance = Math.abs(delta);
        if (distance <= threshold && (!best || distance < Math.abs(best.delta) - 1e-9 || (field && distance <= Math.abs(best.delta) + 1e-9 && !best.field))) {
          best = { delta, at: line, field };
        }
      }
    }
  };
  consider(printed, false);
  consider(fields, true);
  return best;
}

/**
 * `rect` with its edges moved onto the nearest printed line or other field's edge or centre within `threshold`, on
 * each axis apart: a move keeps the size and snaps its left, centre or right (top, middle or bottom) edge, a resize
 * snaps only the edges its handle moves. Returns the rectangle (fractions, kept on the page) and the guides it lies on.
 * @example snapRect({ rect, handle: 'move', size, printed: { x: [72], y: [] }, threshold: 6 }).rect.x // 72 / 612
 */
export function snapRect(input: SnapInput): { rect: FieldRect; guides: Guide[] } {
  const { rect, handle, size, threshold } = input;
  const printed = input.printed ?? { x: [], y: [] };
  const fields = input.fields ?? { x: [], y: [] };
  let left = rect.x * size.width;
  let top = rect.y * size.height;
  let right = left + rect.width * size.width;
  let bottom = top + rect.height * size.height;
  const guides: Guide[] = [];
  const moving = handle === 'move';

  const xEdges = moving ? [left, (left + right) / 2, right] : handle.includes('w') ? [left] : handle.includes('e') ? [right] : [];
  const bx = xEdges.length ? nearest(xEdges, printed.x, fields.x, threshold) : null;
  if (bx) {
    if (moving) {
      left += bx.delta;
      right += bx.delta;
    } else if (handle.includes('w')) left = Math.min(left + bx.delta, right - 1);
    else right = Math.max(right + bx.delta, left + 1);
    guides.push({ axis: 'x', at: bx.at, field: bx.field });
  }
  const yEdges = moving ? [top, (top + bottom) / 2, bottom] : handle.includes('n') ? [top] : handle.includes('s') ? [bottom] : [];
  const by = yEdges.length ? nearest(yEdges, printed.y, fields.y, threshold) : null;
  if (by) {
    if (moving) {
      top += by.delta;
      bottom += by.delta;
    } else if (handle.includes('n')) top = Math.min(top + by.delta, bottom - 1);
    else bottom = Math.max(bottom + by.delta, top + 1);
    guides.push({ axis: 'y', at: by.at, field: by.field });
  }
  if (guides.length === 0) return { rect, guides };
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  const width = Math.min((right - left) / size.width, 1);
  const height = Math.min((bottom - top) / size.height, 1);
  const snapped = {
    x: round(Math.min(Math.max(left / size.width, 0), 1 - width)),
    y: round(Math.min(Math.max(top / size.height, 0), 1 - height)),
    width: round(width),
    height: round(height),
  };
  return { rect: snapped, guides };
}
