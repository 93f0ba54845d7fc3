import { Buffer } from 'node:buffer';
import { ApiError } from '../errors.js';
import { BITS_PER_SAMPLE, MAX_SIDE_PX } from '../sealing/render/image-limits.js';

/**
 * The most a seal decodes of one image: at most this many pixels a side, 8 bits a sample. Wider, taller or deeper
 * images are normalised at submit (`decodeSubmittedImage`), and the seal draws the normalised copy. The seal never
 * draws more than this anyway (`fitSignatureImage`), so nothing is lost that a sealed page shows.
 */
export const SEAL_IMAGE_LIMITS = { maxSide: MAX_SIDE_PX, bitsPerSample: BITS_PER_SAMPLE } as const;

/** What `decodeSubmittedImage` takes besides the image's bytes: the value's payload path, for its 422. */
export interface ImageCheckInput {
  /** `fields[3].value.imageData` */
  field: string;
}

/** A decoded image: its size and depth as sent, and the seal's copy when it had to be normalised. */
export interface ImageCheckResult {
  width: number;
  height: number;
  bitsPerSample: number;
  /** A data URL of the normalised image (8-bit, within `SEAL_IMAGE_LIMITS.maxSide`), when the image was over them. */
  sealCopy?: string;
}

/**
 * Decodes a submitted PNG or JPEG in full, in a PDF pool worker (`pool.run('image', bytes, { field })`), so that an
 * image that would fail the seal (truncated pixel data, a broken zlib stream, a bad chunk checksum) is refused at
 * submit: a 422 `VALIDATION_ERROR` naming `field`. An image over `SEAL_IMAGE_LIMITS` is also shrunk (aspect ratio
 * kept) and brought to 8 bits a sample, and returned as `sealCopy`: PNG for a PNG (its transparency kept), JPEG for
 * a JPEG.
 * @example await decodeSubmittedImage(bytes, { field: 'fields[3].value.imageData' }) // { width: 4096, …, sealCopy }
 */
export async function decodeSubmittedImage(bytes: Uint8Array, input: ImageCheckInput): Promise<ImageCheckResult> {
  const { default: sharp } = await import('sharp');
  const refuse = (reason: string) =>
    new ApiError('VALIDATION_ERROR', `Invalid ${input.field}: ${reason}`, { status: 422, details: { field: input.field, reason } });
  // The submit rules have already bounded each side (`SUBMISSION_LIMITS.maxImageSide`); this bounds it again.
  const options = { failOn: 'error' as const, limitInputPixels: 4096 * 4096 };
  try {
    const metadata = await sharp(bytes, options).metadata();
    if (metadata.format !== 'png' && metadata.format !== 'jpeg') throw refuse('image is neither a PNG nor a JPEG');
    const width = metadata.width ?? 0;
    const height = metadata.height ?? 0;
    const bitsPerSample = metadata.depth === 'ushort' || metadata.depth === 'short' ? 16 : 8;
    const { maxSide } = SEAL_IMAGE_LIMITS;
    if (width <= maxSide && height <= maxSide && bitsPerSample <= SEAL_IMAGE_LIMITS.bitsPerSample) {
      // Decoding every pixel is what finds a broken stream: the header alone reads fine.
      await sharp(bytes, options).raw().toBuffer();
      return { width, height, bitsPerSample };
    }
    const shrunk = sharp(bytes, options).resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true }).toColourspace('srgb');
    const copy = metadata.format === 'png' ? await shrunk.png().toBuffer() : await shrunk.jpeg({ quality: 90 }).toBuffer();
    return { width, height, bitsPerSample, sealCopy: `data:image/${metadata.format};base64,${Buffer.from(copy).toString('base64')}` };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw refuse(`image could not be decoded: ${(error as Error).message.split('\n')[0]!.trim()}`);
  }
}
