import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { openStorage } from '../../src/storage/index.js';
import type { Storage } from '../../src/storage/types.js';
import { capturingLogger, createTestApp, engines, type TestApp } from '../support/harness.js';
import { answerProblem, type Answer } from './fuzz-oracle.js';
import { ENDPOINTS, ENDPOINT_PATHS, type Endpoint } from './fuzz-requests.js';
import { describeFailures, fuzzEndpoint, onlyCase, type FuzzReport, type FuzzRunOptions, type Send } from './fuzz-run.js';
import { fuzzTargets, type FuzzSetup } from './fuzz-targets.js';
import { rawCases, rawExchange } from './raw-http.js';
import { ensureOrganization } from '../../src/storage/queries/organizations.js';

/*
 * Every write endpoint, `/verify` and the sealed document's reads, fed generated hostile and mutated requests through
 * the real app on real storage: no answer may be a 5xx, every refusal carries the contract's envelope, every success
 * its schema (a sealed PDF: its headers, length and range). Seeded: a failure names its seed and case, and
 * `SIGNET_FUZZ_SEED=… SIGNET_FUZZ_CASE=endpoint#index` draws that one request again.
 * Nothing leaves loopback: the webhook endpoints registered have public addresses, but no run sends webhooks (the app
 * in process has no dispatcher, the server over HTTP runs with WEBHOOK_DISPATCHER=false), and no URL sent names a
 * host the server would look up in DNS (`withoutNameLookup`).
 * `pnpm fuzz` sets SIGNET_FUZZ_RUNS=10000 (requests per endpoint in process on SQLite); PostgreSQL gets a quarter
 * of that and the real server over HTTP a tenth, each drawn from cases of their own.
 */
const SEED = Number(process.env.SIGNET_FUZZ_SEED ?? 20_261_122);
/**
 * Requests per endpoint on SQLite in CI: uploads cost the most, so fewer of them. `/verify` reads signatures in the
 * PDF pool (but answers a stored seal's exact bytes from storage); the sealed document's reads are cheap, and so are
 * the JSON writes (a decline that declines costs a new document in its place).
 */
const CI_RUNS: Record<Endpoint, number> = {
  submit: 1000,
  'validate-key': 600,
  'create-document': 400,
  verify: 600,
  'signed-document': 1200,
  'signed-copy': 1000,
  decline: 600,
  'create-session': 600,
  'create-webhook': 600,
  'update-webhook': 600,
};
const runsOf = (endpoint: Endpoint) => Number(process.env.SIGNET_FUZZ_RUNS ?? CI_RUNS[endpoint]);
const ONLY = process.env.SIGNET_FUZZ_CASE;
const PDF_LIMIT = String(256 * 1024);
const SECRET = 'fuzz-secret-of-the-server-over-http-0123456789';

/** The error the app logged for a request (its 500s are logged with their cause), first lines of the stack. */
function loggedError(logs: Array<Record<string, unknown>>, requestId: string): string | undefined {
  const line = logs.find((entry) => entry['requestId'] === requestId && Number(entry['level']) >= 50);
  const err = line?.['err'] as { stack?: string; message?: string } | undefined;
  return err ? (err.stack ?? err.message ?? '').split('\n').slice(0, 4).join(' | ') : undefined;
}

function summary(report: FuzzReport, where: string): string {
  const statuses = Object.entries(report.statuses).map(([status, count]) => `${status}×${count}`).join(' ');
  const slowest = report.slowest.map((slow) => `${slow.id} ${Math.round(slow.ms)} ms: ${slow.recipe.join('; ').slice(0, 160)}`);
  return [`fuzz ${report.endpoint} ${where}: ${report.requests} requests in ${(report.ms / 1000).toFixed(1)} s (${statuses}); slowest:`, ...slowest].join('\n  ');
}

/** Runs one endpoint's cases and fails with the report of every answer that broke the contract. */
async function fuzzAndCheck(where: string, filter: string, options: Omit<FuzzRunOptions, 'seed' | 'only'>): Promise<void> {
  const only = onlyCase(ONLY, options.endpoint);
  if (only === null) return;
  const report = await fuzzEndpoint({ ...options, seed: SEED, only });
  console.info(summary(report, where));
  const again = (failure: { id: string }) =>
    `SIGNET_FUZZ_SEED=${SEED} SIGNET_FUZZ_CASE=${failure.id} npx vitest run test/hardening/fuzz.test.ts -t '${filter}'`;
  expect(report.failures.length, describeFailures(report, where, again)).toBe(0);
}

/** A response read whole: its bytes (a PDF) and their text. */
async function read(response: Response): Promise<Answer> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, text: new TextDecoder().decode(bytes), bytes };
}

function secretsIn(logs: Array<Record<string, unknown>>, secrets: string[]) {
  return logs.filter((line) => {
    const text = JSON.stringify(line);
    return secrets.some((secret) => text.includes(secret));
  });
}

describe.each(engines)('fuzz in process on $name', (engine) => {
  let t: TestApp;
  let setup: FuzzSetup;
  beforeAll(async () => {
    // A small PDF limit makes the 413 cheap to reach.
    t = await createTestApp(engine, { MAX_PDF_BYTES: PDF_LIMIT });
    setup = await fuzzTargets({ storage: t.storage, organizationId: t.org.id, maxPdfBytes: t.config.maxPdfBytes, sealing: t.config.sealing });
    await setup.readTokens(async (path, key) => (await t.app.request(path, { headers: { 'X-API-Key': key } })).text());
  }, 60_000);
  afterAll(() => t?.close());

  const share = engine.name === 'sqlite' ? 1 : 4;
  const send: Send = async (request) => {
    const init = { method: request.method, headers: request.headers, body: request.body as Uint8Array<ArrayBuffer> | undefined };
    return read(await t.app.request(request.path, init));
  };

  it.each(ENDPOINTS)('%s: no 5xx, the envelope on every refusal, the schema on every success', async (endpoint) => {
    await fuzzAndCheck(`in process on ${engine.name}`, engine.name, {
      endpoint,
      runs: Math.ceil(runsOf(endpoint) / share),
      offset: engine.name === 'sqlite' ? 0 : 10_000_000,
      targets: setup.targets,
      send,
      afterAnswer: setup.afterAnswer,
      loggedError: (requestId) => loggedError(t.logs, requestId),
    });
  }, 60_000 + runsOf('submit') * 40);

  it('no key secret appears in any log line', () => {
    const leaking = secretsIn(t.logs, setup.secrets);
    expect(leaking.length, JSON.stringify(leaking[0])?.slice(0, 500)).toBe(0);
  });
});

describe('fuzz over HTTP', () => {
  let dir: string;
  let storage: Storage;
  let server: RunningServer;
  let setup: FuzzSetup;
  const { logger, logs } = capturingLogger();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-fuzz-'));
    const databaseUrl = `file:${join(dir, 'signet.db')}`;
    storage = await openStorage(databaseUrl);
    const org = await ensureOrganization(storage.db.query, 'fuzz-http', 'Fuzz over HTTP');
    // Every request comes from 127.0.0.1: the failed-authentication limit would soon answer all of them.
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      MAX_PDF_BYTES: PDF_LIMIT,
      AUTH_FAILURES_PER_MINUTE: '1000000',
      // Known, so that the targets can sign expired document tokens.
      SIGNET_SECRET: SECRET,
      // No webhook is sent: the endpoints the fuzz registers have public addresses.
      WEBHOOK_DISPATCHER: 'false',
    });
    setup = await fuzzTargets({ storage, organizationId: org.id, maxPdfBytes: config.maxPdfBytes, sealing: config.sealing, secret: SECRET });
    server = await startServer({ config, logger });
    await setup.readTokens(async (path, key) => (await fetch(server.url + path, { headers: { 'X-API-Key': key } })).text());
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await storage?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Through Node's HTTP client: a Content-Length body, or a chunked one in two pieces. A declared Content-Length is
   * dropped: fetch sends none that differs from the body (raw-http.ts sends those).
   */
  const send: Send = async (request) => {
    const bytes = request.body;
    const headers = request.headers.filter(([name]) => name.toLowerCase() !== 'content-length');
    if (headers.length < request.headers.length) request.recipe.push('declared Content-Length dropped');
    if (bytes && request.chunked) request.recipe.push('sent chunked');
    const body = bytes && request.chunked
      ? new ReadableStream({
          start(controller) {
            const middle = bytes.length >> 1;
            controller.enqueue(bytes.subarray(0, middle));
            controller.enqueue(bytes.subarray(middle));
            controller.close();
          },
        })
      : (bytes as Uint8Array<ArrayBuffer> | undefined);
    return read(await fetch(server.url + request.path, { method: request.method, headers, body, duplex: 'half' } as RequestInit));
  };

  it.each(ENDPOINTS)('%s: no 5xx, the envelope on every refusal, the schema on every success', async (endpoint) => {
    await fuzzAndCheck('over HTTP', 'over HTTP', {
      endpoint,
      runs: Math.ceil(runsOf(endpoint) / 10),
      offset: 20_000_000,
      targets: setup.targets,
      send,
      afterAnswer: setup.afterAnswer,
      loggedError: (requestId) => loggedError(logs, requestId),
    });
  }, 60_000 + runsOf('submit') * 10);

  it('what fetch cannot send: broken framing, a 20 KB header, raw bytes in headers, bodies cut short', async () => {
    for (const raw of rawCases(setup.targets.keys.pk, setup.targets.keys.sk)) {
      const answer = await rawExchange(server.url, raw.request, { then: raw.then });
      if (raw.then === 'destroy') continue;
      expect(answer.status, `${raw.name}: no answer`).toBeGreaterThanOrEqual(100);
      const request = { endpoint: raw.endpoint, method: 'POST' as const, path: ENDPOINT_PATHS[raw.endpoint], headers: [], body: undefined, chunked: false, recipe: [raw.name] };
      expect(answerProblem(request, { ...answer, status: answer.status! }), `${raw.name}: ${answer.text.slice(0, 200)}`).toBeUndefined();
    }
    const after = await fetch(`${server.url}/sdk/validate-key`, { method: 'POST', headers: { 'X-API-Key': setup.targets.keys.pk } });
    expect(after.status).toBe(200);
  });

  it('the request log shows no 5xx, and no key secret in any line', async () => {
    // Request lines are written after the responses of their turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs.filter((line) => Number(line['status']) >= 500).map((line) => line['path'])).toEqual([]);
    expect(secretsIn(logs, setup.secrets).length).toBe(0);
  });
});
