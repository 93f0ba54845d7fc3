import type { Context } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';

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

/**
 * Sets a response header that every response of this request carries, whatever builds the response later (a
 * route, the error handler). On @hono/node-server it goes straight onto Node's response, which `writeHead` merges
 * with the route's own headers (the route's win): cheaper than Hono's `Headers` object on the hot path.
 * @example setFixedHeader(c, 'X-Request-Id', requestId)
 */
export function setFixedHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing) outgoing.setHeader(name, value);
  else c.header(name, value);
}
