import type { Context } from 'hono';
import { DocumentIdParamsSchema } from '@signet/contract';
import { ApiError } from '../errors.js';
import { FILE_VERSION, checkDocumentToken } from '../documents/token.js';
import type { AppEnv } from '../http/env.js';
import type { AppContext } from '../app-context.js';
import { parseOrThrow } from '../http/validation.js';
import type { DocumentRecord } from '../storage/types.js';

/**
 * The document of the path's `documentId` when the query's `token` grants it (the token of `documentUrl`; docs/api.md, "Document tokens"):
 * the capability of the file and preview routes, which take no API key. Otherwise a 400 for a malformed id, or a
 * 403 `INSUFFICIENT_PERMISSIONS` whose `details.reason` says whether the token is missing or invalid, has expired,
 * or was obtained by a key that has since been revoked or has expired (a token lives no longer than its key; the
 * key's state is read through the read cache: at once after a revocation on this instance, within its TTL on the
 * others, see docs/decisions.md). An unknown document gets the same 403 as a bad token, so that the answer reveals
 * nothing.
 * @example const document = await documentByToken(c, deps)
 */
export async function documentByToken(c: Context<AppEnv>, deps: AppContext): Promise<DocumentRecord> {
  const { documentId } = parseOrThrow(DocumentIdParamsSchema, c.req.param());
  const document = await deps.reads.document(documentId);
  const now = deps.now?.() ?? new Date();
  const check = document
    ? checkDocumentToken(deps.secret, c.req.query('token'), { documentId, version: FILE_VERSION, now })
    : { status: 'invalid' as const };
  const reason =
    check.status === 'valid'
      ? await keyRefusal(deps, document!, check.keyId, now)
      : check.status === 'expired'
        ? 'the document token has expired'
        : 'the document token is missing or invalid';
  if (reason) throw new ApiError('INSUFFICIENT_PERMISSIONS', `Cannot open this document: ${reason}`, { details: { reason } });
  return document!;
}

/**
 * Why the key that obtained a valid token no longer grants `document`, or undefined when it still does: revoked,
 * expired, gone, or (never by the server's own tokens) of another organization or bound to another document.
 */
async function keyRefusal(deps: AppContext, document: DocumentRecord, keyId: string, now: Date): Promise<string | undefined> {
  // A voided document's URLs stop at once, whichever key obtained them (docs/lifecycle.md).
  if (document.status === 'voided') return 'the document has been voided';
  if (document.erased) return 'the document token is missing or invalid';
  const key = await deps.reads.apiKeyById(keyId);
  if (!key || key.organizationId !== document.organizationId || (key.documentId && key.documentId !== document.id)) {
    return 'the document token is missing or invalid';
  }
  if (key.revokedAt) return 'the API key that obtained the document token has been revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) return 'the API key that obtained the document token has expired';
  return undefined;
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
