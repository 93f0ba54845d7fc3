import { Buffer } from 'node:buffer';
import { crc32 } from 'node:zlib';

const DATA_URL_PREFIX = 'data:image/png;base64,';
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
const IHDR = 0x49484452;
const IDAT = 0x49444154;
const IEND = 0x49454e44;
/** The CRC of an IEND chunk never changes: it has no data. */
const IEND_CRC = 0xae426082;
/** Signature (8) + IHDR chunk (4 + 4 + 13 + 4) + IEND chunk (12). */
const SMALLEST_PNG = 8 + 25 + 12;

/** Bit depths allowed for each PNG colour type (PNG specification, table 11.1). */
const BIT_DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

export interface PngLimits {
  /** Largest decoded size, in bytes. */
  maxBytes: number;
  /** Largest width and largest height, in pixels. */
  maxSide: number;
}

export type PngInspection = { ok: true; width: number; height: number; bytes: number } | { ok: false; reason: string };

/**
 * Checks that a `data:image/png;base64,…` URL holds a real PNG within the limits: canonical base64, at most
 * `maxBytes` decoded, the PNG signature, a well-formed IHDR (its CRC included) first, sides of 1 to `maxSide` px,
 * an unbroken chain of chunks with image data, ending with IEND. Pixel data is not inflated.
 * @example
 * inspectPngDataUrl(imageData, { maxBytes: 1024 * 1024, maxSide: 4096 })
 * // { ok: true, width: 400, height: 120, bytes: 5321 } or { ok: false, reason: 'PNG is truncated' }
 */
export function inspectPngDataUrl(dataUrl: string, limits: PngLimits): PngInspection {
  if (!dataUrl.startsWith(DATA_URL_PREFIX)) return fail('must be a data URL of a base64-encoded PNG');
  const base64 = dataUrl.slice(DATA_URL_PREFIX.length);
  // Any canonical encoding of maxBytes bytes fits in this many characters; refuse longer text before decoding it.
  if (base64.length > Math.ceil(limits.maxBytes / 3) * 4) return fail(overSize(limits.maxBytes));

  const bytes = Buffer.from(base64, 'base64');
  if (!isCanonicalBase64(base64, bytes)) return fail('image data is not valid base64');
  if (bytes.length > limits.maxBytes) return fail(overSize(limits.maxBytes));
  return inspectPng(bytes, limits.maxSide);
}

/**
 * `Buffer.from` skips characters that are not base64 and ignores stray trailing bits, so the only reliable test is
 * that encoding the bytes again gives back the same text (padding may be left out).
 */
export function isCanonicalBase64(base64: string, bytes: Buffer): boolean {
  const encoded = bytes.toString('base64');
  if (base64.length === encoded.length) return base64 === encoded;
  let unpadded = encoded.length;
  while (unpadded > 0 && encoded.charCodeAt(unpadded - 1) === 0x3d /* = */) unpadded--;
  return base64.length === unpadded && encoded.startsWith(base64);
}

function inspectPng(bytes: Buffer, maxSide: number): PngInspection {
  if (bytes.length < SIGNATURE.length || SIGNATURE.some((byte, index) => bytes[index] !== byte)) {
    return fail('image is not a PNG (its signature is wrong)');
  }
  if (bytes.length < SMALLEST_PNG) return fail('PNG is truncated');
  if (bytes.readUInt32BE(8) !== 13 || bytes.readUInt32BE(12) !== IHDR) {
    return fail('PNG does not start with an IHDR chunk');
  }
  if (crc32(bytes.subarray(12, 29)) !== bytes.readUInt32BE(29)) return fail('PNG header checksum is wrong');

  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const [bitDepth, colourType, compression, filter, interlace] = bytes.subarray(24, 29);
  if (
    !BIT_DEPTHS[colourType!]?.includes(bitDepth!) ||
    compression !== 0 ||
    filter !== 0 ||
    (interlace !== 0 && interlace !== 1)
  ) {
    return fail('PNG header is invalid');
  }
  if (width < 1 || height < 1 || width > maxSide || height > maxSide) {
    return fail(`image is ${width}×${height} px; each side must be 1 to ${maxSide} px`);
  }

  const chain = checkChunkChain(bytes);
  return chain ? fail(chain) : { ok: true, width, height, bytes: bytes.length };
}

/** Walks the chunks after IHDR without reading their data: the reason the chain is broken, or null. */
function checkChunkChain(bytes: Buffer): string | null {
  let offset = 33;
  let hasImageData = false;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.readUInt32BE(offset + 4);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return 'PNG is truncated';
    if (type === IDAT) hasImageData = true;
    if (type === IEND) {
      if (length !== 0 || bytes.readUInt32BE(offset + 8) !== IEND_CRC) return 'PNG has a malformed IEND chunk';
      if (end !== bytes.length) return 'PNG has data after its IEND chunk';
      return hasImageData ? null : 'PNG has no image data';
    }
    offset = end;
  }
  return 'PNG is truncated';
}

/** The reason an image is refused for its size, with the limit in MiB when it is a whole number of them. */
export function overSize(maxBytes: number): string {
  const mib = 1024 * 1024;
  const limit = maxBytes % mib === 0 ? `${maxBytes / mib} MiB` : `${maxBytes} bytes`;
  return `image is larger than ${limit} once decoded`;
}

function fail(reason: string): PngInspection {
  return { ok: false, reason };
}
