import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { newId } from '../src/ids.js';
import { startChild, type ChildServer } from './child.js';
import { hostilePdfs } from '../test/hardening/hostile-pdfs.js';
import { underHostileUploads, type HostileLoad } from './hostile.js';
import { createFixtures, submitBodies, SUBMIT_FIELDS, type BenchFixtures, type SubmitBodies } from './fixtures.js';
import { runPhase, type PhaseResult } from './load.js';
import { printReport } from './report.js';
import { measureSealing, type SealOutcome } from './seal.js';
import { measureWebhooks, printWebhookReport } from './webhook-delivery.js';
import { verifyDurability, type DurabilityReport, type SubmitLedger } from './verify.js';
import { expectStatus, submitSource } from './submit-source.js';
import { measurePostgresSubmit, printPostgresSubmit } from './postgres-submit.js';
import { measureTextTags, printTextTags } from './tags.js';
import { measureBulk, printBulk } from './bulk.js';
import { measureMail, printMail } from './mail.js';

/*
 * `pnpm bench:server`: the real server (embedded store, request logging on) against a bare Hono app serving the
 * same JSON from memory (the ceiling), each in its own process, loaded in turn by autocannon over loopback.
 * Environment: BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (50), BENCH_SUBMIT_POOL (fresh
 * documents for the submit phase), BENCH_PHASES (subset of ceiling-get,get,get-hostile,ceiling-submit,submit,
 * submit-postgres,seal,get-sealing,webhooks; submit-postgres is the submit phase again on a PostgreSQL database of
 * its own, created on BENCH_POSTGRES_URL's server and dropped after, with BENCH_PG_SUBMIT_POOL fresh documents; with both ceiling-get and get, the ceiling is measured again right after the real GET and the ratio
 * uses their mean; get-hostile is the real GET again while two clients upload the hostile-input suite's PDFs in a
 * loop; seal and get-sealing run last, on a server of their own: see seal.ts), BENCH_SEAL_IDLE (3-page seals waited
 * for one at a time, 15), BENCH_SEAL_BURST (3-page submissions sent at once, 20), BENCH_SEAL_LARGE (300-page seals,
 * 2), BENCH_SEAL_GET_BURST (3-page submissions sent before the GET load of get-sealing, 150), BENCH_SEAL_POLL_MS
 * (how often a waiting client asks whether a document is sealed, 20), BENCH_PROFILE=<dir> (--cpu-prof the server
 * into dir), BENCH_KEEP=1 (keep the temporary directory). webhooks runs last, on a server and store of its own (see
 * webhook-delivery.ts): BENCH_WEBHOOK_LATENCY (submissions timed one at a time, 200), BENCH_WEBHOOK_DURATION (s of
 * each of its two submit loads, 5), BENCH_WEBHOOK_ENDPOINTS (10), BENCH_WEBHOOK_POOL (fresh documents for them).
 * BENCH_SEAL_LOADED (3-page seals timed while another organization's huge and photo documents seal, 15),
 * BENCH_SEAL_HUGE_PAGES (10000), BENCH_SEAL_PHOTO_SIDE (4096), BENCH_SEAL_LEVELS (3-page seals timed at PAdES B-T and at
 * B-LTA each, alternating, against a local authority and OCSP responder, 15). tags (bench/tags.ts): text tags of a 300-page document
 * against inspect of the same file. bulk (bench/bulk.ts): BENCH_BULK_ROWS documents (10,000) from a template in one
 * bulk job, on the embedded store and on PostgreSQL, and the GET throughput during it against idle. mail (bench/mail.ts):
 * BENCH_MAIL_ROWS invitations of a bulk job (1,000) queued and delivered a second through an SMTP catcher, and
 * BENCH_MAIL_SINGLE documents (30) timed from creation to their invitation in the catcher. Smoke mode (BENCH_SMOKE=1 or --smoke): every
 * phase for about a second, with small counts and documents (a 200-page huge document, a 512² photo); it fails only
 * when the benchmark itself breaks, never on its figures.
 * The server of the other phases runs with SEAL_WORKER=false: the submit phase's tens of thousands of submissions
 * would otherwise be sealed behind it, during the phases after it.
 */

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const LOAD_PHASES = ['ceiling-get', 'get', 'get-hostile', 'ceiling-submit', 'submit'] as const;
const SEAL_PHASES = ['seal', 'get-sealing'] as const;
const PHASES = [...LOAD_PHASES, 'submit-postgres', ...SEAL_PHASES, 'webhooks', 'tags', 'bulk', 'mail'] as const;
type PhaseName = (typeof PHASES)[number];
type LoadPhaseName = (typeof LOAD_PHASES)[number];

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/** Smoke mode (`BENCH_SMOKE=1` or `--smoke`): every phase, a few seconds each, small documents. */
const SMOKE = process.env.BENCH_SMOKE === '1' || process.argv.includes('--smoke');

function readSettings() {
  const smoke = SMOKE;
  const duration = envNumber('BENCH_DURATION', smoke ? 1 : 10);
  const warmup = envNumber('BENCH_WARMUP', smoke ? 1 : 2);
  const phases = (process.env.BENCH_PHASES ?? PHASES.join(',')).split(',').map((name) => name.trim());
  const unknown = phases.filter((name) => !PHASES.includes(name as PhaseName));
  if (unknown.length > 0) throw new Error(`BENCH_PHASES: unknown phase ${unknown.join(', ')} (use ${PHASES.join(', ')})`);
  const selected = new Set(phases as PhaseName[]);
  return {
    duration,
    warmup,
    smoke,
    connections: envNumber('BENCH_CONNECTIONS', smoke ? 10 : 50),
    // Room for 5,000 submissions a second through warm-up and measurement, plus the sanity check.
    submitPool: Math.ceil(envNumber('BENCH_SUBMIT_POOL', selected.has('submit') ? (duration + warmup) * 5000 + 1000 : 2)),
    phases: selected,
    // Room for 3,000 submissions a second through warm-up and measurement, plus the sanity check.
    postgresPool: Math.ceil(envNumber('BENCH_PG_SUBMIT_POOL', !selected.has('submit-postgres') ? 0 : smoke ? 1000 : (duration + warmup) * 3000 + 1000)),
    seal: {
      idle: Math.max(1, Math.round(envNumber('BENCH_SEAL_IDLE', smoke ? 2 : 15))),
      burst: Math.max(1, Math.round(envNumber('BENCH_SEAL_BURST', smoke ? 3 : 20))),
      large: Math.max(1, Math.round(envNumber('BENCH_SEAL_LARGE', smoke ? 1 : 2))),
      largePages: smoke ? 30 : 300,
      getBurst: Math.max(1, Math.round(envNumber('BENCH_SEAL_GET_BURST', smoke ? 10 : 150))),
      pollMs: envNumber('BENCH_SEAL_POLL_MS', 20),
      levels: Math.max(1, Math.round(envNumber('BENCH_SEAL_LEVELS', smoke ? 2 : 15))),
      loaded: {
        count: Math.max(1, Math.round(envNumber('BENCH_SEAL_LOADED', smoke ? 2 : 15))),
        hugePages: Math.max(1, Math.round(envNumber('BENCH_SEAL_HUGE_PAGES', smoke ? 200 : 10_000))),
        photoSide: Math.max(16, Math.round(envNumber('BENCH_SEAL_PHOTO_SIDE', smoke ? 512 : 4096))),
      },
    },
    webhooks: {
      latencyCount: Math.max(1, Math.round(envNumber('BENCH_WEBHOOK_LATENCY', smoke ? 5 : 200))),
      duration: envNumber('BENCH_WEBHOOK_DURATION', smoke ? 1 : 5),
      warmup: 1,
      connections: envNumber('BENCH_CONNECTIONS', smoke ? 10 : 50),
      endpoints: Math.max(1, Math.round(envNumber('BENCH_WEBHOOK_ENDPOINTS', smoke ? 2 : 10))),
      drainLimitSeconds: 120,
    },
    // Room for 3,000 submissions a second through both of the webhooks phase's loads.
    webhookPool: Math.ceil(envNumber('BENCH_WEBHOOK_POOL', 2 * (envNumber('BENCH_WEBHOOK_DURATION', smoke ? 1 : 5) + 1) * 3000)),
    profileDir: process.env.BENCH_PROFILE,
    keep: process.env.BENCH_KEEP === '1',
  };
}
export type BenchSettings = ReturnType<typeof readSettings>;

export interface BenchOutcome {
  settings: BenchSettings;
  fixtures: BenchFixtures;
  bodies: SubmitBodies;
  /** `ceiling-get-after`: the ceiling again right after the real GET, so drift during the run cancels out. */
  results: Partial<Record<LoadPhaseName | 'ceiling-get-after', PhaseResult>>;
  /** The seal and get-sealing phases, on their own server; null when neither ran. */
  sealing: SealOutcome | null;
  durability: DurabilityReport | null;
  /** What the hostile uploads of the get-hostile phase did, and the server's peak memory meanwhile. */
  hostile: HostileLoad | null;
  poolExhausted: boolean;
  /** Lines of the real server's request log, and its exit code; null when no phase used it. */
  serverLogLines: number | null;
  serverExitCode: number | null;
}

async function measure(settings: BenchSettings, fixtures: BenchFixtures): Promise<BenchOutcome> {
  const usesLoadServer = LOAD_PHASES.some((name) => settings.phases.has(name));
  const load = usesLoadServer ? await measureLoad(settings, fixtures) : null;
  const sealing = SEAL_PHASES.some((name) => settings.phases.has(name))
    ? await measureSealing({
        dir: fixtures.dir,
        phases: { seal: settings.phases.has('seal'), getSealing: settings.phases.has('get-sealing') },
        load: { connections: settings.connections, duration: settings.duration, warmup: settings.warmup },
        seal: settings.seal,
        appDir: APP_DIR,
      })
    : null;
  return {
    settings,
    fixtures,
    bodies: load?.bodies ?? (await submitBodies()),
    results: load?.results ?? {},
    sealing,
    durability: load?.durability ?? null,
    hostile: load?.hostile ?? null,
    poolExhausted: load?.poolExhausted ?? false,
    serverLogLines: load?.serverLogLines ?? null,
    serverExitCode: load?.serverExitCode ?? null,
  };
}

/** The phases on the real server with its seal worker off (and the ceiling): every phase but the sealing ones. */
async function measureLoad(settings: BenchSettings, fixtures: BenchFixtures) {
  const bodies = await submitBodies();
  const ledger: SubmitLedger = { sent: new Map(), accepted: new Set(), answered: new Set() };
  const source = submitSource(fixtures, bodies, ledger);
  const serverLog = join(fixtures.dir, 'server.log');
  const results: BenchOutcome['results'] = {};
  const children: ChildServer[] = [];
  let serverExitCode: number | null = null;
  let hostile: HostileLoad | null = null;
  const pdfs = settings.phases.has('get-hostile') ? (await hostilePdfs()).map(({ pdf }) => pdf) : [];

  try {
    const real = await startChild({
      script: 'bench/serve.ts',
      cwd: APP_DIR,
      env: { ...process.env, DATABASE_URL: fixtures.databaseUrl, BENCH_SERVER_LOG: serverLog, SEAL_WORKER: 'false' },
      nodeArgs: settings.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`] : [],
    });
    children.push(real);
    const keyHeaders = { 'X-API-Key': fixtures.apiKey };
    const getPath = `/sdk/documents/${fixtures.getDocumentId}`;
    const documentJson = await expectStatus(await fetch(real.url + getPath, { headers: keyHeaders }), 200, 'GET of the real server');

    // One submission before the load: the templated payload must be accepted as it is.
    const sanityId = source.take();
    const sanity = bodies.build(sanityId);
    ledger.sent.set(sanityId, sanity.checksum);
    const sanityResponse = await fetch(`${real.url}/sdk/documents/submit`, {
      method: 'POST',
      headers: { ...keyHeaders, 'Content-Type': 'application/json' },
      body: sanity.body.toString('utf8'),
    });
    const submissionResult = await expectStatus(sanityResponse, 201, 'sanity submission to the real server');
    ledger.answered.add(sanityId);
    ledger.accepted.add(sanityId);

    const ceilingFile = join(fixtures.dir, 'ceiling.json');
    writeFileSync(ceilingFile, JSON.stringify({ document: JSON.parse(documentJson), submissionResult: JSON.parse(submissionResult) }));
    const ceiling = await startChild({ script: 'bench/ceiling.ts', args: [ceilingFile], cwd: APP_DIR, env: process.env });
    children.push(ceiling);
    const ceilingJson = await expectStatus(await fetch(ceiling.url + getPath), 200, 'GET of the ceiling');
    if (ceilingJson !== documentJson) throw new Error('the ceiling does not serve the same JSON as the real server');

    const load = { connections: settings.connections, duration: settings.duration, warmup: settings.warmup };
    const post = { method: 'POST' as const, path: '/sdk/documents/submit', headers: { ...keyHeaders, 'Content-Type': 'application/json' } };
    const plan: Array<[LoadPhaseName, () => Promise<PhaseResult>]> = [
      ['ceiling-get', () => runPhase({ name: 'ceiling GET', url: ceiling.url, serverPid: ceiling.pid, method: 'GET', path: getPath, headers: keyHeaders, ...load })],
      ['get', () => runPhase({ name: 'real GET', url: real.url, serverPid: real.pid, method: 'GET', path: getPath, headers: keyHeaders, ...load })],
      [
        'get-hostile',
        async () => {
          const server = { url: real.url, pid: real.pid, key: fixtures.uploadKey, pdfs };
          const phase = () => runPhase({ name: 'real GET, hostile uploads', url: real.url, serverPid: real.pid, method: 'GET', path: getPath, headers: keyHeaders, ...load });
          const measured = await underHostileUploads(server, phase);
          hostile = measured.hostile;
          return measured.result;
        },
      ],
      [
        'ceiling-submit',
        () =>
          runPhase({
            name: 'ceiling POST',
            url: ceiling.url,
            serverPid: ceiling.pid,
            ...post,
            ...load,
            // The same work on the load generator as the real phase: a fresh id and checksum every time.
            setupRequest: (request) => ({ ...request, body: bodies.build(newId('doc')).body }),
          }),
      ],
      [
        'submit',
        () =>
          runPhase({
            name: 'real POST',
            url: real.url,
            serverPid: real.pid,
            ...post,
            ...load,
            setupRequest: (request, context) => source.setupRequest(request, context),
            onResponse: (status, _body, context) => source.onResponse(status, context),
          }),
      ],
    ];
    for (const [name, run] of plan) {
      if (!settings.phases.has(name)) continue;
      process.stderr.write(`running ${name}…\n`);
      results[name] = await run();
      if (name === 'get' && settings.phases.has('ceiling-get')) {
        process.stderr.write('running ceiling-get again…\n');
        results['ceiling-get-after'] = await plan[0]![1]();
      }
    }
  } finally {
    // The real server first: its exit code says whether it shut down cleanly after the load.
    const codes = [];
    for (const child of children) codes.push(await child.stop());
    serverExitCode = codes[0] ?? null;
  }

  const durability = settings.phases.has('submit') ? verifyDurability(fixtures.databasePath, ledger) : null;
  const serverLogLines = readFileSync(serverLog, 'utf8').split('\n').filter(Boolean).length;
  // `hostile` is assigned inside a phase's closure, which TypeScript's narrowing of the `let` does not see.
  return { bodies, results, durability, hostile: hostile as HostileLoad | null, poolExhausted: source.exhausted, serverLogLines, serverExitCode };
}

const startedAt = performance.now();
let settings: BenchSettings | undefined;
let fixtures: BenchFixtures | undefined;
let outcome: BenchOutcome | undefined;
try {
  settings = readSettings();
  fixtures = await createFixtures(settings.submitPool);
  outcome = await measure(settings, fixtures);
  printReport(outcome, { fields: SUBMIT_FIELDS.length });
  if (settings.phases.has('submit-postgres')) {
    process.stderr.write('running submit-postgres…\n');
    const { duration, warmup, connections, postgresPool: pool, keep } = settings;
    const postgres = await measurePostgresSubmit({ duration, warmup, connections, pool, keep }, APP_DIR);
    printPostgresSubmit(postgres);
    if (!postgres.durability.ok || (postgres.exhausted && !settings.smoke)) process.exitCode = 1;
  }
  if (settings.phases.has('webhooks')) {
    process.stderr.write('running webhooks…\n');
    printWebhookReport(await measureWebhooks(settings.webhooks, APP_DIR, settings.webhookPool, settings.keep));
  }
  if (settings.phases.has('tags')) {
    // Text tags of a 300-page document against `inspect` of the same file (bench/tags.ts).
    process.stderr.write('running tags…\n');
    printTextTags(await measureTextTags({ pages: settings.smoke ? 30 : 300, runs: settings.smoke ? 1 : 5 }));
  }
  if (settings.phases.has('bulk')) {
    process.stderr.write('running bulk…\n');
    const rows = Math.max(1, Math.round(envNumber('BENCH_BULK_ROWS', settings.smoke ? 200 : 10_000)));
    printBulk(await measureBulk({ rows, connections: settings.connections, duration: settings.smoke ? 1 : 5, keep: settings.keep }, APP_DIR));
  }
  if (settings.phases.has('mail')) {
    process.stderr.write('running mail…\n');
    const rows = Math.max(1, Math.round(envNumber('BENCH_MAIL_ROWS', settings.smoke ? 50 : 1_000)));
    const single = Math.max(1, Math.round(envNumber('BENCH_MAIL_SINGLE', settings.smoke ? 3 : 30)));
    printMail(await measureMail({ rows, single, keep: settings.keep }, APP_DIR));
  }
  process.stdout.write(`wall time:  ${((performance.now() - startedAt) / 1000).toFixed(1)} s\n`);
} catch (error) {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  if (fixtures && !settings?.keep) rmSync(fixtures.dir, { recursive: true, force: true });
  else if (fixtures) process.stdout.write(`kept ${fixtures.dir}\n`);
}
// A lost or changed submission is a failure in every mode; running out of fresh documents only outside smoke mode,
// whose point is that every phase still runs, not its figures.
if (outcome && (outcome.durability?.ok === false || (outcome.poolExhausted && !outcome.settings.smoke))) {
  process.exitCode = 1;
}
