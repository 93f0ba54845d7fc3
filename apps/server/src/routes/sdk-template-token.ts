import type { Context } from 'hono';
import { TemplateIdParamsSchema } from '@signet/contract';
import { ApiError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import type { AppEnv } from '../http/env.js';
import { parseOrThrow } from '../http/validation.js';
import { FILE_VERSION, checkDocumentToken } from '../documents/token.js';
import { findTemplateById } from '../storage/queries/templates.js';
import type { TemplateRecord } from '../storage/types.js';

/**
 * The template of the path when the query's `token` grants it (the token of its `documentUrl`), as `documentByToken`
 * does for a document: a 403 for a token missing, invalid, expired, or obtained by a key since revoked, expired or
 * bound elsewhere; an unknown template gets the same 403, so that the answer reveals nothing.
 * @example const template = await templateByToken(c, deps)
 */
export async function templateByToken(c: Context<AppEnv>, deps: AppContext): Promise<TemplateRecord> {
  const { templateId } = parseOrThrow(TemplateIdParamsSchema, c.req.param());
  const template = await findTemplateById(deps.storage.db.query, templateId);
  const now = deps.now?.() ?? new Date();
  const check = template
    ? checkDocumentToken(deps.secret, c.req.query('token'), { documentId: templateId, version: FILE_VERSION, now })
    : { status: 'invalid' as const };
  let reason: string | undefined;
  if (check.status === 'valid') {
    const key = await deps.reads.apiKeyById(check.keyId);
    if (!key || key.organizationId !== template!.organizationId || (key.documentId && key.documentId !== templateId)) {
      reason = 'the document token is missing or invalid';
    } else if (key.revokedAt) reason = 'the API key that obtained the document token has been revoked';
    else if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) reason = 'the API key that obtained the document token has expired';
  } else {
    reason = check.status === 'expired' ? 'the document token has expired' : 'the document token is missing or invalid';
  }
  if (reason) throw new ApiError('INSUFFICIENT_PERMISSIONS', `Cannot open this template: ${reason}`, { details: { reason } });
  return template!;
}
