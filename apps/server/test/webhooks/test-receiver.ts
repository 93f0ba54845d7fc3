/**
 * Test support for webhooks: an HTTP receiver on loopback that keeps every request it gets (headers, body, when)
 * and answers as a test tells it to.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How a receiver answers the n-th request (0-based): a status, or a function that writes the response itself. */
export type Answer = (request: Received, n: number) => number | ((response: ServerResponse) => void);

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs` saying how many did. */
  until(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * A receiver at `http://127.0.0.1:<port>/hook` answering each request with `answer` (default 204).
 * @example const receiver = await startReceiver((_, n) => (n < 2 ? 500 : 200));
 */
export async function startReceiver(answer: Answer = () => 204): Promise<Receiver> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const reply = answer(entry, received.length);
      received.push(entry);
      for (const wake of waiters) wake();
      if (typeof reply === 'number') response.writeHead(reply, { 'content-type': 'text/plain' }).end(`answered ${reply}`);
      else reply(response);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    until(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          cleanup();
          resolve(received.slice(0, count));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
