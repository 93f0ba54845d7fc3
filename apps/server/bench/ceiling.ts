import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/*
 * The ceiling: a bare Hono app on @hono/node-server answering the two benchmarked routes from memory, with no
 * middleware, authentication, storage or logging. argv[2] is a JSON file `{ document, submissionResult }`: the
 * body of one real GET /sdk/documents/{id} and a submission result. Prints `{"url": …}` on stdout.
 */
const fixture = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { document: unknown; submissionResult: unknown };

const app = new Hono();
app.get('/sdk/documents/:documentId', (c) => c.json(fixture.document));
app.post('/sdk/documents/submit', async (c) => {
  await c.req.json();
  return c.json(fixture.submissionResult, 201);
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${info.port}` })}\n`);
});
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  if ('closeAllConnections' in server) server.closeAllConnections();
});
