import type { Context } from 'hono';
import { validationError } from '../errors.js';
import type { AppEnv } from './env.js';

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
