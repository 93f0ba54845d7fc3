import { SUBMISSION_LIMITS, dataUrlByteLength } from '@signet/contract';
import { expect, test } from 'vitest';
import { findInkBounds, trimInk } from './trim-ink.js';
import { decodePng } from './test-input.js';

function canvas(width: number, height: number, paint?: (context: CanvasRenderingContext2D) => void): HTMLCanvasElement {
  const element = document.createElement('canvas');
  element.width = width;
  element.height = height;
  paint?.(element.getContext('2d')!);
  return element;
}

/** Opaque pixels of pseudo-random colours: what PNG compresses worst. */
function noise(width: number, height: number): ImageData {
  const image = new ImageData(width, height);
  let seed = 12345;
  for (let i = 0; i < image.data.length; i += 4) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    image.data[i] = seed >>> 24;
    image.data[i + 1] = (seed >>> 16) & 255;
    image.data[i + 2] = (seed >>> 8) & 255;
    image.data[i + 3] = 255;
  }
  return image;
}

test('an empty canvas, or one without size, has no ink', () => {
  expect(trimInk(canvas(300, 100))).toBeNull();
  expect(trimInk(canvas(0, 0))).toBeNull();
  expect(trimInk(new ImageData(10, 10))).toBeNull();
  // Faint specks (alpha at or under the threshold) are not ink.
  const faint = new ImageData(10, 10);
  faint.data[3] = 8;
  expect(trimInk(faint)).toBeNull();
});

test('the PNG holds just the ink with 4 px of padding', async () => {
  const source = canvas(400, 200, (context) => {
    context.fillStyle = '#14213d';
    context.fillRect(100, 50, 50, 20);
  });
  expect(findInkBounds(source.getContext('2d')!.getImageData(0, 0, 400, 200))).toEqual({ x: 100, y: 50, width: 50, height: 20 });
  const png = await decodePng(trimInk(source)!);
  expect([png.width, png.height]).toEqual([58, 28]);
  expect(findInkBounds(png)).toEqual({ x: 4, y: 4, width: 50, height: 20 });
});

test('ink at the edge keeps its padding; ImageData works as well as a canvas', async () => {
  const image = new ImageData(20, 10);
  image.data.set([0, 0, 0, 255], 0);
  const png = await decodePng(trimInk(image, { padding: 2 })!);
  expect([png.width, png.height]).toEqual([5, 5]);
  expect(png.data[(2 * 5 + 2) * 4 + 3]).toBe(255);
});

test('a side longer than the server accepts is scaled down to it', async () => {
  const long = canvas(5000, 60, (context) => context.fillRect(0, 10, 5000, 40));
  const png = await decodePng(trimInk(long)!);
  expect(png.width).toBeLessThanOrEqual(SUBMISSION_LIMITS.maxImageSide);
  expect(png.width).toBeGreaterThan(SUBMISSION_LIMITS.maxImageSide - 10);
});

test('a PNG over the byte limit is scaled down until it fits', async () => {
  const maxBytes = 40_000;
  const url = trimInk(noise(300, 300), { maxBytes })!;
  expect(dataUrlByteLength(url)).toBeLessThanOrEqual(maxBytes);
  const png = await decodePng(url);
  expect(png.width).toBeLessThan(300);
  expect(png.width).toBeGreaterThan(50);
});

test('with the default limits, the worst case fits the server', async () => {
  const url = trimInk(noise(1200, 600))!;
  expect(dataUrlByteLength(url)).toBeLessThanOrEqual(SUBMISSION_LIMITS.maxImageBytes);
  const png = await decodePng(url);
  expect(Math.max(png.width, png.height)).toBeLessThanOrEqual(SUBMISSION_LIMITS.maxImageSide);
});
