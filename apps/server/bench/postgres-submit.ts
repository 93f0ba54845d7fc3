import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { startChild } from './child.js';
import { createFixtures, submitBodies } from './fixtures.js';
import { runPhase, type PhaseResult } from './load.js';
import { submissionsPerSecond } from './report.js';
import { expectStatus, submitSource } from './submit-source.js';
import { verifyDurabilityAt, type DurabilityReport, type SubmitLedger } from './verify.js';

/*
 * The `submit-postgres` phase: the submit phase again, on PostgreSQL. A database of its own is created on the
 * server BENCH_POSTGRES_URL names (default postgres://postgres@127.0.0.1:5432/test, the tests' server), filled
 * with fresh documents through the same typed queries as the embedded store's fixtures, loaded by autocannon, read
 * back after the server stopped (every 201 stored with its checksum), and dropped.
 */

export interface PostgresSubmitSettings {
  duration: number;
  warmup: number;
  connections: number;
  /** Fresh documents to submit to (one per request). */
  pool: number;
  keep: boolean;
}

export interface PostgresSubmitOutcome {
  result: PhaseResult;
  durability: DurabilityReport;
  pool: number;
  exhausted: boolean;
  serverExitCode: number | null;
}

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The same URL with another database name. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function measurePostgresSubmit(settings: PostgresSubmitSettings, appDir: string): Promise<PostgresSubmitOutcome> {
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_URL;
  const database = `signet_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    const databaseUrl = withDatabase(adminUrl, database);
    const fixtures = await createFixtures(settings.pool, databaseUrl);
    try {
      const bodies = await submitBodies();
      const ledger: SubmitLedger = { sent: new Map(), accepted: new Set(), answered: new Set() };
      const source = submitSource(fixtures, bodies, ledger);
      const server = await startChild({
        script: 'bench/serve.ts',
        cwd: appDir,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          SIGNET_SECRET: randomBytes(32).toString('hex'),
          BENCH_SERVER_LOG: join(fixtures.dir, 'server.log'),
          SEAL_WORKER: 'false',
        },
      });
      let result: PhaseResult;
      let serverExitCode: number | null;
      try {
        const headers = { 'X-API-Key': fixtures.apiKey, 'Content-Type': 'application/json' };
        const sanityId = source.take();
        const sanity = bodies.build(sanityId);
        ledger.sent.set(sanityId, sanity.checksum);
        const response = await fetch(`${server.url}/sdk/documents/submit`, { method: 'POST', headers, body: sanity.body.toString('utf8') });
        await expectStatus(response, 201, 'sanity submission to the server on PostgreSQL');
        ledger.answered.add(sanityId);
        ledger.accepted.add(sanityId);
        result = await runPhase({
          name: 'real POST, PostgreSQL',
          url: server.url,
          serverPid: server.pid,
          method: 'POST',
          path: '/sdk/documents/submit',
          headers,
          connections: settings.connections,
          duration: settings.duration,
          warmup: settings.warmup,
          setupRequest: (request, context) => source.setupRequest(request, context),
          onResponse: (status, _body, context) => source.onResponse(status, context),
        });
      } finally {
        serverExitCode = await server.stop();
      }
      const durability = await verifyDurabilityAt(databaseUrl, ledger);
      return { result, durability, pool: fixtures.submitDocumentIds.length, exhausted: source.exhausted, serverExitCode };
    } finally {
      if (!settings.keep) rmSync(fixtures.dir, { recursive: true, force: true });
    }
  } finally {
    if (!settings.keep) await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

/** The phase's lines of the report: its rate, latency, durable submissions per second (no target) and durability. */
export function printPostgresSubmit(outcome: PostgresSubmitOutcome): void {
  const { result, durability } = outcome;
  const perSecond = submissionsPerSecond(result);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out('');
  out(`PostgreSQL submit phase (${outcome.pool.toLocaleString('en-US')} fresh documents on a database of its own)`);
  out(`  requests/s ${result.requestsPerSecond.toFixed(0)}, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, statuses ${JSON.stringify(result.statusCounts)}`);
  out(`  durable submissions per second (PostgreSQL): ${perSecond.toFixed(0)}`);
  out(`  durability: ${durability.ok ? 'OK' : `FAILED: ${durability.problems.join('; ')}`} (${durability.accepted} answered 201, ${durability.storedSubmissions} stored)`);
  if (outcome.exhausted) out(`  FAILED: the ${outcome.pool} fresh documents ran out; raise BENCH_PG_SUBMIT_POOL`);
  out(`  server exit code: ${outcome.serverExitCode}`);
}
