import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from './storage/index.js';
import { seedDemo } from './documents/seed.js';
import { buildPayload } from './test-support/harness.js';

const MAIN = fileURLToPath(new URL('./cli/main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-serve-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('signet serve', () => {
  it('on SIGTERM stops taking connections, finishes the request in flight, closes storage and exits 0', async () => {
    const databaseUrl = `file:${join(dir, 'serve.db')}`;
    const storage = await openStorage(databaseUrl);
    const seeded = await seedDemo(storage);
    const document = (await storage.getDocument(seeded.documents[0]!.id))!;
    await storage.close();
    const body = JSON.stringify(await buildPayload(document));

    const child = spawn(TSX, [MAIN, 'serve', '--port', '0'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
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
        setTimeout(() => req.end(body.slice(1000)), 500);
      }, 300);
    });

    const { status, body: text } = await response;
    expect(status).toBe(201);
    expect(JSON.parse(text)).toMatchObject({ success: true, documentId: document.id });
    expect(await exited).toBe(0);
    expect(stdout).toContain('shutting down');
    expect(stdout).toContain('"msg":"stopped"');

    const after = await openStorage(databaseUrl);
    try {
      expect((await after.getDocument(document.id))?.status).toBe('completed');
    } finally {
      await after.close();
    }
  });
});
