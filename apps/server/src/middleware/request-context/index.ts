import type { MiddlewareHandler } from 'hono';
import { newId } from '../../ids.js';
import { EVERY_RESPONSE_HEADERS } from '../../http/envelope.js';
import { setFixedHeader } from '../../http/request-header.js';
import type { AppEnv } from '../../http/env.js';
import type { RequestActivity } from '../../app-context.js';
import type { Logger } from '../../logger.js';

export interface RequestContextOptions {
  logger: Logger;
  /** Counted up while each request is answered. */
  activity?: RequestActivity;
}

interface RequestLine {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  keyId: string | undefined;
}

/**
 * Request lines are written once the responses of the current turn of the event loop have gone out, as one batch:
 * the log never stands between a handler and its response (under load that is a fifth of the throughput).
 */
function afterResponses(logger: Logger): (line: RequestLine) => void {
  const pending: RequestLine[] = [];
  const flush = () => {
    for (const line of pending.splice(0)) logger.info(line);
  };
  return (line) => {
    if (pending.push(line) === 1) setImmediate(flush);
  };
}

/**
 * Gives every request its id (`X-Request-Id`, equal to `meta.requestId`), the security headers of docs/api.md, "Response headers" (and
 * `Cache-Control: no-store` unless the route says otherwise), and one log line when it has been answered: method,
 * path (never the query, which may hold a document token), status, duration, key id.
 * @example app.use('*', requestContext({ logger }))
 */
export function requestContext({ logger, activity }: RequestContextOptions): MiddlewareHandler<AppEnv> {
  const log = afterResponses(logger);
  return async function requestContextMiddleware(c, next) {
    const requestId = newId('req');
    const startedAt = performance.now();
    c.set('requestId', requestId);
    c.set('receivedAt', Date.now());
    setFixedHeader(c, 'X-Request-Id', requestId);
    for (const name in EVERY_RESPONSE_HEADERS) setFixedHeader(c, name, EVERY_RESPONSE_HEADERS[name]!);
    if (activity) {
      activity.inFlight++;
      activity.started = (activity.started ?? 0) + 1;
    }
    try {
      await next();
    } finally {
      if (activity) activity.inFlight--;
    }
    log({
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - startedAt) * 100) / 100,
      keyId: c.get('keyId'),
    });
  };
}
