import { SUBMISSION_LIMITS } from '@signet/contract';
import { context2d, createCanvas } from '../signature/canvas-2d.js';
import { decodeImage } from '../signature/image-ink.js';

/** The image types an image field takes from the signer (the file input's `accept`). */
export const PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** A photo is scaled down to this many pixels on its longer side: sharp on a printed page, small to send. */
const MAX_SIDE = 1600;
/** JPEG qualities tried in turn until the photo fits `SUBMISSION_LIMITS.maxImageBytes`. */
const QUALITIES = [0.85, 0.7, 0.55, 0.4];

export type PhotoError = 'unsupported-type' | 'undecodable' | 'too-large';

/**
 * A photo or scan the signer chose, ready to submit as an image field's value: decoded, scaled to at most 1600 px
 * on its longer side, on white (a transparent PNG's background), and encoded as a JPEG of the best quality that
 * fits the submission's image limit.
 * @example const result = await photoDataUrl(input.files[0]); if ('dataUrl' in result) onChange(result.dataUrl)
 */
export async function photoDataUrl(file: Blob): Promise<{ dataUrl: string } | { error: PhotoError }> {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return { error: 'unsupported-type' };
  const bitmap = await decodeImage(file);
  if (!bitmap) return { error: 'undecodable' };
  try {
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = createCanvas(bitmap.width * scale, bitmap.height * scale);
    const context = context2d(canvas);
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    for (const quality of QUALITIES) {
      const dataUrl = canvas.toDataURL('image/jpeg', quality);
      if (decodedBytes(dataUrl) <= SUBMISSION_LIMITS.maxImageBytes) return { dataUrl };
    }
    return { error: 'too-large' };
  } finally {
    bitmap.close();
  }
}

function decodedBytes(dataUrl: string): number {
  return Math.floor(((dataUrl.length - dataUrl.indexOf(',') - 1) * 3) / 4);
}
