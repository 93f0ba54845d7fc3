import { Buffer } from 'node:buffer';
import { crc32, deflateSync } from 'node:zlib';

/** Test helpers: real PNG files built from raw scanlines, for signatures and initials in tests. */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DATA_URL_PREFIX = 'data:image/png;base64,';

export interface MakePngOptions {
  /**
   * Pads the file with a `tEXt` chunk so that it is exactly this many bytes long (it must leave room for the
   * chunk's 12 bytes of framing and its keyword).
   */
  size?: number;
}

/**
 * One PNG chunk: length, type, data and the CRC of type and data.
 * @example pngChunk('IEND', Buffer.alloc(0))
 */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const chunk = Buffer.alloc(typeAndData.length + 8);
  chunk.writeUInt32BE(data.length, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typeAndData), chunk.length - 4);
  return chunk;
}

/**
 * A valid 8-bit greyscale PNG of `width` × `height` pixels (a diagonal gradient), deflated with `node:zlib`.
 * @example
 * makePng(200, 60) // Buffer starting 89 50 4E 47 …
 * makePng(1, 1, { size: 1024 * 1024 + 1 }) // one byte over the submission limit
 */
export function makePng(width: number, height: number, options: MakePngOptions = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: greyscale
  const stride = width + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    // Each scanline starts with its filter type, 0 (none).
    for (let x = 0; x < width; x++) raw[y * stride + 1 + x] = (x + y) & 0xff;
  }
  const chunks = [
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ];
  if (options.size === undefined) return Buffer.concat(chunks);

  const keyword = Buffer.from('Comment\0', 'latin1');
  const unpadded = chunks.reduce((total, chunk) => total + chunk.length, 0);
  const fill = options.size - unpadded - 12 - keyword.length;
  if (fill < 0) throw new RangeError(`a ${width}×${height} PNG cannot be as small as ${options.size} bytes`);
  const text = pngChunk('tEXt', Buffer.concat([keyword, Buffer.alloc(fill, 0x61)]));
  return Buffer.concat([chunks[0]!, chunks[1]!, text, chunks[2]!, chunks[3]!]);
}

/**
 * `bytes` as a `data:image/png;base64,…` URL, whatever they hold (handy for a JPEG posing as a PNG).
 * @example dataUrlOf(makePng(4, 4))
 */
export function dataUrlOf(bytes: Uint8Array): string {
  return DATA_URL_PREFIX + Buffer.from(bytes).toString('base64');
}

/**
 * A data URL of a valid PNG, as a signature or initials value carries it.
 * @example { type: 'signature', imageData: pngDataUrl(300, 80) }
 */
export function pngDataUrl(width = 2, height = 2, options: MakePngOptions = {}): string {
  return dataUrlOf(makePng(width, height, options));
}
