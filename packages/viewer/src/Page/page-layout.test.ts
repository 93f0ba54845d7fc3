import { describe, expect, it } from 'vitest';
import { anchorAt, cssScaleFor, layoutPages, pageIndexAt, pagesAround, scrollFor, PAGE_GAP } from './page-layout.js';

const letter = (pageNumber: number) => ({ pageNumber, width: 612, height: 792, rotation: 0 });
const pages = [letter(1), { pageNumber: 2, width: 792, height: 612, rotation: 90 }, letter(3)];

describe('page layout', () => {
  it('fits the widest page to the container at zoom 1', () => {
    expect(cssScaleFor(pages, 840, 1)).toBeCloseTo((840 - 48) / 792);
    expect(cssScaleFor(pages, 840, 2)).toBeCloseTo((2 * (840 - 48)) / 792);
    expect(cssScaleFor(pages, 0, 1)).toBe(0);
    expect(cssScaleFor([], 800, 1)).toBe(0);
  });

  it('stacks whole-pixel boxes with a gap, centred, and widens the track for wide pages', () => {
    const layout = layoutPages(pages, 1, 1000);
    expect(layout.boxes[0]).toEqual({ top: 24, left: 194, width: 612, height: 792 });
    expect(layout.boxes[1]!.top).toBe(24 + 792 + PAGE_GAP);
    expect(layout.height).toBe(24 + 792 + 612 + 792 + 2 * PAGE_GAP + 24);
    expect(layout.width).toBe(1000);
    const zoomed = layoutPages(pages, 2, 1000);
    expect(zoomed.width).toBe(2 * 792 + 48);
    expect(zoomed.boxes[1]!.left).toBe(24);
  });

  it('lists the pages within a number of viewports of the visible part', () => {
    const layout = layoutPages(Array.from({ length: 20 }, (_, i) => letter(i + 1)), 1, 1000);
    // The viewport shows page 10 from its top, one page high.
    const viewport = { scrollTop: layout.boxes[9]!.top, clientHeight: 792 };
    expect(pagesAround(layout, viewport, 0)).toEqual([10]);
    expect(pagesAround(layout, viewport, 1)).toEqual([9, 10, 11]);
    expect(pagesAround(layout, viewport, 2)).toEqual([8, 9, 10, 11, 12]);
    expect(pagesAround(layout, { scrollTop: 0, clientHeight: 792 }, 2)).toEqual([1, 2, 3]);
  });

  it('finds the page at a position, gaps belonging to the page above', () => {
    const layout = layoutPages(pages, 1, 1000);
    expect(pageIndexAt(layout, 0)).toBe(0);
    expect(pageIndexAt(layout, 24 + 792 + 5)).toBe(0);
    expect(pageIndexAt(layout, 24 + 792 + PAGE_GAP)).toBe(1);
    expect(pageIndexAt(layout, 1e9)).toBe(2);
  });

  it('keeps the same point of the same page at the top across a zoom', () => {
    const before = layoutPages(pages, 1, 1000);
    const top = before.boxes[2]!.top + 396; // halfway down page 3
    const anchor = anchorAt(before, top, 0, 1000)!;
    expect(anchor.index).toBe(2);
    const after = layoutPages(pages, 2, 1000);
    expect(scrollFor(after, anchor, 1000).top).toBe(after.boxes[2]!.top + 792);
  });
});
