import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorEnvelope, Meta } from '@signet/contract';
import type { ApiError } from '../errors.js';
import type { AppEnv } from './env.js';

/** `meta` of an envelope: the request's id and the time of the response. */
export function responseMeta(c: Context<AppEnv>): Meta {
  return { requestId: c.get('requestId'), timestamp: new Date().toISOString() };
}

/**
 * A success envelope (contract §2.1) around `data`.
 * @example return sendEnvelope(c, document, 201)
 */
export function sendEnvelope<T, S extends ContentfulStatusCode>(c: Context<AppEnv>, data: T, status: S) {
  return c.json({ success: true as const, data, meta: responseMeta(c) }, status);
}

/** The error envelope for `error`, with its extra headers. The only place errors become responses. */
export function sendError(c: Context<AppEnv>, error: ApiError) {
  const body: ErrorEnvelope = {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
    meta: responseMeta(c),
  };
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(body, error.status as ContentfulStatusCode);
}
