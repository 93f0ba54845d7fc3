import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * A request header, read from Node's own parsed headers when the app runs on @hono/node-server. `c.req.header()`
 * would first build a Web `Headers` object of every header, validating each, which is a measurable share of the
 * hot SDK requests. In-process calls (`app.request` in tests) have no Node request and use `c.req.header()`.
 * @example const key = requestHeader(c, 'x-api-key')
 */
export function requestHeader(c: Context, lowercaseName: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return c.req.header(lowercaseName);
  const value = incoming.headers[lowercaseName];
  return Array.isArray(value) ? value.join(', ') : value;
}
