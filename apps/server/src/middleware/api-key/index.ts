import type { Context, MiddlewareHandler } from 'hono';
import { apiKeyKind, type Scope } from '@signet/contract';
import { ApiError } from '../../errors.js';
import { hashApiKey } from '../../keys.js';
import type { AppEnv } from '../../http/env.js';
import type { AppContext } from '../../app-context.js';
import type { AuthenticatedKey } from '../../storage/types.js';
import { clientIp } from './client-ip.js';
import { requestHeader, setFixedHeader } from '../../http/request-header.js';

export interface ApiKeyOptions {
  /** Scopes the route needs (docs/api.md, "Authentication"). */
  scopes?: Scope[];
  /** Management routes: `sk_` keys only. */
  secretOnly?: boolean;
  /** Whether a session key (bound to one document) may call the route; its handler checks the document. */
  sessions?: boolean;
  /**
   * Whether a builder session key (bound to one draft) may call the route: any (`edit`), or only one that may send
   * (`send`); its handler checks the document.
   */
  builders?: 'edit' | 'send';
}

type KeyRefusal = { code: 'INVALID_API_KEY' | 'EXPIRED_API_KEY'; message: string; details?: { reason: 'voided' | 'erased' } };

/** The key of `X-API-Key`, or why it cannot be used. */
async function findUsableKey(c: Context<AppEnv>, deps: AppContext): Promise<AuthenticatedKey | KeyRefusal> {
  const secret = requestHeader(c, 'x-api-key');
  if (!secret) return { code: 'INVALID_API_KEY', message: 'Missing API key: send it in the X-API-Key header' };
  if (!apiKeyKind(secret)) return { code: 'INVALID_API_KEY', message: 'Malformed API key' };
  const key = await deps.reads.apiKey(hashApiKey(secret));
  if (!key) return { code: 'INVALID_API_KEY', message: 'Unknown API key' };
  if (key.revokedAt) return { code: 'INVALID_API_KEY', message: 'This API key has been revoked', ...(await closedDocument(deps, key)) };
  const now = deps.now ? deps.now().getTime() : Date.now();
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) {
    return { code: 'EXPIRED_API_KEY', message: `This API key expired at ${key.expiresAt}` };
  }
  return key;
}

/**
 * Why a revoked key bound to a document stopped working, when its document was voided or erased (which revoke its
 * keys): the signer's viewer then says so rather than that its link is broken (docs/lifecycle.md).
 */
async function closedDocument(deps: AppContext, key: AuthenticatedKey): Promise<Partial<KeyRefusal>> {
  if (!key.documentId) return {};
  const document = await deps.reads.document(key.documentId);
  if (!document || document.organizationId !== key.organizationId) return {};
  const reason = document.erased ? 'erased' : document.status === 'voided' ? 'voided' : null;
  return reason ? { message: `This API key was revoked: document ${document.id} has been ${reason}`, details: { reason } } : {};
}

/**
 * Who is calling: the key of `X-API-Key`, checked for form, existence, revocation and expiry, with failures
 * counted per client IP so keys cannot be guessed. Throws the 401 or 429 to send.
 */
export async function authenticate(c: Context<AppEnv>, deps: AppContext): Promise<AuthenticatedKey> {
  const ip = clientIp(c, deps.config.trustProxy) ?? 'unknown';
  const guard = await deps.rateLimits.authFailureStatus(ip);
  if (guard.blocked) {
    throw new ApiError('RATE_LIMIT_EXCEEDED', 'Too many failed authentications from this address; try again later', {
      headers: { 'Retry-After': String(guard.retryAfter) },
    });
  }
  const found = await findUsableKey(c, deps);
  if ('code' in found) {
    await deps.rateLimits.recordAuthFailure(ip);
    throw new ApiError(found.code, found.message, found.details ? { details: found.details } : {});
  }
  return found;
}

/** Counts the request against the key's window and sets the three rate-limit headers; throws the 429. */
async function applyRateLimit(c: Context<AppEnv>, deps: AppContext, key: AuthenticatedKey): Promise<void> {
  const { allowed, limit, remaining, reset, retryAfter } = await deps.rateLimits.consume(key.id, key.rateLimit);
  setFixedHeader(c, 'X-RateLimit-Limit', String(limit));
  setFixedHeader(c, 'X-RateLimit-Remaining', String(remaining));
  setFixedHeader(c, 'X-RateLimit-Reset', String(reset));
  if (!allowed) {
    throw new ApiError('RATE_LIMIT_EXCEEDED', `Rate limit of ${limit} requests per minute exceeded`, {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

/** What a key may do from where: sk keys never from a browser, pk keys only from their origins and only on /sdk. */
function authorize(c: Context<AppEnv>, key: AuthenticatedKey, options: ApiKeyOptions): void {
  const origin = requestHeader(c, 'origin');
  if (key.kind === 'sk' && origin) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'Secret (sk_) keys must not be used from a browser', {
      details: { reason: 'sk_ keys are for servers only; use a pk_ key in the browser' },
    });
  }
  if (key.builder) {
    authorizeBuilder(key, options, origin);
    return;
  }
  if (key.kind === 'pk' && options.secretOnly) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'This endpoint needs a secret (sk_) key', {
      details: { reason: 'pk_ keys reach the /sdk endpoints only', required: options.scopes ?? [] },
    });
  }
  if (key.kind === 'pk' && origin && key.allowedOrigins.length > 0 && !key.allowedOrigins.includes(origin)) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'This API key may not be used from this origin', {
      details: { reason: `origin ${origin} is not allowed for this key` },
    });
  }
  if (key.documentId && !options.sessions) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'A session key works only for its own document', {
      details: { reason: `this session key is bound to document ${key.documentId}: it reaches GET /sdk/documents/{id}, POST /sdk/documents/submit and POST /sdk/validate-key` },
    });
  }
  const missing = (options.scopes ?? []).filter((scope) => !key.scopes.includes(scope));
  if (missing.length > 0) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', `This API key lacks the scope ${missing.join(', ')}`, {
      details: { required: options.scopes, reason: `missing scope ${missing.join(', ')}` },
    });
  }
}

/**
 * A builder session key (docs/api.md, "Drafts"): only the routes that let builders in, `send` ones only when it may
 * send, and from its origins. Its handler then checks that the document is its own.
 */
function authorizeBuilder(key: AuthenticatedKey, options: ApiKeyOptions, origin: string | undefined): void {
  if (!options.builders) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'A builder session key works only for its own draft', {
      details: {
        reason: `this builder session key is bound to document ${key.documentId}: it reaches GET and PUT /documents/{id}/draft, POST /documents/{id}/send when allowed, and POST /sdk/validate-key`,
      },
    });
  }
  if (options.builders === 'send' && key.builder !== 'send') {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'This builder session key may not send the document', {
      details: { reason: 'the builder session was created without allowSend: the host sends the document itself' },
    });
  }
  if (origin && key.allowedOrigins.length > 0 && !key.allowedOrigins.includes(origin)) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'This API key may not be used from this origin', {
      details: { reason: `origin ${origin} is not allowed for this key` },
    });
  }
}

/**
 * The 403 for a session key used for another document than its own (`documentId` of the path or the payload); an
 * organization's key passes.
 */
export function assertSessionDocument(key: AuthenticatedKey, documentId: string): void {
  if (!key.documentId || key.documentId === documentId) return;
  throw new ApiError('INSUFFICIENT_PERMISSIONS', 'This session key works only for its own document', {
    details: { reason: `this session key is bound to document ${key.documentId}, not ${documentId}` },
  });
}

/**
 * Authentication, rate limit and permissions for a route, in that order (401, 429, 403).
 * @example createRoute({ …, middleware: [apiKey(deps, { scopes: ['documents:read'] })] })
 */
export function apiKey(deps: AppContext, options: ApiKeyOptions = {}): MiddlewareHandler<AppEnv> {
  return async function apiKeyMiddleware(c, next) {
    await admit(c, deps, await authenticate(c, deps), options);
    await next();
  };
}

/** What follows authentication: the key is recorded on the request, counted against its window, then checked. */
export async function admit(c: Context<AppEnv>, deps: AppContext, key: AuthenticatedKey, options: ApiKeyOptions): Promise<void> {
  c.set('apiKey', key);
  c.set('keyId', key.id);
  await applyRateLimit(c, deps, key);
  authorize(c, key, options);
}
