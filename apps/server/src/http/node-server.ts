import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { ApiError, validationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { refusalResponse, sendRefusal, writeRefusal } from './early-refusal.js';

/** How long a connection may take over each part of a request (docs/security.md, "Request limits"). */
export interface ConnectionLimits {
  /** The request line and headers (Node's `headersTimeout`). */
  headersTimeoutMs: number;
  /** The whole request, body included, however fast it arrives (Node's `requestTimeout`). */
  requestTimeoutMs: number;
  /** A body's first allowance; every `bodyMinBytesPerSecond` bytes received add one second to it. */
  bodyTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  /** An idle keep-alive connection between requests (Node's `keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
}

/**
 * Apache's `mod_reqtimeout` defaults for the body (20 s, then 500 bytes a second: a body trickled at 1 byte a
 * second is cut after about 20 s, a 25 MiB upload on a 1 Mbit/s line takes 3.5 minutes and passes); 20 s for the
 * headers; at most 5 minutes for a whole request, so a 25 MiB upload needs 0.7 Mbit/s; Node's 5 s keep-alive.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 300_000,
  bodyTimeoutMs: 20_000,
  bodyMinBytesPerSecond: 500,
  keepAliveTimeoutMs: 5_000,
};

/** The largest request line and headers taken (Node's default, stated so that the 431's reason can say it). */
export const MAX_HEADER_BYTES = 16 * 1024;

type Fetch = Parameters<typeof getRequestListener>[0];
type ParserError = Error & { code?: string; reason?: string };

/** What a `clientError` of Node's HTTP parser or timers is answered with. */
function clientErrorRefusal(error: ParserError, limits: ConnectionLimits): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return validationError('headers', `the request line and headers may not exceed ${MAX_HEADER_BYTES} bytes`, 431);
    case 'ERR_HTTP_REQUEST_TIMEOUT': {
      const [headers, whole] = [limits.headersTimeoutMs / 1000, limits.requestTimeoutMs / 1000];
      return validationError('request', `the headers must arrive within ${headers} s and the whole request within ${whole} s`, 408);
    }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return validationError('body', 'the chunk extensions are too large', 413);
    default:
      return validationError('request', `not a valid HTTP/1.1 request (${error.reason ?? error.code ?? error.message})`);
  }
}

/** Whether the request announces a body: only then does Node's parser expect one (RFC 9112 §6.3). */
function announcesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** How long a connection answered before its body was read keeps reading (and dropping) that body before it closes. */
const LINGER_MS = 2_000;

/**
 * Answers `Connection: close` when the response starts before the request's body has been read (a 401, 413 or 415
 * sent without reading an upload): the unread rest of the body would otherwise be taken for the next request on the
 * connection, and a keep-alive client's next request would be lost with it. The connection then closes the way
 * RFC 9112 §9.6 advises (a "lingering close"): the response is sent and the sending side shut, but the body still
 * arriving is read and dropped for up to `LINGER_MS`, so that a client still sending it reads its answer instead of
 * a connection reset.
 */
function closeIfAnsweredEarly(request: IncomingMessage, response: ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!request.complete) {
      this.shouldKeepAlive = false;
      lingerOnClose(request);
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/** Replaces the socket's close after the last response (Node calls `destroySoon`) with a lingering close. */
function lingerOnClose(request: IncomingMessage): void {
  const socket = request.socket as IncomingMessage['socket'] & { destroySoon?: () => void };
  socket.destroySoon = () => {
    socket.end();
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    request.once('end', close);
    request.once('error', close);
    request.resume();
  };
}

/**
 * Refuses, with a 408, a body that arrives slower than the limits allow: `bodyTimeoutMs` from the end of the
 * headers, plus a second for every `bodyMinBytesPerSecond` bytes received (Apache's `MinRate`). Node's own
 * `requestTimeout` is a fixed time whatever the rate, which cannot both cut a trickle early and let a large upload
 * on a slow line finish. Returns what starts watching a request that announces a body; a body the parser has
 * wholly read, or whose response has gone out, is no longer watched.
 */
function watchBodyRates(
  server: Server,
  limits: ConnectionLimits,
  refuse: (socket: Duplex, error: ApiError) => void,
  intervalMs: number,
): (request: IncomingMessage, response: ServerResponse) => void {
  const bodies = new Map<IncomingMessage, { since: number; bytesAtStart: number }>();
  const rate = limits.bodyMinBytesPerSecond;
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [request, start] of bodies) {
      if (request.complete) {
        bodies.delete(request);
        continue;
      }
      const received = request.socket.bytesRead - start.bytesAtStart;
      if (now - start.since <= limits.bodyTimeoutMs + (received / rate) * 1000) continue;
      bodies.delete(request);
      const reason = `the body must arrive at ${rate} bytes a second or faster (after the first ${limits.bodyTimeoutMs / 1000} s)`;
      refuse(request.socket, validationError('body', reason, 408));
    }
  }, intervalMs);
  timer.unref();
  server.once('close', () => clearInterval(timer));
  return (request, response) => {
    bodies.set(request, { since: Date.now(), bytesAtStart: request.socket.bytesRead });
    const forget = () => bodies.delete(request);
    response.once('finish', forget);
    response.once('close', forget);
  };
}

/**
 * Node's HTTP server around the app's `fetch` (as @hono/node-server's `serve` builds it) with the connection
 * limits, and every refusal made before the app sees a request answered with the error envelope where HTTP allows
 * a body: header overflow (431), timeouts and slow bodies (408), malformed requests and a missing or unusable
 * `Host` (400), an unsupported `Expect` (417), `CONNECT` (405). Not listening yet.
 * `hostname` stands in for the `Host` of an HTTP/1.0 request without one.
 * @example const server = createHttpServer(app.fetch, { limits, logger, hostname: '127.0.0.1' }); server.listen(3000)
 */
export function createHttpServer(
  fetch: Fetch,
  { limits, logger, hostname }: { limits: ConnectionLimits; logger: Logger; hostname: string },
): Server {
  const log = (requestId: string, error: ApiError, cause?: string) =>
    logger.info({ requestId, status: error.status, cause }, 'request refused by the HTTP server');

  const listener = getRequestListener(fetch, {
    hostname,
    errorHandler: (error) => {
      const refusal = error instanceof RequestError
        ? validationError('request', error.message)
        : new ApiError('INTERNAL_ERROR', 'Internal server error');
      if (refusal.status >= 500) logger.error({ err: error }, 'the request could not be handed to the app');
      const { requestId, response } = refusalResponse(refusal);
      log(requestId, refusal, error instanceof RequestError ? error.message : undefined);
      return response;
    },
  });
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs, limits.bodyTimeoutMs);
  // Node looks for expired requests on this period (30 s by default): a tenth of the shortest limit, at most 1 s.
  const checkEveryMs = Math.max(10, Math.min(1000, Math.floor(shortest / 10)));
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkEveryMs,
      maxHeaderSize: MAX_HEADER_BYTES,
      // Checked below instead, to answer with the envelope (Node's own 400 has no body).
      requireHostHeader: false,
    },
    (request, response) => {
      if (request.httpVersion === '1.1' && request.headers.host === undefined) {
        const refusal = validationError('Host', 'an HTTP/1.1 request must send a Host header');
        log(sendRefusal(response, refusal), refusal);
        return;
      }
      if (announcesBody(request)) {
        closeIfAnsweredEarly(request, response);
        watchBody(request, response);
      }
      void listener(request, response);
    },
  );

  const refuse = (socket: Duplex, refusal: ApiError, cause?: string) => {
    // The same care as Node's default handler: never write into a response that has begun.
    const inFlight = (socket as { _httpMessage?: ServerResponse })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    log(writeRefusal(socket, refusal, { head: inFlight?.req.method === 'HEAD' }), refusal, cause);
  };
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    if (error.code === 'ECONNRESET') socket.destroy();
    else refuse(socket, clientErrorRefusal(error, limits), error.code);
  });
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const refusal = validationError('Expect', 'only 100-continue is supported', 417);
    log(sendRefusal(response, refusal), refusal);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    refuse(socket, new ApiError('NOT_FOUND', 'Method CONNECT is not allowed: this is not a proxy', {
      status: 405,
      details: { reason: 'allowed: GET, HEAD, POST, OPTIONS' },
      headers: { Allow: 'GET, HEAD, POST, OPTIONS' },
    }));
  });
  const watchBody = watchBodyRates(server, limits, refuse, checkEveryMs);
  return server;
}
