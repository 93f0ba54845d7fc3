/**
 * The container image as an operator runs it (docs/operations.md, "Container image"): built by deploy/build-image.mjs
 * with podman (no registry), then run as a container. On the embedded store, on a volume: as a user other than root,
 * healthy, serving /embed.js, and keeping its store across a new container. On PostgreSQL: a document created,
 * signed and sealed, the sealed PDF's signature checked by poppler's pdfsig.
 *
 * `pnpm test:image` (a check run before each release, not in CI: docs/releases.md); `SIGNET_IMAGE_BUILT=1` uses the
 * image already built.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPayload } from '../support/harness.js';
import { until } from '../sealing/test-seal-jobs.js';
import { TEST_DATABASE_URL } from '../storage/test-engines.js';
import { buildImage, IMAGE, podmanEnv } from '../../deploy/build-image.mjs';

const run = promisify(execFile);
const EXAMPLES = fileURLToPath(new URL('../../../../examples/', import.meta.url));
const CLI = ['/usr/local/bin/node', '/app/apps/server/dist/cli/main.js'];
const suffix = randomBytes(4).toString('hex');
const containers: string[] = [];
const volume = `signet-check-${suffix}`;
const database = `signet_image_${suffix}`;
let dir: string;

const podman = async (...args: string[]) => (await run('podman', args, { env: podmanEnv, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 })).stdout;

/** A port nothing listens on now (not port 0: the image's health check asks the port `PORT` names). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the image on the host's network with `env`; resolves once `/readyz` answers 200. */
async function start(env: Record<string, string>, options: { volume?: string } = {}) {
  const port = await freePort();
  const name = `signet-check-${suffix}-${containers.length}`;
  const envArgs = Object.entries({ HOST: '127.0.0.1', PORT: String(port), ...env }).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  await podman('run', '-d', '--name', name, '--network=host', ...(options.volume ? ['-v', `${options.volume}:/data`] : []), ...envArgs, IMAGE);
  containers.push(name);
  const url = `http://127.0.0.1:${port}`;
  const ready = async () => ((await fetch(`${url}/readyz`).then((response) => response.ok, () => false)) ? true : undefined);
  await until(ready, `${name} ready`, { seen: () => podman('logs', name).catch(String) });
  const signet = async (...args: string[]) => podman('exec', name, ...CLI, ...args);
  return { name, url, signet };
}

async function api(url: string, key: string, path: string, init: RequestInit = {}): Promise<any> {
  const headers = new Headers(init.headers);
  headers.set('X-API-Key', key);
  const response = await fetch(`${url}${path}`, { ...init, headers });
  const body = await response.json();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-image-check-'));
  if (process.env.SIGNET_IMAGE_BUILT !== '1') buildImage();
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(`CREATE DATABASE ${database}`);
  await client.end();
}, 600_000);

afterAll(async () => {
  for (const name of containers) await podman('rm', '-f', name).catch(() => {});
  await podman('volume', 'rm', '-f', volume).catch(() => {});
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await client.end();
  await rm(dir, { recursive: true, force: true });
});

describe(`the image ${IMAGE}`, { timeout: 180_000 }, () => {
  it('runs as uid 10001 on the embedded store in its volume, healthy, serving /embed.js, and keeps the store', async () => {
    const first = await start({}, { volume });
    expect((await podman('exec', first.name, '/usr/local/bin/node', '-p', 'process.getuid()')).trim()).toBe('10001');
    const seeded = JSON.parse(await first.signet('seed', '--json'));
    await podman('healthcheck', 'run', first.name);
    const embed = await fetch(`${first.url}/embed.js`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-type')).toMatch(/^text\/javascript/);
    const reference = await fetch(`${first.url}/docs/scalar.js`);
    expect(reference.status).toBe(200);
    await podman('stop', '--time', '15', first.name);
    expect(await podman('logs', first.name)).toMatch(/stopped/);

    // A new container on the same volume: the store, its keys and its documents are still there.
    const second = await start({}, { volume });
    const valid = await api(second.url, seeded.keys.sk.key, '/sdk/validate-key', { method: 'POST' });
    expect(valid).toMatchObject({ valid: true, organizationName: 'Demo Company' });
    const listed = await api(second.url, seeded.keys.sk.key, '/documents?limit=10');
    expect(listed.data.map((document: { id: string }) => document.id).sort()).toEqual(seeded.documents.map((document: { id: string }) => document.id).sort());
  });

  it('signs and seals a document on PostgreSQL: the sealed PDF verifies, and pdfsig finds its signature valid', async () => {
    const databaseUrl = new URL(TEST_DATABASE_URL);
    databaseUrl.pathname = `/${database}`;
    const server = await start({ DATABASE_URL: databaseUrl.href, SIGNET_SECRET: randomBytes(32).toString('hex') });
    const { keys } = JSON.parse(await server.signet('seed', '--json'));
    const form = new FormData();
    form.set('file', new Blob([await readFile(join(EXAMPLES, 'contract.pdf'))], { type: 'application/pdf' }), 'contract.pdf');
    form.set('fields', new Blob([await readFile(join(EXAMPLES, 'fields.json'))]));
    const { data: created } = await api(server.url, keys.sk.key, '/documents', { method: 'POST', body: form });
    const payload = await buildPayload(created);
    await api(server.url, keys.sk.key, '/sdk/documents/submit', {
      method: 'POST',
      body: JSON.stringify(payload),
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    });
    const sealing = async () => (await api(server.url, keys.sk.key, `/documents/${created.id}`)).data.sealing;
    await until(async () => {
      const state = await sealing();
      if (state.status === 'failed') throw new Error(`the seal failed: ${JSON.stringify(state)}`);
      return state.status === 'sealed' ? true : undefined;
    }, 'sealed', { timeoutMs: 90_000, seen: sealing });
    const signed = await fetch(`${server.url}/documents/${created.id}/signed.pdf`, { headers: { 'X-API-Key': keys.sk.key } });
    expect(signed.status).toBe(200);
    const bytes = new Uint8Array(await signed.arrayBuffer());
    const file = join(dir, 'signed.pdf');
    await writeFile(file, bytes);
    expect((await run('pdfsig', [file])).stdout).toContain('Signature Validation: Signature is Valid.');
    const verifyForm = new FormData();
    verifyForm.set('file', new Blob([bytes], { type: 'application/pdf' }), 'signed.pdf');
    const { data: verified } = await api(server.url, keys.sk.key, '/verify', { method: 'POST', body: verifyForm });
    expect(verified).toMatchObject({ sealed: true, intact: true, documentId: created.id });
  });
});
