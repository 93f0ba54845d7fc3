import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorEnvelope, Meta } from '@signet/contract';
import type { ApiError } from '../errors.js';
import type { AppEnv } from './env.js';

/** `meta` of an envelope: the request's id and the time of the response. */
/**
 * The headers every answer carries (docs/api.md, "Response headers"): no sniffing, no referrer, and not cached unless a route that may be
 * (the PDF, the reference page) says otherwise. Set by the request context, and by the refusals written before the
 * app sees a request.
 */
export const EVERY_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function responseMeta(c: Context<AppEnv>): Meta {
  return { requestId: c.get('requestId'), timestamp: new Date().toISOString() };
}

/**
 * A success envelope (docs/api.md, "Envelope") around `data`.
 * @example return sendEnvelope(c, document, 201)
 */
export function sendEnvelope<T, S extends ContentfulStatusCode>(c: Context<AppEnv>, data: T, status: S) {
  return c.json({ success: true as const, data, meta: responseMeta(c) }, status);
}

/**
 * The error envelope of `error` with `meta`: what `sendError` sends, and what the HTTP server's early
 * refusals (`early-refusal.ts`) write.
 */
export function errorEnvelope(error: ApiError, meta: Meta): ErrorEnvelope {
  return {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
    meta,
  };
}

/** The error envelope for `error`, with its extra headers. The only place errors become responses in the app. */
export function sendError(c: Context<AppEnv>, error: ApiError) {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(errorEnvelope(error, responseMeta(c)), error.status as ContentfulStatusCode);
}
