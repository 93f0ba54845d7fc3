import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * The loopback receiver of the webhooks phase, in a process of its own (a core apart from the load generator): it
 * answers every POST 204 and counts requests, distinct (path, webhook-id) pairs, and when each document's
 * `document.completed` first arrived (epoch ms). `GET /stats` answers with those; `GET /arrival?documentId=` with one
 * arrival or 404. Prints `{"url": …}` on stdout once listening.
 */
const now = () => performance.timeOrigin + performance.now();
let requests = 0;
const seen = new Set<string>();
const completedAt = new Map<string, number>();

const server = createServer((request, response) => {
  if (request.method === 'GET') {
    const url = new URL(request.url ?? '/', 'http://sink');
    if (url.pathname === '/stats') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests, distinct: seen.size, completed: completedAt.size }));
      return;
    }
    const arrival = completedAt.get(url.searchParams.get('documentId') ?? '');
    if (arrival === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ arrival }));
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const at = now();
    requests++;
    seen.add(`${request.url} ${String(request.headers['webhook-id'])}`);
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { documentId?: string } };
    const documentId = event.data.documentId;
    if (event.type === 'document.completed' && documentId && !completedAt.has(documentId)) completedAt.set(documentId, at);
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
