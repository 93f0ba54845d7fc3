import { cleanup } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { padCanvas, renderDialog } from './test-fixtures.js';
import { drawStroke, inkPixels, pixelsOf, scribble } from './test-input.js';

/*
 * The pad's backing store and the device pixel ratio, in a file of its own: WebKit's run leaves it out
 * (vitest.webkit.config.ts says why).
 */

afterEach(cleanup);

test('the backing store is the CSS size × devicePixelRatio, and a resize keeps the strokes', async () => {
  // This frame's ratio only, the same way in every engine: emulating it for the browser (CDP in Chromium, BiDi's
  // setViewport in Firefox, nothing in WebKitGTK's WebDriver) would also change it for the other test files that run
  // beside this one, and Chromium fires no change event for an emulated ratio anyway.
  vi.stubGlobal('devicePixelRatio', 2);
  try {
    const { dialog } = renderDialog();
    const canvas = padCanvas(dialog);
    // The ratio the pad reads: its window's.
    const ratio = () => canvas.ownerDocument.defaultView!.devicePixelRatio;
    expect(ratio()).toBe(2);
    const backingMatchesCss = () => {
      const { width, height } = canvas.getBoundingClientRect();
      expect(canvas.width).toBe(Math.round(width * ratio()));
      expect(canvas.height).toBe(Math.round(height * ratio()));
    };
    // Once the pad has settled: its ResizeObserver fits it again a frame after it mounts.
    await vi.waitFor(backingMatchesCss);
    await drawStroke(canvas, scribble(0.1, 0.5));
    const before = inkPixels(pixelsOf(canvas));
    expect(before).toBeGreaterThan(0);

    const wide = canvas.getBoundingClientRect().width;
    canvas.parentElement!.style.width = '300px';
    await vi.waitFor(() => {
      expect(canvas.getBoundingClientRect().width).toBeLessThan(wide);
      backingMatchesCss();
    });
    // Redrawn from the same strokes at the same scale: the same ink, give or take anti-aliasing.
    expect(Math.abs(inkPixels(pixelsOf(canvas)) - before)).toBeLessThan(before * 0.05);
  } finally {
    vi.unstubAllGlobals();
  }
});
