import { expect, test } from 'vitest';
import { inkCanvasFromImageFile, removePaperBackground } from './image-ink.js';

/** An image of `paper` grey with `inkShare` of its pixels (the first ones) in `ink`. */
function sheet(paper: number, ink: [number, number, number], inkShare = 0.1, size = 100): ImageData {
  const image = new ImageData(size, 1);
  for (let x = 0; x < size; x++) {
    const colour = x < size * inkShare ? ink : [paper, paper, paper];
    image.data.set([...colour, 255], x * 4);
  }
  return image;
}

const pixel = (image: ImageData, x: number) => Array.from(image.data.slice(x * 4, x * 4 + 4));

test('white paper becomes transparent and dark ink stays as it is', () => {
  const image = sheet(255, [20, 30, 60]);
  removePaperBackground(image);
  expect(pixel(image, 0)).toEqual([20, 30, 60, 255]);
  expect(pixel(image, 50)[3]).toBe(0);
});

test('grey paper (a phone photo) and its noise go too, not only pure white', () => {
  const image = sheet(205, [30, 30, 30]);
  image.data.set([214, 209, 212, 255], 60 * 4);
  image.data.set([197, 200, 199, 255], 61 * 4);
  removePaperBackground(image);
  expect(pixel(image, 50)[3]).toBe(0);
  expect(pixel(image, 60)[3]).toBe(0);
  expect(pixel(image, 61)[3]).toBe(0);
  expect(pixel(image, 0)).toEqual([30, 30, 30, 255]);
});

test('an edge pixel between ink and paper fades and loses its pale fringe', () => {
  const image = sheet(255, [20, 20, 20]);
  image.data.set([200, 200, 200, 255], 50 * 4);
  removePaperBackground(image);
  const [r, , , alpha] = pixel(image, 50);
  expect(alpha).toBeGreaterThan(0);
  expect(alpha).toBeLessThan(255);
  expect(r).toBeLessThan(200);
});

test('a dark image is not paper and is left alone', () => {
  const image = sheet(40, [250, 250, 250]);
  const before = Array.from(image.data);
  removePaperBackground(image);
  expect(Array.from(image.data)).toEqual(before);
});

test('files that are not PNG, JPEG or WebP, or do not decode, are refused with a reason', async () => {
  expect(await inkCanvasFromImageFile(new Blob(['GIF89a'], { type: 'image/gif' }))).toEqual({ error: 'unsupported-type' });
  expect(await inkCanvasFromImageFile(new Blob(['not a png'], { type: 'image/png' }))).toEqual({ error: 'undecodable' });
  expect(await inkCanvasFromImageFile(new Blob([new Uint8Array(64)], { type: 'image/webp' }), { maxFileBytes: 32 })).toEqual({
    error: 'too-large',
  });
});

test('a large image is scaled down to fit 1200×400', async () => {
  const source = document.createElement('canvas');
  source.width = 2400;
  source.height = 600;
  const blob = await new Promise<Blob | null>((resolve) => source.toBlob(resolve, 'image/png'));
  const result = await inkCanvasFromImageFile(blob!);
  if (!('canvas' in result)) throw new Error(result.error);
  expect([result.canvas.width, result.canvas.height]).toEqual([1200, 300]);
});
