/**
 * The server as it ships (docs/decisions.md, "The server runs built"): built with tsdown, the `signet` command line
 * runs with plain node, its PDF workers start from the built files, and `signet serve` answers and serves the embed
 * script as the source does. The build (about a second) is the run's, made once by test/support/build-once.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../src/middleware/request-context/index.js';
import { registerEmbedRoutes } from '../src/routes/embed-script.js';
import { createOpenApiApp } from '../src/routes/openapi.js';
import { SERVER_DIR, signetEntry, startServerProcess, type ServerProcess } from './hardening/server-process.js';
import { capturingLogger } from './support/harness.js';

const run = promisify(execFile);
let dir: string;
let server: ServerProcess | undefined;

/** `node dist/cli/main.js …` in the server's folder, with `env` over this process's environment. */
function signet(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, [...signetEntry(true), ...args], { cwd: SERVER_DIR, env: { ...process.env, ...env }, timeout: 60_000 });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-built-'));
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the built server', () => {
  it('builds the command line and the PDF worker as JavaScript beside each other', async () => {
    for (const file of ['cli/main.js', 'cli/start.js', 'pdf-worker/entry.js', 'pdf-worker/index.js']) {
      expect((await stat(join(SERVER_DIR, 'dist', file))).isFile()).toBe(true);
    }
  });

  it('runs `signet --help` with plain node', async () => {
    const { stdout } = await signet(['--help']);
    expect(stdout).toContain('Usage: signet');
    expect(stdout).toMatch(/serve \[options\]/);
  });

  it('seeds the demo, its PDFs inspected and drawn by workers started from the build', async () => {
    const { stdout } = await signet(['seed'], { DATABASE_URL: `file:${join(dir, 'seed.db')}` });
    expect(stdout).toMatch(/Document doc_\w+ {2}mutual-nda\.pdf \(3 pages\)/);
    expect(stdout).toMatch(/services-agreement\.pdf \(12 pages\)/);
  });

  it('serves /healthz, and /embed.js from the same embed build the source finds', async () => {
    server = await startServerProcess({ DATABASE_URL: `file:${join(dir, 'serve.db')}` }, 60_000, { built: true });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);

    const source = createOpenApiApp();
    source.use('*', requestContext({ logger: capturingLogger().logger }));
    registerEmbedRoutes(source);
    const expected = await source.request('/embed.js');
    const built = await fetch(`${server.url}/embed.js`, { redirect: 'manual' });
    expect(built.status).toBe(expected.status);
    expect(built.headers.get('location')).toBe(expected.headers.get('location'));
    expect(built.headers.get('cache-control')).toBe(expected.headers.get('cache-control'));
  });
});
