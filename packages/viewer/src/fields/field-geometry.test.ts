import { describe, expect, it } from 'vitest';
import { fieldBox, pageInfo, readingOrder, textStyle } from './field-geometry.js';

describe('field geometry', () => {
  it('places a field in percentages of its page box', () => {
    expect(fieldBox({ x: 0.1, y: 0.5, width: 0.25, height: 0.05 })).toEqual({ left: '10%', top: '50%', width: '25%', height: '5%' });
  });

  it('sizes text from the field height in points, within 6–24 pt, on half points', () => {
    expect(textStyle({ height: 22 / 792 }, 792)).toEqual({ fontSize: 13.5, fontFamily: 'Helvetica', textAlign: 'left' });
    expect(textStyle({ height: 0.001 }, 792).fontSize).toBe(6);
    expect(textStyle({ height: 0.5 }, 792).fontSize).toBe(24);
    // The author's own size, whatever the height.
    expect(textStyle({ height: 0.5, fontSize: 9 }, 792)).toEqual({ fontSize: 9, fontFamily: 'Helvetica', textAlign: 'left' });
    expect(textStyle({ height: 0.001, type: 'textarea', fontSize: 30 }, 792).fontSize).toBe(30);
  });

  it('orders fields by page, then line, then from the left', () => {
    const fields = [
      { id: 'c', page: 2, x: 0.1, y: 0.1 },
      { id: 'b', page: 1, x: 0.6, y: 0.301 },
      { id: 'a', page: 1, x: 0.1, y: 0.3 },
      { id: 'd', page: 1, x: 0.1, y: 0.8 },
    ];
    expect(readingOrder(fields).map((field) => field.id)).toEqual(['a', 'b', 'd', 'c']);
  });

  it("reports a page's own size and its rotation, from the size as displayed", () => {
    expect(pageInfo({ pageNumber: 1, width: 792, height: 612, rotation: 90 })).toEqual({ pageNumber: 1, width: 612, height: 792, rotation: 90 });
    expect(pageInfo({ pageNumber: 2, width: 612, height: 792, rotation: 180 })).toEqual({ pageNumber: 2, width: 612, height: 792, rotation: 180 });
  });
});
