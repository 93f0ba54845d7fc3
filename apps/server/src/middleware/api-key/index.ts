import type { Context, MiddlewareHandler } from 'hono';
import { apiKeyKind, type Scope } from '@signet/contract';
import { ApiError } from '../../errors.js';
import { hashApiKey } from '../../keys.js';
import type { AppContext, AppEnv } from '../../http/env.js';
import type { AuthenticatedKey } from '../../storage/types.js';
import { clientIp } from './client-ip.js';
import { requestHeader, setFixedHeader } from '../../http/request-header.js';

export interface ApiKeyOptions {
  /** Scopes the route needs (SPEC §2). */
  scopes?: Scope[];
  /** Management routes: `sk_` keys only. */
  secretOnly?: boolean;
}

function rateLimitHeaders(limit: number, remaining: number, reset: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(reset),
  };
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
  const refuse = async (code: 'INVALID_API_KEY' | 'EXPIRED_API_KEY', message: string): Promise<never> => {
    await deps.rateLimits.recordAuthFailure(ip);
    throw new ApiError(code, message);
  };
  const secret = requestHeader(c, 'x-api-key');
  if (!secret) return refuse('INVALID_API_KEY', 'Missing API key: send it in the X-API-Key header');
  if (!apiKeyKind(secret)) return refuse('INVALID_API_KEY', 'Malformed API key');
  const key = await deps.reads.apiKey(hashApiKey(secret));
  if (!key) return refuse('INVALID_API_KEY', 'Unknown API key');
  if (key.revokedAt) return refuse('INVALID_API_KEY', 'This API key has been revoked');
  const now = deps.now?.() ?? new Date();
  if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) {
    return refuse('EXPIRED_API_KEY', `This API key expired at ${key.expiresAt}`);
  }
  return key;
}

/** Counts the request against the key's window and sets the three rate-limit headers; throws the 429. */
export async function applyRateLimit(c: Context<AppEnv>, deps: AppContext, key: AuthenticatedKey): Promise<void> {
  const decision = await deps.rateLimits.consume(key.id, key.rateLimit);
  const headers = rateLimitHeaders(decision.limit, decision.remaining, decision.reset);
  if (!decision.allowed) {
    throw new ApiError('RATE_LIMIT_EXCEEDED', `Rate limit of ${decision.limit} requests per minute exceeded`, {
      headers: { ...headers, 'Retry-After': String(decision.retryAfter) },
    });
  }
  for (const [name, value] of Object.entries(headers)) setFixedHeader(c, name, value);
}

/** What a key may do from where: sk keys never from a browser, pk keys only from their origins and only on /sdk. */
export function authorize(c: Context<AppEnv>, key: AuthenticatedKey, options: ApiKeyOptions): void {
  const origin = requestHeader(c, 'origin');
  if (key.kind === 'sk' && origin) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'Secret (sk_) keys must not be used from a browser', {
      details: { reason: 'sk_ keys are for servers only; use a pk_ key in the browser' },
    });
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
  const missing = (options.scopes ?? []).filter((scope) => !key.scopes.includes(scope));
  if (missing.length > 0) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', `This API key lacks the scope ${missing.join(', ')}`, {
      details: { required: options.scopes, reason: `missing scope ${missing.join(', ')}` },
    });
  }
}

/**
 * Authentication, rate limit and permissions for a route, in that order (401, 429, 403).
 * @example createRoute({ …, middleware: [apiKey(deps, { scopes: ['documents:read'] })] })
 */
export function apiKey(deps: AppContext, options: ApiKeyOptions = {}): MiddlewareHandler<AppEnv> {
  return async function apiKeyMiddleware(c, next) {
    const key = await authenticate(c, deps);
    c.set('apiKey', key);
    c.set('keyId', key.id);
    await applyRateLimit(c, deps, key);
    authorize(c, key, options);
    await next();
  };
}
