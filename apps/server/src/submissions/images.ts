import { Buffer } from 'node:buffer';
import type { SubmissionPayload } from '@signet/contract';
import { ApiError } from '../errors.js';
import { PdfLimitError, type PdfPool } from '../pdf/pool/index.js';
import { isPlainPng } from './plain-png.js';

/**
 * Decodes every image of a checked submission (signature, initials, image fields) in the PDF pool, one task at a
 * time, before it is stored — except a plain PNG (`isPlainPng`: what a browser's canvas writes), proven drawable
 * without a decode: an image the seal could not draw is a 422 `VALIDATION_ERROR` naming its payload path
 * (`fields[3].value.imageData`), one over what a seal may decode comes back normalised. Nothing is decoded on the
 * event loop; a full pool is the pool's 503 (`PdfPoolBusyError`), as for an upload.
 * @returns the seal's copies by payload path, or `undefined` when no image needed one
 * @example const sealImages = await decodeImages(deps.pdfPool, payload);
 */
export async function decodeImages(pool: PdfPool, payload: SubmissionPayload): Promise<Record<string, string> | undefined> {
  const copies: Record<string, string> = {};
  for (const [index, field] of payload.fields.entries()) {
    const value = field.value;
    if (value.type !== 'signature' && value.type !== 'initials' && value.type !== 'image') continue;
    const path = `fields[${index}].value.imageData`;
    // The submit rules have checked it is a canonical base64 data URL of at most the image limit.
    const bytes = Buffer.from(value.imageData.slice(value.imageData.indexOf(',') + 1), 'base64');
    if (value.imageData.startsWith('data:image/png') && (await isPlainPng(bytes))) continue;
    try {
      const { sealCopy } = await pool.run('image', bytes, { field: path });
      if (sealCopy) copies[path] = sealCopy;
    } catch (error) {
      if (error instanceof PdfLimitError) throw overLimit(pool, path, error);
      throw error;
    }
  }
  return Object.keys(copies).length > 0 ? copies : undefined;
}

/** The 422 of an image whose decoding went past the pool's time or memory cap. */
function overLimit(pool: PdfPool, field: string, error: PdfLimitError): ApiError {
  const { taskTimeoutMs, memoryLimitMb } = pool.options;
  const reason =
    error.limit === 'time'
      ? `image could not be decoded within ${taskTimeoutMs} ms`
      : `image needs more than ${memoryLimitMb} MiB of memory to decode`;
  return new ApiError('VALIDATION_ERROR', `Invalid ${field}: ${reason}`, { status: 422, details: { field, reason } });
}
