import { connect } from 'node:net';

/** What came back on a raw connection: the parsed answer if there was one. */
export interface RawAnswer {
  status: number | undefined;
  headers: Headers;
  text: string;
}

/** Splits the bytes of one HTTP/1.1 response (Content-Length or chunked body, or up to the close). */
function parseResponse(bytes: Buffer): RawAnswer {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return { status: undefined, headers: new Headers(), text: bytes.toString('latin1') };
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  let body = bytes.subarray(end + 4);
  if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
    const chunks: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = body.indexOf('\r\n', at);
      const size = lineEnd < 0 ? 0 : parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
      if (!size) break;
      chunks.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(chunks);
  } else if (headers.has('content-length')) {
    body = body.subarray(0, Number(headers.get('content-length')));
  }
  return { status: Number(statusLine?.split(' ')[1]) || undefined, headers, text: body.toString('utf8') };
}

/**
 * Writes `request` as it is to the server at `url` and reads the first answer until the server closes the
 * connection or `timeoutMs` passes. `then: 'half-close'` ends the writing side after the request (the client sends
 * nothing more); `then: 'destroy'` drops the connection once the request is written.
 * @example await rawExchange(url, 'POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab', { then: 'half-close' })
 */
export function rawExchange(
  url: string,
  request: string | Uint8Array,
  options: { then?: 'wait' | 'half-close' | 'destroy'; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseResponse(Buffer.concat(received)));
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 3000);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('close', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A server that answers and closes before reading everything resets the connection: what came is the answer.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish();
      else reject(error);
    });
    socket.write(request, () => {
      if (options.then === 'half-close') socket.end();
      if (options.then === 'destroy') finish();
    });
  });
}

/** A request written byte for byte, to the endpoint whose contract judges the answer. */
export interface RawCase {
  name: string;
  endpoint: 'submit' | 'validate-key' | 'create-document';
  request: string | Uint8Array;
  then?: 'wait' | 'half-close' | 'destroy';
}

/**
 * Requests that `fetch` cannot send: broken framing, a header past Node's 16 KB, raw UTF-8 and repeated key headers,
 * bodies cut short with the connection half-closed or dropped.
 * @example for (const c of rawCases(pk, sk)) await rawExchange(url, c.request, { then: c.then })
 */
export function rawCases(pk: string, sk: string): RawCase[] {
  const start = (path: string, ...headers: string[]) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}`;
  const submit = (...headers: string[]) => start('/sdk/documents/submit', 'Content-Type: application/json', ...headers);
  const upload = (...headers: string[]) => start('/documents', 'Content-Type: multipart/form-data; boundary=b', `X-API-Key: ${sk}`, ...headers);
  const part = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7\n';
  const bytes = (...pieces: Array<string | Buffer>) => Uint8Array.from(Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p))));
  return [
    { name: 'a header over 16 KB', endpoint: 'submit', request: `${submit(`X-API-Key: ${pk}`, `X-Junk: ${'a'.repeat(20_000)}`, 'Content-Length: 2')}\r\n{}` },
    { name: 'a chunk size that is not hex', endpoint: 'submit', request: `${submit(`X-API-Key: ${pk}`, 'Transfer-Encoding: chunked')}\r\nzz\r\n{}\r\n0\r\n\r\n` },
    { name: 'Content-Length and Transfer-Encoding', endpoint: 'submit', request: `${submit(`X-API-Key: ${pk}`, 'Content-Length: 2', 'Transfer-Encoding: chunked')}\r\n2\r\n{}\r\n0\r\n\r\n` },
    { name: 'two different Content-Lengths', endpoint: 'submit', request: `${submit(`X-API-Key: ${pk}`, 'Content-Length: 2', 'Content-Length: 3')}\r\n{}` },
    { name: 'a header name with a space', endpoint: 'validate-key', request: `${start('/sdk/validate-key', 'Bad Header: x')}\r\n` },
    { name: 'bare LF line ends', endpoint: 'validate-key', request: `POST /sdk/validate-key HTTP/1.1\nHost: 127.0.0.1\nX-API-Key: ${pk}\n\n` },
    { name: 'UTF-8 bytes in X-API-Key', endpoint: 'validate-key', request: bytes(start('/sdk/validate-key', 'Connection: close'), 'X-API-Key: pk_', Buffer.from('é😀'.repeat(20)), '\r\n\r\n') },
    { name: 'X-API-Key twice', endpoint: 'validate-key', request: `${start('/sdk/validate-key', 'Connection: close', `X-API-Key: ${pk}`, `X-API-Key: ${pk}`)}\r\n` },
    { name: 'UTF-8 bytes in Idempotency-Key', endpoint: 'submit', request: bytes(submit('Connection: close', `X-API-Key: ${pk}`, 'Content-Length: 2'), 'Idempotency-Key: ', Buffer.from('é'.repeat(100)), '\r\n\r\n{}') },
    { name: 'a body shorter than its Content-Length, then half-closed', endpoint: 'submit', request: `${submit(`X-API-Key: ${pk}`, 'Content-Length: 100')}\r\n{"a":1`, then: 'half-close' },
    { name: 'a chunked body cut short, then half-closed', endpoint: 'submit', request: `${submit(`X-API-Key: ${pk}`, 'Transfer-Encoding: chunked')}\r\n5\r\n{"a":`, then: 'half-close' },
    { name: 'an upload cut short, then half-closed', endpoint: 'create-document', request: `${upload('Content-Length: 5000')}\r\n${part}`, then: 'half-close' },
    { name: 'a body cut short, connection dropped', endpoint: 'submit', request: `${submit(`X-API-Key: ${pk}`, 'Content-Length: 100')}\r\n{"a":1`, then: 'destroy' },
    { name: 'an upload cut short, connection dropped', endpoint: 'create-document', request: `${upload('Content-Length: 5000')}\r\n${part}`, then: 'destroy' },
  ];
}
