import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from './storage/index.js';
import { seedDemo } from './documents/seed.js';
import { buildPayload } from '../test/support/harness.js';
import { findDocument } from './storage/queries/documents.js';

/** The built command line (made once per run by test/support/build-once.ts), as an operator runs it. */
const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-serve-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Starts `signet serve` on a free port over `databaseUrl`; resolves with its URL and the child process. */
async function serveOn(databaseUrl: string) {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+) /.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    child.on('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
  });
  return { child, url, exited };
}

describe('signet serve', { timeout: 60_000 }, () => {
  it('sends every required header over real HTTP, once, on successes and errors', async () => {
    const databaseUrl = `file:${join(dir, 'headers.db')}`;
    const storage = await openStorage(databaseUrl);
    const seeded = await seedDemo(storage);
    await storage.close();
    const { child, url, exited } = await serveOn(databaseUrl);
    try {
      const key = { 'X-API-Key': seeded.keys.pk.key, Origin: 'https://host.example' };
      const ok = await fetch(new URL(`/sdk/documents/${seeded.documents[0]!.id}`, url), { headers: key });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('X-Request-Id')).toMatch(/^req_/);
      expect(ok.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(ok.headers.get('Referrer-Policy')).toBe('no-referrer');
      expect(ok.headers.get('Cache-Control')).toBe('no-store');
      expect(ok.headers.get('Content-Type')).toBe('application/json');
      expect(ok.headers.get('X-RateLimit-Limit')).toBe('600');
      expect(ok.headers.get('X-RateLimit-Remaining')).toBe('599');
      expect(ok.headers.get('Access-Control-Allow-Origin')).toBe('https://host.example');
      const { documentUrl } = (await ok.json()) as { documentUrl: string };

      expect(documentUrl.startsWith(url.origin)).toBe(true);
      const file = await fetch(documentUrl, { headers: { Range: 'bytes=0-99' } });
      expect(file.status).toBe(206);
      expect(file.headers.get('Cache-Control')).toBe('private, max-age=300');
      expect(file.headers.get('Content-Type')).toBe('application/pdf');
      expect(file.headers.get('X-Request-Id')).toMatch(/^req_/);

      const missing = await fetch(new URL(`/sdk/documents/doc_${'Z'.repeat(24)}`, url), { headers: key });
      expect(missing.status).toBe(404);
      const body = (await missing.json()) as { meta: { requestId: string } };
      expect(missing.headers.get('X-Request-Id')).toBe(body.meta.requestId);
      expect(missing.headers.get('X-RateLimit-Remaining')).toBe('598');
      expect(missing.headers.get('Cache-Control')).toBe('no-store');
      expect(missing.headers.get('Access-Control-Allow-Origin')).toBe('https://host.example');

      // A declared body over MAX_BODY_BYTES (10 MiB) is refused from its Content-Length.
      const huge = await fetch(new URL('/sdk/documents/submit', url), {
        method: 'POST',
        headers: { 'X-API-Key': seeded.keys.pk.key, 'Content-Type': 'application/json' },
        body: `{"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`,
      });
      expect(huge.status).toBe(413);
      expect(await huge.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field: 'body' } } });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('on SIGTERM stops taking connections, finishes the request in flight, closes storage and exits 0', async () => {
    const databaseUrl = `file:${join(dir, 'serve.db')}`;
    const storage = await openStorage(databaseUrl);
    const seeded = await seedDemo(storage);
    const document = (await findDocument(storage.db.query, seeded.documents[0]!.id))!;
    await storage.close();
    const body = JSON.stringify(await buildPayload(document));

    const { child, url, exited } = await serveOn(databaseUrl);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));

    let refused: Promise<string> | undefined;
    // A submission whose body is still arriving when the signal comes.
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        new URL('/sdk/documents/submit', url),
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-API-Key': seeded.keys.pk.key },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 1000));
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => {
          // A new connection while the request is still in flight: refused, the server no longer listens.
          refused = fetch(new URL('/healthz', url)).then(
            (answer) => `answered ${answer.status}`,
            (error: { cause?: { code?: string } }) => error.cause?.code ?? 'failed',
          );
          void refused.then(() => req.end(body.slice(1000)));
        }, 500);
      }, 300);
    });

    const { status, body: text } = await response;
    expect(await refused).toBe('ECONNREFUSED');
    expect(status).toBe(201);
    expect(JSON.parse(text)).toMatchObject({ success: true, documentId: document.id });
    expect(await exited).toBe(0);
    expect(stdout).toContain('shutting down');
    expect(stdout).toContain('"msg":"stopped"');

    const after = await openStorage(databaseUrl);
    try {
      expect((await findDocument(after.db.query, document.id))?.status).toBe('completed');
    } finally {
      await after.close();
    }
  });
});
