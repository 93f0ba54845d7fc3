import { Buffer } from 'node:buffer';
import { imageSize } from 'image-size';
import { isCanonicalBase64, overSize, type PngInspection, type PngLimits } from './png.js';

const DATA_URL_PREFIX = 'data:image/jpeg;base64,';

/**
 * Checks that a `data:image/jpeg;base64,…` URL holds a JPEG within the limits (an image field's photo or scan):
 * canonical base64, at most `maxBytes` decoded, the start-of-image marker, a frame header giving sides of 1 to
 * `maxSide` px (read by `image-size`), and the end-of-image marker. Pixel data is not decoded here; the seal decodes
 * it in its worker.
 * @example inspectJpegDataUrl(imageData, { maxBytes: 1024 * 1024, maxSide: 4096 }) // { ok: true, width: 1200, … }
 */
export function inspectJpegDataUrl(dataUrl: string, limits: PngLimits): PngInspection {
  if (!dataUrl.startsWith(DATA_URL_PREFIX)) return { ok: false, reason: 'must be a data URL of a base64-encoded JPEG' };
  const base64 = dataUrl.slice(DATA_URL_PREFIX.length);
  if (base64.length > Math.ceil(limits.maxBytes / 3) * 4) return { ok: false, reason: overSize(limits.maxBytes) };
  const bytes = Buffer.from(base64, 'base64');
  if (!isCanonicalBase64(base64, bytes)) return { ok: false, reason: 'image data is not valid base64' };
  if (bytes.length > limits.maxBytes) return { ok: false, reason: overSize(limits.maxBytes) };
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return { ok: false, reason: 'image is not a JPEG (its start marker is wrong)' };
  if (bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) return { ok: false, reason: 'JPEG is truncated' };
  let size: { width: number; height: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    return { ok: false, reason: 'JPEG has no readable frame header' };
  }
  const { width, height } = size;
  if (size.type !== 'jpg' || !(width >= 1 && height >= 1)) return { ok: false, reason: 'JPEG has no readable frame header' };
  if (width > limits.maxSide || height > limits.maxSide) {
    return { ok: false, reason: `image is ${width}×${height} px; each side must be 1 to ${limits.maxSide} px` };
  }
  return { ok: true, width, height, bytes: bytes.length };
}
