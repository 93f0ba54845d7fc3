import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestContext } from '../middleware/request-context/index.js';
import { capturingLogger, createTestApp, type TestApp } from '../../test/support/harness.js';
import { registerEmbedRoutes } from './embed-script.js';
import { createOpenApiApp } from './openapi.js';

/** A build folder as `@signet/embed`'s `build` leaves it (small stand-ins for the real files). */
const SCRIPT = 'customElements.define("signet-signing-viewer", class extends HTMLElement {});\n';
const INTEGRITY = `sha384-${createHash('sha384').update(SCRIPT).digest('base64')}`;
const BUILDER = 'customElements.define("signet-builder", class extends HTMLElement {});\n';
const BUILDER_INTEGRITY = `sha384-${createHash('sha384').update(BUILDER).digest('base64')}`;
let dir: string;
/** A build of the signing viewer's script only (`vite build` without `--mode builder`). */
let viewerOnly: string;

function appServing(folder: string) {
  const app = createOpenApiApp();
  app.use('*', requestContext({ logger: capturingLogger().logger }));
  registerEmbedRoutes(app, { dir: folder });
  return app;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-embed-'));
  await writeFile(join(dir, 'embed.js'), SCRIPT);
  await writeFile(join(dir, 'pdf.worker.min.mjs'), 'self.onmessage = () => {};\n');
  await writeFile(join(dir, 'caveat-latin-400-normal.woff2'), new Uint8Array([0x77, 0x4f, 0x46, 0x32]));
  await writeFile(join(dir, 'embed.sri.json'), JSON.stringify({ version: '1.2.3', file: 'embed.js', integrity: INTEGRITY }));
  await writeFile(join(dir, 'notes.txt'), 'not part of a build');
  await writeFile(join(dir, 'builder.js'), BUILDER);
  await writeFile(join(dir, 'builder.js.map'), '{"version":3,"sources":[],"mappings":""}');
  await writeFile(join(dir, 'builder.sri.json'), JSON.stringify({ version: '1.2.3', file: 'builder.js', integrity: BUILDER_INTEGRITY }));
  viewerOnly = await mkdtemp(join(tmpdir(), 'signet-embed-viewer-only-'));
  await writeFile(join(viewerOnly, 'embed.js'), SCRIPT);
  await writeFile(join(viewerOnly, 'embed.sri.json'), JSON.stringify({ version: '1.2.3', file: 'embed.js', integrity: INTEGRITY }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(viewerOnly, { recursive: true, force: true });
});

describe('GET /embed/<version>/embed.js', () => {
  it('serves the script for any origin, cacheable for a year, with an ETag and its integrity hash', async () => {
    const response = await appServing(dir).request('/embed/1.2.3/embed.js', { headers: { Origin: 'https://host.example' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(SCRIPT);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('x-signet-integrity')).toBe(INTEGRITY);
    expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/);
  });

  it('answers a matching If-None-Match with 304', async () => {
    const app = appServing(dir);
    const etag = (await app.request('/embed/1.2.3/embed.js')).headers.get('etag')!;
    const again = await app.request('/embed/1.2.3/embed.js', { headers: { 'If-None-Match': `W/${etag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('serves the worker, the font and the integrity manifest beside it', async () => {
    const app = appServing(dir);
    const worker = await app.request('/embed/1.2.3/pdf.worker.min.mjs');
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(worker.headers.get('access-control-allow-origin')).toBe('*');
    const font = await app.request('/embed/1.2.3/caveat-latin-400-normal.woff2');
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(new Uint8Array(await font.arrayBuffer())).toEqual(new Uint8Array([0x77, 0x4f, 0x46, 0x32]));
    const manifest = await app.request('/embed/1.2.3/embed.sri.json');
    expect(await manifest.json()).toEqual({ version: '1.2.3', file: 'embed.js', integrity: INTEGRITY });
  });

  it('answers another version, a file outside the build, or a path out of the folder with the error envelope', async () => {
    const app = appServing(dir);
    for (const path of ['/embed/1.2.2/embed.js', '/embed/1.2.3/notes.txt', '/embed/1.2.3/..%2Fembed.js']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { success: boolean; error: { code: string } };
      expect(body.success).toBe(false);
      expect(body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('GET /embed/<version>/builder.js', () => {
  it('serves the builder’s own script beside embed.js, with its own integrity hash, its map and its manifest', async () => {
    const app = appServing(dir);
    const response = await app.request('/embed/1.2.3/builder.js', { headers: { Origin: 'https://host.example' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(BUILDER);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('x-signet-integrity')).toBe(BUILDER_INTEGRITY);
    const etag = response.headers.get('etag')!;
    expect(etag).not.toBe((await app.request('/embed/1.2.3/embed.js')).headers.get('etag'));
    expect((await app.request('/embed/1.2.3/builder.js', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const map = await app.request('/embed/1.2.3/builder.js.map');
    expect(map.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const manifest = await app.request('/embed/1.2.3/builder.sri.json');
    expect(await manifest.json()).toEqual({ version: '1.2.3', file: 'builder.js', integrity: BUILDER_INTEGRITY });
  });

  it('answers with the error envelope when the server’s build has no builder, and serves embed.js meanwhile', async () => {
    const app = appServing(viewerOnly);
    for (const path of ['/embed/1.2.3/builder.js', '/embed/1.2.3/builder.js.map', '/embed/1.2.3/builder.sri.json', '/builder.js']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { success: boolean; error: { code: string; message: string } };
      expect(body.success).toBe(false);
      expect(body.error.code).toBe('NOT_FOUND');
    }
    const script = await app.request('/builder.js');
    expect(((await script.json()) as { error: { message: string } }).error.message).toContain('builder script is not built');
    expect((await app.request('/embed/1.2.3/embed.js')).status).toBe(200);
  });
});

describe('GET /builder.js', () => {
  it('redirects to the current version’s builder script for five minutes', async () => {
    const response = await appServing(dir).request('/builder.js');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/embed/1.2.3/builder.js');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /embed.js', () => {
  it('redirects to the current version for five minutes (the script finds its assets beside where it ends up)', async () => {
    const response = await appServing(dir).request('/embed.js');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/embed/1.2.3/embed.js');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('says how to build the script when the server has none', async () => {
    const response = await appServing(join(dir, 'missing')).request('/embed.js');
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('pnpm --filter @signet/embed build') });
  });
});

describe('the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves the embed routes (an unknown version is a 404 envelope, built or not)', async () => {
    const response = await t.app.request('/embed/0.0.0-none/embed.js');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});
