import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { EVERY_RESPONSE_HEADERS, errorEnvelope } from './envelope.js';

/**
 * The error envelope of `error` with a new request id, as text, and its headers: those every JSON response carries
 * (docs/api.md, "Response headers"), also on refusals written before the app sees a request, the error's own, and `Connection: close`.
 */
function refusalOf(error: ApiError): { requestId: string; body: string; headers: Record<string, string> } {
  const requestId = newId('req');
  const body = JSON.stringify(errorEnvelope(error, { requestId, timestamp: new Date().toISOString() }));
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    ...EVERY_RESPONSE_HEADERS,
    ...error.headers,
    Connection: 'close',
  };
  return { requestId, body, headers };
}

/**
 * The answer to a request that never reached the app (a malformed request line, an unusable Host header) as a Web
 * `Response`, for @hono/node-server's error handler. Returns the request id, for the log.
 * @example const { response } = refusalResponse(validationError('Host', 'is not a valid host'))
 */
export function refusalResponse(error: ApiError): { requestId: string; response: Response } {
  const { requestId, body, headers } = refusalOf(error);
  return { requestId, response: new Response(body, { status: error.status, headers }) };
}

/**
 * Answers with `error` through Node's response object, for what Node hands over but the app must not see (an
 * HTTP/1.1 request without `Host`, an `Expect` other than 100-continue), then closes the connection. Returns the
 * request id, for the log.
 * @example sendRefusal(response, validationError('Expect', 'only 100-continue is supported', 417))
 */
export function sendRefusal(response: ServerResponse, error: ApiError): string {
  const { requestId, body, headers } = refusalOf(error);
  response.writeHead(error.status, headers);
  response.end(response.req.method === 'HEAD' ? undefined : body);
  return requestId;
}

/**
 * Writes `error` as a complete HTTP/1.1 response straight onto `socket`, then closes the connection: the answer
 * to what Node refuses before the app could answer (header overflow, a timeout, a parse error).
 * The envelope is left out of the answer to a HEAD request. Returns the request id, for the log.
 * @example writeRefusal(socket, validationError('headers', 'too large', 431))
 */
export function writeRefusal(socket: Duplex, error: ApiError, options: { head?: boolean } = {}): string {
  const { requestId, body, headers } = refusalOf(error);
  const lines = [`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  // Destroyed once written: ending alone would leave a half-open socket that a client trickling bytes keeps open.
  socket.end(`${lines.join('\r\n')}\r\n\r\n${options.head ? '' : body}`, () => socket.destroy());
  return requestId;
}
