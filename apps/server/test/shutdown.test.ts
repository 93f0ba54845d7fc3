import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/documents/seed.js';
import { openStorage } from '../src/storage/index.js';
import { startServerProcess, type ServerProcess } from './hardening/server-process.js';

/*
 * How `signet serve` stops (docs/decisions.md, "Operations: metrics, readiness, shutdown"): a job under way at the
 * signal is given back to the queue at the shutdown limit, due at once; a second signal exits at once. The request
 * in flight and the refused connection are in `src/server.test.ts`.
 */

const TOKEN = `mt_${randomBytes(24).toString('base64url')}`;
let dir: string;
let receiver: Server;
let receiverUrl: string;
/** What the receiver does with each request: the first is answered 200, the later ones are held, unanswered. */
const held: ServerResponse[] = [];
let received = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-shutdown-'));
  receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    received++;
    if (received === 1) res.end('ok');
    else held.push(res);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  for (const res of held.splice(0)) res.destroy();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.kill9();
  server = undefined;
});

/** A seeded store, `signet serve` over it, and a webhook endpoint of the demo organization on the receiver. */
async function serving(name: string, env: Record<string, string>) {
  const databaseUrl = `file:${join(dir, `${name}.db`)}`;
  const storage = await openStorage(databaseUrl);
  const { keys } = await seedDemo(storage);
  await storage.close();
  server = await startServerProcess({ DATABASE_URL: databaseUrl, SIGNET_WEBHOOKS_ALLOW_PRIVATE: 'true', SIGNET_METRICS_TOKEN: TOKEN, PDF_WORKERS: '1', ...env });
  const sk = { 'X-API-Key': keys.sk.key, 'Content-Type': 'application/json' };
  const created = await fetch(`${server.url}/webhooks`, { method: 'POST', headers: sk, body: JSON.stringify({ url: receiverUrl, events: ['document.completed'] }) });
  expect(created.status).toBe(201);
  const { data } = (await created.json()) as { data: { id: string } };
  const test = async () => expect((await fetch(`${server!.url}/webhooks/${data.id}/test`, { method: 'POST', headers: sk })).status).toBe(202);
  return { databaseUrl, test };
}

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function deliveries(databaseUrl: string) {
  const storage = await openStorage(databaseUrl);
  try {
    return await storage.db.query
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'attempts', 'lease_owner', 'next_attempt_at'])
      .orderBy('created_at')
      .execute();
  } finally {
    await storage.close();
  }
}

const scrape = async (url: string) => (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();

describe('signet serve on SIGTERM', { timeout: 90_000 }, () => {
  it('gives a job still running at the shutdown limit back to the queue, due at once, and exits 0', async () => {
    received = 0;
    const { databaseUrl, test } = await serving('release', { SHUTDOWN_TIMEOUT_MS: '1500' });
    await test();
    await until(async () => ((await scrape(server!.url)).includes('signet_webhook_attempts_total{outcome="delivered"} 1') ? true : undefined));
    await test();
    await until(async () => (held.length === 1 ? true : undefined));
    expect((await deliveries(databaseUrl)).map((row) => row.status)).toEqual(['succeeded', 'sending']);
    const signalled = Date.now();
    expect(await server!.stop()).toBe(0);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(10_000);
    const [, given] = await deliveries(databaseUrl);
    expect(given).toMatchObject({ status: 'pending', attempts: 1, lease_owner: null });
    expect(Number(given!.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    expect(Number(given!.next_attempt_at)).toBeGreaterThanOrEqual(signalled);
    server = undefined;
  });

  it('exits at once on a second signal, without waiting for the job under way', async () => {
    received = 1;
    const { databaseUrl, test } = await serving('twice', { SHUTDOWN_TIMEOUT_MS: '30000' });
    await test();
    await until(async () => (held.length === 2 ? true : undefined));
    const running = server!;
    process.kill(running.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = Date.now();
    expect(await running.stop()).toBe(128 + 15);
    expect(Date.now() - signalled).toBeLessThan(3000);
    // Not given back: its lease runs out instead (the cost of not waiting).
    expect((await deliveries(databaseUrl)).at(-1)).toMatchObject({ status: 'sending' });
    server = undefined;
  });
});
