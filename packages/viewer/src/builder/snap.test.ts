import { OPS } from 'pdfjs-dist';
import { describe, expect, it } from 'vitest';
import { DRAW_OPS, fieldLines, printedLines, SNAP_OPS, snapRect } from './snap.js';

const LETTER = { width: 612, height: 792 };
/** pdf.js's viewport transform of an upright Letter page at scale 1: y flipped. */
const VIEWPORT = [1, 0, 0, -1, 0, 792];
const { moveTo, lineTo, curveTo, closePath } = DRAW_OPS;
/** A rectangle as pdf.js 6 packs `re`: four corners and a close. */
const rect = (x: number, y: number, w: number, h: number) => new Float32Array([moveTo, x, y, lineTo, x + w, y, lineTo, x + w, y + h, lineTo, x, y + h, closePath]);
const path = (paint: number, data: Float32Array) => ({ fn: SNAP_OPS.constructPath, args: [paint, [data], [0, 0, 0, 0]] });
const list = (...ops: { fn: number; args: unknown }[]) => ({ fnArray: ops.map((op) => op.fn), argsArray: ops.map((op) => op.args) });

describe('printedLines', () => {
  it('reads pdf.js’s own operator codes', () => {
    for (const [name, code] of Object.entries(SNAP_OPS)) expect(OPS[name as keyof typeof OPS], name).toBe(code);
  });

  it('takes a stroked box’s edges and a rule, in points from the top, under the current transform', () => {
    const lines = printedLines(
      list(
        // A box 222 × 22 pt whose top is 188 pt from the top (PDF y from the bottom: 792 - 188 - 22 = 582).
        path(OPS.fillStroke, rect(72, 582, 222, 22)),
        { fn: OPS.save, args: null },
        { fn: OPS.transform, args: [1, 0, 0, 1, 100, 50] },
        // A horizontal rule at y 50 + 40 = 90 → 702 from the top, from x 110 to 300.
        path(OPS.stroke, new Float32Array([moveTo, 10, 40, lineTo, 200, 40])),
        { fn: OPS.restore, args: null },
        // After restore: no translation. A clip path (endPath) is not printed; a curve is not a line.
        path(OPS.endPath, rect(0, 0, 300, 300)),
        path(OPS.stroke, new Float32Array([moveTo, 400, 100, curveTo, 410, 120, 420, 120, 430, 100])),
        // A glyph-sized tick is too short to snap to.
        path(OPS.stroke, new Float32Array([moveTo, 500, 500, lineTo, 503, 500])),
      ),
      [],
      VIEWPORT,
      LETTER,
    );
    expect(lines.x).toEqual([72, 294]);
    expect(lines.y).toEqual([188, 210, 702]);
  });

  it('follows form XObjects’ matrices and pdf.js’s empty paths', () => {
    const lines = printedLines(
      list(
        { fn: OPS.paintFormXObjectBegin, args: [[2, 0, 0, 2, 0, 0], [0, 0, 100, 100]] },
        path(OPS.stroke, new Float32Array([moveTo, 10, 10, lineTo, 10, 50])),
        { fn: OPS.paintFormXObjectEnd, args: [] },
        { fn: SNAP_OPS.constructPath, args: [OPS.stroke, [null], null] },
        path(OPS.stroke, new Float32Array([moveTo, 30, 10, lineTo, 30, 50])),
      ),
      [],
      VIEWPORT,
      LETTER,
    );
    expect(lines.x).toEqual([20, 30]);
    expect(lines.y).toEqual([]);
  });

  it('takes text runs’ baselines and left edges, not blank runs', () => {
    const lines = printedLines(
      list(),
      [
        { str: 'Full legal name', transform: [8, 0, 0, 8, 72, 614] },
        { str: ' ', transform: [8, 0, 0, 8, 300, 400] },
        {},
      ],
      VIEWPORT,
      LETTER,
    );
    expect(lines).toEqual({ x: [72], y: [178] });
  });

  it('shows a rotated page as displayed', () => {
    // /Rotate 90: pdf.js's viewport maps PDF (x, y) to (y, x) on a 792 × 612 page.
    const lines = printedLines(list(path(OPS.stroke, new Float32Array([moveTo, 100, 50, lineTo, 100, 400]))), [], [0, 1, 1, 0, 0, 0], { width: 792, height: 612 });
    expect(lines).toEqual({ x: [], y: [100] });
  });
});

describe('snapRect', () => {
  const size = LETTER;
  const frac = (x: number, y: number, w: number, h: number) => ({ x: x / 612, y: y / 792, width: w / 612, height: h / 792 });
  const printed = { x: [72, 294], y: [188, 210] };

  it('moves a field onto the nearest printed edges within the threshold, keeping its size', () => {
    const { rect, guides } = snapRect({ rect: frac(75, 185, 180, 20), handle: 'move', size, printed, threshold: 6 });
    expect(rect.x * 612).toBeCloseTo(72, 2);
    expect(rect.y * 792).toBeCloseTo(188, 2);
    expect(rect.width * 612).toBeCloseTo(180, 2);
    expect(rect.height * 792).toBeCloseTo(20, 2);
    expect(guides).toEqual([{ axis: 'x', at: 72, field: false }, { axis: 'y', at: 188, field: false }]);
  });

  it('snaps the right or bottom edge when it is the nearer one, and not beyond the threshold', () => {
    const { rect } = snapRect({ rect: frac(112, 150, 180, 20), handle: 'move', size, printed, threshold: 6 });
    expect((rect.x + rect.width) * 612).toBeCloseTo(294, 2);
    expect(rect.y * 792).toBeCloseTo(150, 2);
    const far = frac(80, 300, 100, 20);
    expect(snapRect({ rect: far, handle: 'move', size, printed, threshold: 6 })).toEqual({ rect: far, guides: [] });
  });

  it('snaps only the edges a resize handle moves', () => {
    const { rect } = snapRect({ rect: frac(75, 160, 216, 48), handle: 'e', size, printed, threshold: 6 });
    expect(rect.x * 612).toBeCloseTo(75, 2);
    expect((rect.x + rect.width) * 612).toBeCloseTo(294, 2);
    expect(rect.y * 792).toBeCloseTo(160, 2);
    const corner = snapRect({ rect: frac(75, 160, 216, 47), handle: 'se', size, printed, threshold: 6 }).rect;
    expect((corner.y + corner.height) * 792).toBeCloseTo(210, 2);
  });

  it('aligns to another field’s edges and centre, with a guide that says so', () => {
    const other = fieldLines([frac(300, 400, 100, 20)], size);
    expect(other).toEqual({ x: [300, 350, 400], y: [400, 410, 420] });
    // Its left edge is as near the printed line at 296 as the other field's at 300: the field wins.
    const { rect, guides } = snapRect({ rect: frac(298, 500, 100, 20), handle: 'move', size, printed: { x: [296], y: [] }, fields: other, threshold: 6 });
    expect(rect.x * 612).toBeCloseTo(300, 2);
    expect(guides).toEqual([{ axis: 'x', at: 300, field: true }]);
  });

  it('scales with zoom: the threshold is in points', () => {
    expect(snapRect({ rect: frac(77, 300, 50, 20), handle: 'move', size, printed, threshold: 3 }).guides).toEqual([]);
    expect(snapRect({ rect: frac(77, 300, 50, 20), handle: 'move', size, printed, threshold: 6 }).guides).toHaveLength(1);
  });
});
