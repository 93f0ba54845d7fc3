import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorEnvelope } from '@signet/contract';
import type { ApiError } from '../errors.js';
import { newId } from '../ids.js';

/** The headers every JSON response carries (SPEC §7), also on refusals written before the app sees a request. */
function envelopeHeaders(requestId: string, length: number): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'Content-Length': String(length),
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

/** The error envelope of `error` with a new request id, as text. */
function envelopeOf(error: ApiError): { requestId: string; body: string } {
  const requestId = newId('req');
  const envelope: ErrorEnvelope = {
    success: false,
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    meta: { requestId, timestamp: new Date().toISOString() },
  };
  return { requestId, body: JSON.stringify(envelope) };
}

/**
 * The answer to a request that never reached the app (a malformed request line, an unusable Host header) as a Web
 * `Response`, for @hono/node-server's error handler. Returns the request id, for the log.
 * @example const { response } = refusalResponse(validationError('Host', 'is not a valid host'))
 */
export function refusalResponse(error: ApiError): { requestId: string; response: Response } {
  const { requestId, body } = envelopeOf(error);
  const headers = { ...envelopeHeaders(requestId, Buffer.byteLength(body)), ...error.headers, Connection: 'close' };
  return { requestId, response: new Response(body, { status: error.status, headers }) };
}

/**
 * Answers with `error` through Node's response object, for what Node hands over but the app must not see (an
 * HTTP/1.1 request without `Host`, an `Expect` other than 100-continue), then closes the connection. Returns the
 * request id, for the log.
 * @example sendRefusal(response, validationError('Expect', 'only 100-continue is supported', 417))
 */
export function sendRefusal(response: ServerResponse, error: ApiError): string {
  const { requestId, body } = envelopeOf(error);
  const headers = { ...envelopeHeaders(requestId, Buffer.byteLength(body)), ...error.headers, Connection: 'close' };
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
  const { requestId, body } = envelopeOf(error);
  const headers = { ...envelopeHeaders(requestId, Buffer.byteLength(body)), ...error.headers, Connection: 'close' };
  const lines = [`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  // Destroyed once written: ending alone would leave a half-open socket that a client trickling bytes keeps open.
  socket.end(`${lines.join('\r\n')}\r\n\r\n${options.head ? '' : body}`, () => socket.destroy());
  return requestId;
}
