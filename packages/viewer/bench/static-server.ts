/**
 * The bench page's static host, run in a process of its own by `bench/viewer.ts`: `node --import tsx
 * bench/static-server.ts <dir>` listens on a free loopback port and prints it as its first line. It serves the build as a CDN would, with the gzip files written beside it at
 * build time (`precompressed`), so that serving costs no compression on the machine's two cores while the viewers
 * load: a host page's assets do not compete with the Signet API for CPU in production either.
 */
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { relative } from 'node:path';

const [directory] = process.argv.slice(2);
if (!directory) throw new Error('usage: static-server.ts <dir>');
// serveStatic resolves `root` against the working directory.
const root = relative(process.cwd(), directory) || '.';
const app = new Hono();
app.use('/*', serveStatic({ root, precompressed: true }));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, ({ port }) => console.log(port));
