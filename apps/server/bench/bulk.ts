import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { generateSamplePdf, sampleLeaseFields } from '../src/pdf/sample.js';
import { startBenchServer } from './child.js';
import { createFixtures } from './fixtures.js';
import { runPhase } from './load.js';

/*
 * The `bulk` phase of `pnpm bench:server` (docs/templates.md, "Bulk"): one bulk job of BENCH_BULK_ROWS documents
 * (10,000; 200 in smoke mode) from a 3-page two-role template, on the embedded store and on a PostgreSQL database
 * of its own (created on BENCH_POSTGRES_URL's server and dropped after). It prints the documents made a second, and
 * the GET throughput (`GET /sdk/documents/{id}`, as the `get` phase) while the job runs against the same GET on the
 * idle server just before, in the same run, as a ratio. Printed, never asserted.
 */

export interface BulkSettings {
  rows: number;
  connections: number;
  /** Seconds of each GET load (idle, then during the job). */
  duration: number;
  keep: boolean;
}

export interface BulkOutcome {
  engine: 'sqlite' | 'postgres';
  rows: number;
  created: number;
  failed: number;
  seconds: number;
  idleGet: number;
  busyGet: number;
  /** Whether the job still ran when the GET load during it ended (else the ratio includes idle time). */
  ranThroughout: boolean;
}

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** The two roles of the benchmarks' template (a lease). */
export const ROLES = [
  { id: 'tenant', name: 'Tenant', order: 1 },
  { id: 'landlord', name: 'Landlord', order: 2 },
];

/** The JSON body of `response`, which must have `status`; else an error naming `what`. */
export async function expectJson(response: Response, status: number, what: string): Promise<any> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function measureOn(engine: BulkOutcome['engine'], databaseUrl: string | undefined, settings: BulkSettings, appDir: string): Promise<BulkOutcome> {
  const fixtures = await createFixtures(1, databaseUrl);
  const server = await startBenchServer(appDir, fixtures.databaseUrl, join(fixtures.dir, 'server.log'), { SIGNET_SECRET: randomBytes(32).toString('hex') });
  try {
    const sk = { 'X-API-Key': fixtures.uploadKey };
    const form = new FormData();
    form.set('file', new File([(await generateSamplePdf({ pages: 3 })) as Uint8Array<ArrayBuffer>], 'lease.pdf', { type: 'application/pdf' }));
    form.set('fields', JSON.stringify(sampleLeaseFields(3)));
    form.set('roles', JSON.stringify(ROLES));
    const template = (await expectJson(await fetch(`${server.url}/templates`, { method: 'POST', headers: sk, body: form }), 201, 'template')).data;
    const get = (name: string) =>
      runPhase({
        name,
        url: server.url,
        serverPid: server.pid,
        method: 'GET',
        path: `/sdk/documents/${fixtures.getDocumentId}`,
        headers: { 'X-API-Key': fixtures.apiKey },
        connections: settings.connections,
        duration: settings.duration,
        warmup: 0,
      });
    const idle = await get('GET, idle');
    const signers = [
      { role: 'tenant', name: 'Tina Tenant', email: 'tina@example.com' },
      { role: 'landlord', name: 'Lars Landlord' },
    ];
    const rows = Array.from({ length: settings.rows }, (_, index) => ({ key: `bench-${index}`, signers, values: { agreement_number: { type: 'text', content: `AGR-${index}` } } }));
    const started = performance.now();
    const job = (
      await expectJson(
        await fetch(`${server.url}/templates/${template.id}/bulk`, { method: 'POST', headers: { ...sk, 'Content-Type': 'application/json' }, body: JSON.stringify({ rows }) }),
        202,
        'bulk request',
      )
    ).data;
    const busy = await get('GET, during the bulk job');
    const status = async () => (await expectJson(await fetch(`${server.url}/bulk-jobs/${job.id}`, { headers: sk }), 200, 'bulk job')).data;
    let now = await status();
    const ranThroughout = now.status !== 'completed';
    while (now.status !== 'completed') {
      // Seldom: each look is a request, which the job yields to.
      await new Promise((resolve) => setTimeout(resolve, 500));
      now = await status();
    }
    const seconds = (Date.parse(now.completedAt) - Date.parse(job.createdAt)) / 1000 || (performance.now() - started) / 1000;
    return { engine, rows: settings.rows, created: now.created, failed: now.failed, seconds, idleGet: idle.requestsPerSecond, busyGet: busy.requestsPerSecond, ranThroughout };
  } finally {
    await server.stop();
    if (!settings.keep) rmSync(fixtures.dir, { recursive: true, force: true });
  }
}

/**
 * Runs the phase on both engines (PostgreSQL where BENCH_POSTGRES_URL's server answers).
 * @example printBulk(await measureBulk({ rows: 10_000, connections: 50, duration: 5, keep: false }, appDir))
 */
export async function measureBulk(settings: BulkSettings, appDir: string): Promise<BulkOutcome[]> {
  const outcomes = [await measureOn('sqlite', undefined, settings, appDir)];
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_URL;
  const database = `signet_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    outcomes.push(await measureOn('postgres', url.toString(), settings, appDir));
  } finally {
    if (!settings.keep) await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
  return outcomes;
}

export function printBulk(outcomes: BulkOutcome[]): void {
  const lines = ['bulk creation from a 3-page template (one job; GET /sdk/documents/{id} idle, then during the job)'];
  for (const o of outcomes) {
    lines.push(
      `  ${o.engine.padEnd(8)} ${o.created}/${o.rows} created (${o.failed} failed) in ${o.seconds.toFixed(1)} s: ${(o.created / o.seconds).toFixed(0)} documents/s` +
        `   GET idle ${o.idleGet.toFixed(0)}/s, during ${o.busyGet.toFixed(0)}/s: ratio ${(o.busyGet / o.idleGet).toFixed(2)} (target ≥ 0.7)` +
        (o.ranThroughout ? '' : '   (the job ended before the GET load did)'),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
