import { Buffer } from 'node:buffer';
import sharp from 'sharp';
import { pngChunk } from '../submissions/test-png.js';

/** The size of the attacker's truncated PNG. */
export const TRUNCATED_PNG_BYTES = 96;

/**
 * A 4096 × 4096 PNG, 16 bits a sample, with alpha, every pixel transparent: about 130 KB, within the submit limits,
 * yet 128 MiB of samples once decoded. Drawn as it is, it held the seal's only PDF worker past its time limit.
 * @example const png = await deepTransparentPng(); png.length // ≈ 130,746
 */
export async function deepTransparentPng(): Promise<Buffer> {
  const transparent = { r: 0, g: 0, b: 0, alpha: 0 };
  return sharp({ create: { width: 4096, height: 4096, channels: 4, background: transparent } }).toColourspace('rgb16').png().toBuffer();
}

/**
 * A PNG of 96 bytes whose chunks are whole (signature, IHDR, IDAT, IEND, each CRC right) but whose pixel data is
 * cut short: the start of a real image's compressed stream. Reading its chunks finds nothing wrong; only decoding
 * it does ("libpng read error"), as the seal did.
 * @example truncatedPng().length // 96
 */
export async function truncatedPng(): Promise<Buffer> {
  const noise = Buffer.alloc(64 * 64 * 3, 0);
  for (let index = 0; index < noise.length; index++) noise[index] = (index * 7919) % 251;
  const whole = await sharp(noise, { raw: { width: 64, height: 64, channels: 3 } }).png({ compressionLevel: 9 }).toBuffer();
  const header = whole.subarray(0, 33); // signature and IHDR
  const idat = firstChunk(whole, 'IDAT');
  const room = TRUNCATED_PNG_BYTES - header.length - 12 - 12;
  return Buffer.concat([header, pngChunk('IDAT', idat.subarray(0, room)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** The data of the first chunk of `type` in a PNG. */
function firstChunk(png: Buffer, type: string): Buffer {
  for (let offset = 8; offset + 8 <= png.length; ) {
    const length = png.readUInt32BE(offset);
    if (png.toString('latin1', offset + 4, offset + 8) === type) return png.subarray(offset + 8, offset + 8 + length);
    offset += 12 + length;
  }
  throw new Error(`no ${type} chunk`);
}
