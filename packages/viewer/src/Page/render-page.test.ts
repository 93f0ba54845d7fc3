import { describe, expect, it } from 'vitest';
import { canvasBackingSize, MAX_CANVAS_PIXELS } from './render-page.js';

describe('canvasBackingSize', () => {
  it('is the CSS size times the device pixel ratio', () => {
    expect(canvasBackingSize(800, 1000, 1)).toEqual({ width: 800, height: 1000, pixelRatio: 1 });
    expect(canvasBackingSize(800, 1000, 2)).toEqual({ width: 1600, height: 2000, pixelRatio: 2 });
    expect(canvasBackingSize(301, 389, 1.5)).toEqual({ width: 451, height: 583, pixelRatio: 1.5 });
  });

  it('lowers the ratio so that the area stays within the cap, keeping the aspect ratio', () => {
    const size = canvasBackingSize(3000, 3882, 3);
    expect(size.width * size.height).toBeLessThanOrEqual(MAX_CANVAS_PIXELS);
    expect(size.width * size.height).toBeGreaterThan(MAX_CANVAS_PIXELS * 0.99);
    expect(size.width / size.height).toBeCloseTo(3000 / 3882, 3);
    expect(size.pixelRatio).toBeLessThan(3);
    const custom = canvasBackingSize(1000, 1000, 2, 1_000_000);
    expect(custom).toEqual({ width: 1000, height: 1000, pixelRatio: 1 });
  });

  it('treats a missing ratio as 1 and an empty box as nothing to draw', () => {
    expect(canvasBackingSize(10, 10, 0)).toEqual({ width: 10, height: 10, pixelRatio: 1 });
    expect(canvasBackingSize(0, 10, 2)).toEqual({ width: 0, height: 0, pixelRatio: 0 });
  });
});
