import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/env.js';
import { requestHeader } from '../../http/request-header.js';

/** Response headers a browser page may read (docs/api.md, "Browsers (CORS)"). */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
  'Idempotent-Replayed',
  'Accept-Ranges',
  'Content-Range',
  'Content-Length',
  'ETag',
  'Retry-After',
  'Content-Disposition',
].join(', ');

const ALLOWED_HEADERS = 'X-API-Key, Content-Type, Idempotency-Key, Range, If-None-Match, If-Range, If-Match';
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, OPTIONS';

/**
 * CORS for `/sdk/*`, where `pk_` keys are used from host pages of other origins (docs/api.md, "Browsers (CORS)"),
 * and for a draft's and a template's routes, which builder session keys (`pk_` keys too) use from the author's page.
 * A preflight carries no key, so it is answered for any origin; the real request then decides: its response
 * grants the origin when it is an error (the page may read why it failed) or when the route allows the caller —
 * a `pk_` key whose origins admit it (checked by `middleware/api-key`), or the token-guarded document file.
 * A success made with an `sk_` key is never granted to a browser.
 * @example app.use('/sdk/*', sdkCors())
 */
export function sdkCors(): MiddlewareHandler<AppEnv> {
  return async function sdkCorsMiddleware(c, next) {
    const origin = requestHeader(c, 'origin');
    // No Origin: not a browser (or a same-origin GET); nothing to grant.
    if (!origin) return c.req.method === 'OPTIONS' ? c.body(null, 204, { Allow: ALLOWED_METHODS }) : next();
    if (c.req.method === 'OPTIONS') {
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': '600',
        Vary: 'Origin, Access-Control-Request-Headers',
      });
    }
    await next();
    const key = c.get('apiKey');
    const grant = c.res.status >= 400 || !key || key.kind === 'pk';
    if (!c.res.headers.get('Vary')?.includes('Origin')) c.res.headers.append('Vary', 'Origin');
    if (grant) {
      c.res.headers.set('Access-Control-Allow-Origin', origin);
      c.res.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
  };
}
