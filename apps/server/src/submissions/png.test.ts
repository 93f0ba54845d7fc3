import { Buffer } from 'node:buffer';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inspectPngDataUrl } from './png.js';
import { dataUrlOf, makePng, pngChunk, pngDataUrl } from '../../test/submissions/test-png.js';

const limits = { maxBytes: 1024 * 1024, maxSide: 4096 };
const PREFIX = 'data:image/png;base64,';

function reasonOf(dataUrl: string): string {
  const result = inspectPngDataUrl(dataUrl, limits);
  if (result.ok) throw new Error('expected the image to be refused');
  return result.reason;
}

/** A copy of a valid PNG with `edit` applied to its bytes. */
function edited(edit: (bytes: Buffer) => Buffer | void, png = makePng(3, 2)): string {
  const bytes = Buffer.from(png);
  return dataUrlOf(edit(bytes) ?? bytes);
}

describe('inspectPngDataUrl', () => {
  it('accepts a real PNG and reports its size', () => {
    const png = makePng(300, 80);
    expect(inspectPngDataUrl(dataUrlOf(png), limits)).toEqual({ ok: true, width: 300, height: 80, bytes: png.length });
  });

  it('accepts base64 without its padding', () => {
    const dataUrl = pngDataUrl(3, 2);
    expect(dataUrl.endsWith('=')).toBe(true);
    expect(inspectPngDataUrl(dataUrl.replace(/=+$/, ''), limits).ok).toBe(true);
  });

  it('refuses anything but a base64 PNG data URL', () => {
    const base64 = makePng(2, 2).toString('base64');
    expect(reasonOf(`data:image/jpeg;base64,${base64}`)).toMatch(/data URL/);
    expect(reasonOf(`data:image/png,${base64}`)).toMatch(/data URL/);
    expect(reasonOf(base64)).toMatch(/data URL/);
  });

  it('refuses base64 that does not re-encode to itself', () => {
    const base64 = makePng(2, 2).toString('base64');
    expect(reasonOf(PREFIX + base64.slice(0, 10) + '!' + base64.slice(10))).toMatch(/base64/);
    expect(reasonOf(PREFIX + base64.slice(0, 10) + ' ' + base64.slice(10))).toMatch(/base64/);
    expect(reasonOf(`${PREFIX}${base64}\n`)).toMatch(/base64/);
    // base64url characters decode in Buffer.from but are not base64.
    expect(reasonOf(`${PREFIX}-_${base64.slice(2)}`)).toMatch(/base64/);
    // 'QR==' decodes to the same byte as 'QQ==': stray bits in the last character.
    expect(reasonOf(`${PREFIX}QR==`)).toMatch(/base64/);
    expect(reasonOf(`${PREFIX}QQ=`)).toMatch(/base64/);
    expect(reasonOf(`${PREFIX}Q`)).toMatch(/base64/);
  });

  it('refuses an empty image', () => {
    expect(reasonOf(PREFIX)).toMatch(/not a PNG/);
  });

  it('refuses a JPEG under a PNG data URL', () => {
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
      0x00, ...new Array(64).fill(0), 0xff, 0xd9,
    ]);
    expect(reasonOf(dataUrlOf(jpeg))).toBe('image is not a PNG (its signature is wrong)');
  });

  it('refuses a truncated PNG', () => {
    const png = makePng(40, 40);
    expect(reasonOf(dataUrlOf(png.subarray(0, png.length - 1)))).toBe('PNG is truncated');
    expect(reasonOf(dataUrlOf(png.subarray(0, png.length - 12)))).toBe('PNG is truncated');
    expect(reasonOf(dataUrlOf(png.subarray(0, 40)))).toBe('PNG is truncated');
    expect(reasonOf(dataUrlOf(png.subarray(0, 20)))).toBe('PNG is truncated');
    expect(reasonOf(dataUrlOf(png.subarray(0, 6)))).toMatch(/not a PNG/);
  });

  it('refuses a PNG whose first chunk is not IHDR', () => {
    const png = makePng(2, 2);
    const text = pngChunk('tEXt', Buffer.from('Comment\0hello', 'latin1'));
    const reordered = Buffer.concat([png.subarray(0, 8), text, png.subarray(8)]);
    expect(reasonOf(dataUrlOf(reordered))).toBe('PNG does not start with an IHDR chunk');
    expect(reasonOf(edited((bytes) => void bytes.writeUInt32BE(14, 8)))).toBe('PNG does not start with an IHDR chunk');
  });

  it('refuses an IHDR whose CRC is wrong', () => {
    expect(reasonOf(edited((bytes) => void (bytes[29] = bytes[29]! ^ 0xff)))).toBe('PNG header checksum is wrong');
    // Changing the width without fixing the CRC is caught too.
    expect(reasonOf(edited((bytes) => void bytes.writeUInt32BE(5, 16)))).toBe('PNG header checksum is wrong');
  });

  it('refuses an invalid IHDR', () => {
    const withHeader = (edit: (bytes: Buffer) => void) =>
      edited((bytes) => {
        edit(bytes);
        bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
      });
    expect(reasonOf(withHeader((bytes) => void (bytes[24] = 3)))).toBe('PNG header is invalid');
    expect(reasonOf(withHeader((bytes) => void (bytes[25] = 5)))).toBe('PNG header is invalid');
    expect(reasonOf(withHeader((bytes) => void (bytes[26] = 1)))).toBe('PNG header is invalid');
    expect(reasonOf(withHeader((bytes) => void (bytes[28] = 2)))).toBe('PNG header is invalid');
    expect(reasonOf(withHeader((bytes) => void bytes.writeUInt32BE(0, 16)))).toMatch(/0×2 px/);
    expect(reasonOf(withHeader((bytes) => void bytes.writeUInt32BE(0, 20)))).toMatch(/3×0 px/);
  });

  it('accepts sides of exactly 4096 px and refuses 4097', () => {
    expect(inspectPngDataUrl(pngDataUrl(4096, 1), limits)).toMatchObject({ ok: true, width: 4096, height: 1 });
    expect(inspectPngDataUrl(pngDataUrl(1, 4096), limits)).toMatchObject({ ok: true, width: 1, height: 4096 });
    expect(reasonOf(pngDataUrl(4097, 1))).toBe('image is 4097×1 px; each side must be 1 to 4096 px');
    expect(reasonOf(pngDataUrl(1, 4097))).toBe('image is 1×4097 px; each side must be 1 to 4096 px');
  });

  it('accepts exactly 1 MiB decoded and refuses one byte more', () => {
    const atLimit = makePng(8, 8, { size: limits.maxBytes });
    expect(atLimit.length).toBe(limits.maxBytes);
    expect(inspectPngDataUrl(dataUrlOf(atLimit), limits)).toMatchObject({ ok: true, bytes: limits.maxBytes });
    expect(reasonOf(pngDataUrl(8, 8, { size: limits.maxBytes + 1 }))).toBe('image is larger than 1 MiB once decoded');
    expect(reasonOf(pngDataUrl(8, 8, { size: 3 * limits.maxBytes }))).toBe('image is larger than 1 MiB once decoded');
  });

  it('uses the limits it is given', () => {
    const dataUrl = pngDataUrl(50, 10);
    expect(inspectPngDataUrl(dataUrl, { maxBytes: 20, maxSide: 4096 })).toEqual({
      ok: false,
      reason: 'image is larger than 20 bytes once decoded',
    });
    expect(inspectPngDataUrl(dataUrl, { maxBytes: limits.maxBytes, maxSide: 49 }).ok).toBe(false);
  });

  it('refuses a broken chunk chain', () => {
    const png = makePng(2, 2);
    const iend = png.subarray(png.length - 12);
    const withoutIend = png.subarray(0, png.length - 12);

    expect(reasonOf(dataUrlOf(Buffer.concat([png, Buffer.from([0])])))).toBe('PNG has data after its IEND chunk');
    expect(reasonOf(dataUrlOf(Buffer.concat([png, iend])))).toBe('PNG has data after its IEND chunk');
    expect(reasonOf(dataUrlOf(Buffer.concat([png.subarray(0, 33), iend])))).toBe('PNG has no image data');
    expect(reasonOf(dataUrlOf(Buffer.concat([withoutIend, pngChunk('IEND', Buffer.from([1]))])))).toBe(
      'PNG has a malformed IEND chunk',
    );
    const hugeLength = Buffer.from(png);
    hugeLength.writeUInt32BE(0xffffff00, 33);
    expect(reasonOf(dataUrlOf(hugeLength))).toBe('PNG is truncated');
  });
});
