import { Buffer } from 'node:buffer';
import { promisify } from 'node:util';
import { crc32, inflate, inflateSync } from 'node:zlib';
import { BITS_PER_SAMPLE, MAX_SIDE_PX } from '../sealing/render/image-limits.js';

const inflateAsync = promisify(inflate);

/** Samples a pixel has, by PNG colour type, for the colour types the fast path takes (no palette). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
/**
 * Chunks the fast path takes: the critical ones of a palette-less image, the physical size canvases write, and
 * Latin-1 text (an encoder's name), which libpng reads without ever failing the image once its CRC is right.
 */
const PLAIN_CHUNKS = new Set(['IHDR', 'IDAT', 'IEND', 'pHYs', 'tEXt']);
/** Image data up to this size inflates on the event loop (a fraction of a millisecond); larger, on libuv's threads. */
const MAX_SYNC_BYTES = 256 * 1024;
/** The largest output chunk an inflate of image data is given (larger images take several). */
const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
/** The highest PNG filter type (Paeth). */
const LAST_FILTER = 4;

/**
 * Whether `png` (whose chunk chain the submit rules have already checked) is a plain PNG the seal draws as it is,
 * proven without decoding its pixels: 8 bits a sample, no palette, not interlaced, within the seal's 2000 px a side,
 * only IHDR, IDAT, pHYs, tEXt and IEND, every chunk's CRC right, and its image data inflating (a large image on
 * libuv's threads, not the event loop; the output bounded) to exactly one filter byte of a known type and one row of
 * samples per row.
 * That is every check libpng's decoder makes that could fail on such a file, at a fraction of the cost of a decode
 * in the PDF pool, which stays for every other image: what a browser's canvas writes (nearly every signature) takes
 * this path. False means "not proven", never "broken".
 * @example if (!(await isPlainPng(bytes))) await pool.run('image', bytes, { field });
 */
export async function isPlainPng(png: Buffer): Promise<boolean> {
  if (png.length < 33) return false;
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [bitDepth, colourType, , , interlace] = png.subarray(24, 29);
  const channels = CHANNELS[colourType!];
  if (bitDepth !== BITS_PER_SAMPLE || !channels || interlace !== 0) return false;
  if (width > MAX_SIDE_PX || height > MAX_SIDE_PX) return false;

  const data: Buffer[] = [];
  for (let offset = 8; offset + 12 <= png.length; ) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (!PLAIN_CHUNKS.has(type) || end > png.length) return false;
    if (crc32(png.subarray(offset + 4, offset + 8 + length)) !== png.readUInt32BE(offset + 8 + length)) return false;
    if (type === 'IDAT') data.push(png.subarray(offset + 8, offset + 8 + length));
    if (type === 'IEND') break;
    offset = end;
  }

  const rowBytes = 1 + width * channels;
  const expected = rowBytes * height;
  let pixels: Buffer;
  try {
    // One output chunk for the whole image (up to 4 MiB): zlib's default 16 KiB chunks cost a round trip to libuv's
    // threads each, about 0.9 ms of CPU for a 600 × 200 RGBA signature against 0.12 ms in one chunk. A small image
    // (a typical signature: 480 × 120 grey, 58 KB of samples, about 0.07 ms) inflates at once, without the stream
    // machinery of an asynchronous inflate, which costs more than the inflate itself.
    const options = { maxOutputLength: expected + 1, chunkSize: Math.max(64, Math.min(expected + 1, MAX_CHUNK_BYTES)) };
    const compressed = Buffer.concat(data);
    pixels = expected <= MAX_SYNC_BYTES ? inflateSync(compressed, options) : await inflateAsync(compressed, options);
  } catch {
    return false;
  }
  if (pixels.length !== expected) return false;
  for (let row = 0; row < expected; row += rowBytes) if (pixels[row]! > LAST_FILTER) return false;
  return true;
}
