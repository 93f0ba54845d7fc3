import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { tooLarge, validationError } from '../errors.js';
import type { AppEnv } from './env.js';

/**
 * The body limit of a route that takes a PDF upload: the form, with its multipart overhead, may exceed the PDF
 * limit by a little (1 MiB); the PDF itself is checked exactly by the route. Past it: 413 naming `file`.
 * @example handler(endpoints.createDocument, { after: [pdfUploadLimit(config.maxPdfBytes)], … })
 */
export function pdfUploadLimit(maxPdfBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxPdfBytes + 1024 * 1024,
    onError: () => {
      throw tooLarge('file', maxPdfBytes);
    },
  });
}

/**
 * The parts of a `multipart/form-data` body, or the 400 that names what is wrong with it (not multipart, or not
 * readable as such).
 * @example const form = await readMultipartForm(c); const file = form['file'];
 */
export async function readMultipartForm(c: Context<AppEnv>, expected: string): Promise<Record<string, string | File | (string | File)[]>> {
  if (!c.req.header('Content-Type')?.startsWith('multipart/form-data')) {
    throw validationError('body', `must be multipart/form-data with ${expected}`);
  }
  return c.req.parseBody().catch(() => {
    throw validationError('body', 'is not a readable multipart/form-data body');
  });
}
