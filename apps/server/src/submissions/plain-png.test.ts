import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { truncatedPng } from '../../test/hardening/hostile-images.js';
import { isPlainPng } from './plain-png.js';
import { makePng, pngChunk } from '../../test/submissions/test-png.js';

/** A PNG of `rows` (each a filter byte then its RGBA samples), written chunk by chunk. */
function rgbaPng(width: number, height: number, rows: Buffer, extra: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', ihdr), ...extra, pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}

const rowsOf = (width: number, height: number, filter = 0) =>
  Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([filter]), Buffer.alloc(width * 4, 0x80)])));

const canvasLike = () =>
  sharp({ create: { width: 600, height: 200, channels: 4, background: { r: 20, g: 30, b: 90, alpha: 0.6 } } }).png().toBuffer();

describe('isPlainPng', () => {
  it('takes what a canvas writes: 8-bit RGBA, not interlaced, within 2000 px', async () => {
    expect(await isPlainPng(await canvasLike())).toBe(true);
    expect(await isPlainPng(rgbaPng(3, 2, rowsOf(3, 2, 4)))).toBe(true);
    expect(await isPlainPng(makePng(480, 120, { size: 20_480 }))).toBe(true);
  });

  it('leaves to the pool what it cannot prove: deep, wide, interlaced, palette, other chunks', async () => {
    const base = sharp({ create: { width: 40, height: 10, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 1 } } });
    expect(await isPlainPng(await base.clone().toColourspace('rgb16').png().toBuffer())).toBe(false);
    expect(await isPlainPng(await base.clone().png({ progressive: true }).toBuffer())).toBe(false);
    expect(await isPlainPng(await base.clone().png({ palette: true }).toBuffer())).toBe(false);
    expect(await isPlainPng(rgbaPng(2001, 1, rowsOf(2001, 1)))).toBe(false);
    expect(await isPlainPng(rgbaPng(2, 2, rowsOf(2, 2), [pngChunk('iCCP', Buffer.from('x'))]))).toBe(false);
  });

  it('refuses to vouch for broken pixel data: truncated, a bad filter, too few rows, a wrong CRC', async () => {
    expect(await isPlainPng(await truncatedPng())).toBe(false);
    expect(await isPlainPng(rgbaPng(3, 2, rowsOf(3, 2, 5)))).toBe(false);
    expect(await isPlainPng(rgbaPng(3, 3, rowsOf(3, 2)))).toBe(false);
    const png = await canvasLike();
    const idat = png.indexOf('IDAT', 0, 'latin1');
    png[idat + 4] = png[idat + 4]! ^ 0xff;
    expect(await isPlainPng(png)).toBe(false);
  });
});
