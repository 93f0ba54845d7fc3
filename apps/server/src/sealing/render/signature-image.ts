import sharp from 'sharp';
import { SealError } from '../errors.js';

import { MAX_SIDE_PX } from './image-limits.js';

export { MAX_SIDE_PX } from './image-limits.js';
/** Pixels per point of the field's box that are worth keeping: 4 is 288 dpi, sharper than any print. */
const PX_PER_POINT = 4;

/**
 * A signature or initials PNG (a data URL) decoded and shrunk to what its box can show, so a 6000 × 6000 image does
 * not cost the seal hundreds of megabytes when the PDF library decodes it: at most 4 pixels per point of the box,
 * and 2000 pixels a side, aspect ratio kept; re-encoded as an 8-bit PNG.
 * @example const png = await fitSignatureImage(value.imageData, { width: 200, height: 50 })
 */
export async function fitSignatureImage(dataUrl: string, box: { width: number; height: number }): Promise<Uint8Array> {
  const comma = dataUrl.indexOf(',');
  const bytes = Buffer.from(dataUrl.slice(comma + 1), 'base64');
  try {
    return await sharp(bytes, { failOn: 'error' })
      .resize({
        width: Math.min(MAX_SIDE_PX, Math.ceil(box.width * PX_PER_POINT)),
        height: Math.min(MAX_SIDE_PX, Math.ceil(box.height * PX_PER_POINT)),
        fit: 'inside',
        withoutEnlargement: true,
      })
      .png()
      .toBuffer();
  } catch (error) {
    throw new SealError(`a signature image could not be decoded: ${(error as Error).message}`, { retryable: false, cause: error });
  }
}
