import type { Context } from 'hono';
import { DocumentIdParamsSchema } from '@signet/contract';
import { ApiError } from '../errors.js';
import { checkDocumentToken } from '../documents/token.js';
import type { AppContext, AppEnv } from '../http/env.js';
import { parseOrThrow } from '../http/validation.js';
import type { DocumentRecord } from '../storage/types.js';

/**
 * The document of the path's `documentId` when the query's `token` grants it (the token of `documentUrl`, SPEC §4):
 * the capability of the file and preview routes, which take no API key. Otherwise a 400 for a malformed id, or a
 * 403 `INSUFFICIENT_PERMISSIONS` whose `details.reason` says whether the token is missing or invalid or has expired;
 * an unknown document gets the same 403 as a bad token, so that the answer reveals nothing.
 * @example const document = await documentByToken(c, deps)
 */
export async function documentByToken(c: Context<AppEnv>, deps: AppContext): Promise<DocumentRecord> {
  const { documentId } = parseOrThrow(DocumentIdParamsSchema, c.req.param());
  const document = await deps.reads.document(documentId);
  const check = document
    ? checkDocumentToken(deps.secret, c.req.query('token'), {
        documentId,
        version: document.version,
        now: deps.now?.() ?? new Date(),
      })
    : 'invalid';
  if (!document || check !== 'valid') {
    const reason = check === 'expired' ? 'the document token has expired' : 'the document token is missing or invalid';
    throw new ApiError('INSUFFICIENT_PERMISSIONS', `Cannot open this document: ${reason}`, { details: { reason } });
  }
  return document;
}

/**
 * The caching headers of a response granted by a document token: its `etag`, cacheable for 5 minutes by the
 * browser alone, and varying by `Origin` (the response is granted to the requesting origin, so a cached copy must
 * not serve another).
 * @example cacheForTokenHolder(c, `"${document.sha256}"`)
 */
export function cacheForTokenHolder(c: Context<AppEnv>, etag: string): void {
  c.header('ETag', etag);
  c.header('Cache-Control', 'private, max-age=300');
  c.header('Vary', 'Origin');
}
