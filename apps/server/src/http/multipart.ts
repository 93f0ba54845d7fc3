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

/** The most a JSON part sent as a file (`-F fields=@fields.json`) may hold: far more than 500 fields take. */
const MAX_JSON_PART_BYTES = 1024 * 1024;

/**
 * A part holding JSON (`fields`, `signers`), as text or as a file (curl's `-F fields=@fields.json`), or undefined:
 * a file must be UTF-8 and at most 1 MiB, else a 400 naming the part.
 */
export async function jsonPart(form: Record<string, unknown>, name: string): Promise<string | undefined> {
  const value = form[name];
  if (value === undefined || typeof value === 'string') return value;
  if (!(value instanceof File)) throw validationError(name, 'must be a text part or a JSON file');
  if (value.size > MAX_JSON_PART_BYTES) {
    throw validationError(name, `a JSON file part may hold at most ${MAX_JSON_PART_BYTES} bytes`, 413);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await value.arrayBuffer());
  } catch {
    throw validationError(name, 'a JSON file part must be UTF-8 text');
  }
}

/** A text part of a multipart form, or undefined; a file sent in its place is a 400 naming it. */
export function textPart(form: Record<string, unknown>, name: string): string | undefined {
  const value = form[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationError(name, 'must be a text part, not a file');
  return value;
}
