import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Agent, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '@signet/contract';
import { buildPayload, capturingLogger, createTestApp, type TestApp } from '../../test/support/harness.js';
import type { DocumentRecord } from '../storage/types.js';
import { loadConfig } from '../config.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { startServer } from '../server.js';
import { startServerProcess } from '../../test/hardening/server-process.js';
import { openStorage } from '../storage/index.js';
import { createHttpServer, MAX_HEADER_BYTES, type ConnectionLimits } from './node-server.js';
import { findDocument } from '../storage/queries/documents.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

/** Short limits, so that each is seen to hold within a test's time. */
const limits: ConnectionLimits = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 2_000,
  bodyTimeoutMs: 400,
  bodyMinBytesPerSecond: 1_000,
  keepAliveTimeoutMs: 300,
};

let t: TestApp;
const serverLog = capturingLogger();
let server: Server;
let port: number;
let key: string;
let document: DocumentRecord;
beforeAll(async () => {
  t = await createTestApp(undefined, { TRUST_PROXY: 'false' });
  key = (await t.createKey()).secret;
  document = await t.createDocument({ pages: 1 });
  ({ server, port } = await listening(limits));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The test app behind Node's server with `limits`, listening on a free loopback port. */
async function listening(limits: ConnectionLimits): Promise<{ server: Server; port: number }> {
  const server = createHttpServer(t.app.fetch, { limits, logger: serverLog.logger, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

interface Exchange {
  /** Everything the server sent before it closed the connection. */
  raw: string;
  /** Milliseconds from connecting to the server's close. */
  closedAfterMs: number;
}

/** Opens a TCP connection to `port`, lets `talk` write to it, and resolves once the server has closed it. */
function exchange(port: number, talk: (socket: Socket) => Promise<void> | void): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    let talking = true;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // Writing into a connection the server has just closed; what it answered has already arrived.
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      talking = false;
      resolve({ raw, closedAfterMs: performance.now() - started });
    });
    socket.on('connect', () => {
      void Promise.resolve(talk(socket)).catch((error: unknown) => talking && reject(error as Error));
    });
  });
}

/** Writes `text` one byte every `everyMs` until the server closes the connection. */
async function trickle(socket: Socket, text: string, everyMs: number): Promise<void> {
  for (const byte of text) {
    if (socket.destroyed || !socket.writable) return;
    socket.write(byte);
    await sleep(everyMs);
  }
}

/** The status, headers and body of the one response in `raw`. */
function parse(raw: string) {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = raw.slice(0, split).split('\r\n');
  const headers = new Map(headerLines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
  }));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: raw.slice(split + 4) };
}

/** The response in `raw`, which must carry the contract's error envelope with its request id in `X-Request-Id`. */
function refusal(raw: string) {
  const { status, headers, body } = parse(raw);
  const envelope = ErrorEnvelopeSchema.parse(JSON.parse(body));
  expect(headers.get('x-request-id')).toBe(envelope.meta.requestId);
  expect(headers.get('content-type')).toBe('application/json');
  expect(headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
  expect(headers.get('connection')).toBe('close');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  return { status, headers, error: envelope.error };
}

const submitHead = (length: number) =>
  `POST /sdk/documents/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('refusals before the app, with the envelope', () => {
  it(`431 for a 16 KB header (more than ${MAX_HEADER_BYTES} bytes of request line and headers)`, async () => {
    const { raw } = await exchange(port, (s) => void s.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(16 * 1024)}\r\n\r\n`));
    const { status, error } = refusal(raw);
    expect(status).toBe(431);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'headers', reason: expect.stringContaining(String(MAX_HEADER_BYTES)) } });
  });

  it('400 for a request that is not HTTP', async () => {
    const { raw } = await exchange(port, (s) => void s.write('GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
    const { status, error } = refusal(raw);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'request' } });
  });

  it('400 for an HTTP/1.1 request without Host (HTTP/1.0 may leave it out) and for an unusable Host', async () => {
    const missing = refusal((await exchange(port, (s) => void s.write('GET /healthz HTTP/1.1\r\n\r\n'))).raw);
    expect(missing).toMatchObject({ status: 400, error: { code: 'VALIDATION_ERROR', details: { field: 'Host' } } });

    const old = parse((await exchange(port, (s) => void s.write('GET /healthz HTTP/1.0\r\n\r\n'))).raw);
    expect(old.status).toBe(200);

    const unusable = refusal((await exchange(port, (s) => void s.write('GET /healthz HTTP/1.1\r\nHost: exa mple\r\n\r\n'))).raw);
    expect(unusable).toMatchObject({ status: 400, error: { code: 'VALIDATION_ERROR', details: { field: 'request' } } });
  });

  it('417 for an Expect other than 100-continue; 405 for CONNECT', async () => {
    const expectation = refusal((await exchange(port, (s) => void s.write('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: coffee\r\n\r\n'))).raw);
    expect(expectation).toMatchObject({ status: 417, error: { code: 'VALIDATION_ERROR', details: { field: 'Expect' } } });

    const tunnel = refusal((await exchange(port, (s) => void s.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'))).raw);
    expect(tunnel).toMatchObject({ status: 405, error: { code: 'NOT_FOUND' } });
    expect(tunnel.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('connection limits', () => {
  it('408 once the headers have taken longer than headersTimeout', async () => {
    const { raw, closedAfterMs } = await exchange(port, (s) => trickle(s, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1234567890\r\n\r\n', 100));
    const { status, error } = refusal(raw);
    expect(status).toBe(408);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'request' } });
    expect(closedAfterMs).toBeLessThan(limits.headersTimeoutMs + 600);
  });

  it('408 for 300 bodies trickled at 10 bytes a second, each cut by the body check long before it could end', async () => {
    // A server of its own whose header and whole-request limits are far above the body's, so that on a machine starved
    // by other suites no connection of the 300 is cut for its headers or its whole time: each must be cut by the body
    // check, which is what this test is about.
    const { server: flood, port: floodPort } = await listening({ ...limits, headersTimeoutMs: 10_000, requestTimeoutMs: 55_000 });
    try {
      const body = JSON.stringify(await buildPayload(document));
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 300 }, () =>
          exchange(floodPort, async (s) => {
            s.write(submitHead(Buffer.byteLength(body)));
            await trickle(s, body, 100);
          }),
        ),
      );
      for (const { raw } of answers) {
        expect(refusal(raw)).toMatchObject({ status: 408, error: { code: 'VALIDATION_ERROR', details: { field: 'body' } } });
      }
      // Each is cut 400 ms after it began plus 1 ms a byte received (1,000 bytes a second): under a second here,
      // longer on a starved machine. Read to its end at 10 bytes a second, a body would take this many seconds:
      const trickledSeconds = Buffer.byteLength(body) / 10;
      expect(trickledSeconds).toBeGreaterThan(60);
      expect((performance.now() - started) / 1000).toBeLessThan(trickledSeconds / 3);
      // Each is logged once, as a refusal; the app, whose body read failed, logs no error.
      const answered = new Set(answers.map(({ raw }) => parse(raw).headers.get('x-request-id')));
      expect(serverLog.logs.filter((line) => answered.has(line.requestId as string))).toHaveLength(300);
      expect(t.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
      expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('pending');
    } finally {
      flood.closeAllConnections();
      await new Promise((resolve) => flood.close(resolve));
    }
  });

  it('closes a trickled body soon after the app has answered without it (401, no key)', async () => {
    const { raw, closedAfterMs } = await exchange(port, async (s) => {
      s.write('POST /sdk/documents/submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
      await trickle(s, '['.repeat(1000), 100);
    });
    expect(parse(raw).status).toBe(401);
    expect(closedAfterMs).toBeLessThan(1_500);
  });

  it("closes the connection after answering before the body was read, so a keep-alive client's next request is not taken for its rest", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (path: string, headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', headers, agent }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection }));
        });
        request.on('error', reject);
        request.end(body);
      });
    try {
      // 1.5 MB that the app refuses (no key) without reading: the server must not keep the connection for more.
      const early = await send('/sdk/documents/submit', { 'Content-Type': 'application/json' }, `{"pad":"${'x'.repeat(1_500_000)}"}`);
      expect(early).toEqual({ status: 401, connection: 'close' });
      const next = await send('/healthz', {});
      expect(next.status).toBe(200);
      // A body that was read keeps the connection open.
      const read = await send('/sdk/documents/submit', { 'Content-Type': 'application/json', 'X-API-Key': key }, '{}');
      expect(read).toEqual({ status: 400, connection: 'keep-alive' });
    } finally {
      agent.destroy();
    }
  });

  it('lets a body past bodyTimeout through while it arrives faster than the minimum rate', async () => {
    // The body in 20 parts 60 ms apart: about 1.2 s, three times bodyTimeout, within requestTimeout, at several
    // times the minimum rate. Padded inside a text value (an unknown member would be refused).
    const pad = (p: Record<string, any>) => {
      p.fields.find((field: { id: string }) => field.id === 'signer_name').value.content += ' x'.repeat(2_000);
    };
    const body = JSON.stringify(await buildPayload(document, undefined, pad));
    const part = Math.ceil(body.length / 20);
    expect(part / 0.06).toBeGreaterThan(limits.bodyMinBytesPerSecond * 2);
    const { raw, closedAfterMs } = await exchange(port, async (s) => {
      s.write(submitHead(Buffer.byteLength(body)));
      for (let at = 0; at < body.length; at += part) {
        await sleep(60);
        s.write(body.slice(at, at + part));
      }
      // No half-close: Node's server drops a request still being answered when its client ends the connection,
      // and the submission's images take a moment in the PDF pool. The server closes once idle (keepAliveTimeout).
    });
    expect(closedAfterMs).toBeGreaterThan(limits.bodyTimeoutMs * 2);
    const { status } = parse(raw);
    expect(status).toBe(201);
  });

  it('408 at requestTimeout for a body that keeps above the minimum rate but never ends', async () => {
    const { raw, closedAfterMs } = await exchange(port, async (s) => {
      s.write(submitHead(1_000_000));
      while (!s.destroyed && s.writable) {
        s.write('x'.repeat(300));
        await sleep(100);
      }
    });
    expect(refusal(raw)).toMatchObject({ status: 408, error: { details: { field: 'request' } } });
    expect(closedAfterMs).toBeGreaterThan(limits.requestTimeoutMs - 100);
    expect(closedAfterMs).toBeLessThan(limits.requestTimeoutMs + 600);
  });

  it('closes an idle keep-alive connection after keepAliveTimeout (plus the second Node adds to what it advertises)', async () => {
    const { raw, closedAfterMs } = await exchange(port, (s) => void s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(parse(raw).status).toBe(200);
    expect(closedAfterMs).toBeGreaterThan(limits.keepAliveTimeoutMs - 50);
    expect(closedAfterMs).toBeLessThan(limits.keepAliveTimeoutMs + 1_000 + 600);
  });
});

/** A fresh embedded store in a temporary directory, holding one organization and its pk key. */
async function storeWithKey(): Promise<{ dir: string; databaseUrl: string; liveKey: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-limits-'));
  const databaseUrl = `file:${join(dir, 'signet.db')}`;
  const storage = await openStorage(databaseUrl);
  const organization = await ensureOrganization(storage.db.query, 'acme', 'Acme');
  const { key: liveKey } = await createApiKeyRecord(storage, { organizationId: organization.id, kind: 'pk' });
  await storage.close();
  return { dir, databaseUrl, liveKey };
}

describe('startServer', () => {
  it('serves with the limits of its configuration and answers early refusals with the envelope', async () => {
    const { dir, databaseUrl, liveKey } = await storeWithKey();
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HEADERS_TIMEOUT_MS: '300',
      BODY_TIMEOUT_MS: '300',
      REQUEST_TIMEOUT_MS: '5000',
    });
    const running = await startServer({ config, logger: capturingLogger().logger });
    try {
      const livePort = Number(new URL(running.url).port);
      const big = await exchange(livePort, (s) => void s.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(16 * 1024)}\r\n\r\n`));
      expect(refusal(big.raw)).toMatchObject({ status: 431, error: { code: 'VALIDATION_ERROR', details: { field: 'headers' } } });

      const slowHeaders = await exchange(livePort, (s) => trickle(s, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 100));
      expect(refusal(slowHeaders.raw)).toMatchObject({ status: 408, error: { details: { field: 'request' } } });
      expect(slowHeaders.closedAfterMs).toBeLessThan(1_000);

      const slowBody = await exchange(livePort, async (s) => {
        s.write(`POST /sdk/documents/submit HTTP/1.1\r\nHost: x\r\nX-API-Key: ${liveKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`);
        await trickle(s, '{'.repeat(100), 100);
      });
      expect(refusal(slowBody.raw)).toMatchObject({ status: 408, error: { details: { field: 'body' } } });
      expect(slowBody.closedAfterMs).toBeLessThan(1_500);
    } finally {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('signet serve, in a process of its own', () => {
  it('lets a client still sending an unread body read its answer rather than a reset (lingering close)', async () => {
    const { dir, databaseUrl, liveKey } = await storeWithKey();
    // A server in this process shares its event loop with the client, which hides the race: a process of its own.
    const server = await startServerProcess({ DATABASE_URL: databaseUrl });
    try {
      // Over the 10 MiB body limit: refused from its Content-Length, before a byte of it is read.
      const body = `{"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`;
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await fetch(`${server.url}/sdk/documents/submit`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-API-Key': liveKey },
          body,
        });
        expect(response.status).toBe(413);
        expect(response.headers.get('connection')).toBe('close');
        expect(ErrorEnvelopeSchema.parse(await response.json()).error.details).toMatchObject({ field: 'body' });
      }
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
