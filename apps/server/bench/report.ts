import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { PhaseResult } from './load.js';
import type { BenchOutcome } from './server.js';
import { printSealing } from './seal-report.js';

const TARGETS = { getRatio: 0.6, getP99Ms: 20, submissionsPerSecond: 1000, hostileGetRatio: 0.5, hostileP99Ms: 50, hostileMemoryMiB: 1024 } as const;

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '—');
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

const COLUMNS: Array<[string, number]> = [
  ['phase', 42],
  ['req/s', 10],
  ['p50 ms', 9],
  ['p99 ms', 9],
  ['requests', 10],
  ['non-2xx', 9],
  ['errors', 8],
  ['CPU server/loadgen/other', 27],
];
/** Cores used by other processes during a phase above which its numbers are flagged as disturbed. */
const DISTURBED_CORES = 0.15;
/** Cores used by autocannon above which it, not the server, may be what limits a phase. */
const SATURATED_GENERATOR = 0.9;

function row(cells: string[]): string {
  return cells.map((cell, index) => (index === 0 ? cell.padEnd(COLUMNS[0]![1]) : cell.padStart(COLUMNS[index]![1]))).join('');
}

function phaseRow(label: string, result: PhaseResult | undefined): string {
  if (!result) return row([label, '(not run)']);
  return row([
    label,
    integer(result.requestsPerSecond),
    ms(result.p50),
    ms(result.p99),
    integer(result.completed),
    integer(result.non2xx),
    integer(result.errors),
    result.cpu ? [result.cpu.server, result.cpu.generator, result.cpu.other].map((cores) => cores.toFixed(2)).join(' / ') : 'n/a',
  ]);
}

function statuses(result: PhaseResult | undefined): string {
  if (!result) return 'not run';
  const codes = Object.entries(result.statusCounts).map(([code, count]) => `${code}: ${integer(count)}`);
  const failures = result.errors > 0 ? `; connection errors ${result.errors} (timeouts ${result.timeouts})` : '';
  return `${codes.join(', ') || 'no responses'}${failures}`;
}

/** Durable submissions per second of the real submit phase: its request rate times the share answered 201. */
export function submissionsPerSecond(result: PhaseResult): number {
  const accepted = result.statusCounts['201'] ?? 0;
  return result.completed > 0 ? (result.requestsPerSecond * accepted) / result.completed : 0;
}

/** Prints the benchmark's table, targets and checks on stdout. */
export function printReport(outcome: BenchOutcome, shape: { fields: number }): void {
  const { settings, fixtures, bodies, results, durability } = outcome;
  const cpus = os.cpus();
  const lines: string[] = [];
  const out = (line = '') => lines.push(line);

  const repository = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
  const overrides = [
    'BENCH_DURATION',
    'BENCH_WARMUP',
    'BENCH_CONNECTIONS',
    'BENCH_SUBMIT_POOL',
    'BENCH_PHASES',
    'BENCH_SEAL_IDLE',
    'BENCH_SEAL_BURST',
    'BENCH_SEAL_LARGE',
    'BENCH_SEAL_GET_BURST',
    'BENCH_SEAL_POLL_MS',
    'BENCH_PROFILE',
  ]
    .filter((name) => process.env[name])
    .map((name) => `${name}=${process.env[name]} `)
    .join('');
  out('Signet server benchmark');
  out(`machine:    ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}, ${os.platform()} ${os.arch()}`);
  out(`reproduce:  cd ${repository} && ${overrides}pnpm bench:server`);
  out(
    `load:       autocannon ${settings.connections} connections on 127.0.0.1, ${settings.warmup} s warm-up (not counted) + ` +
      `${settings.duration} s measured per phase; servers are child processes, one under load at a time`,
  );
  out(
    `setup:      ${(fixtures.setupMs / 1000).toFixed(1)} s before timing: embedded store file:<tmp>/bench.db, 1 pk key ` +
      `(10,000,000/min), 1 GET document (3 pages, 7 fields), ${integer(fixtures.submitDocumentIds.length)} fresh submit documents`,
  );
  out(
    `payload:    ${integer(bodies.size)} bytes of JSON, ${shape.fields} fields (2 text, 1 signature: a ${integer(bodies.imageBytes)}-byte PNG), ` +
      'own checksum; each submission to its own never-submitted document',
  );
  if (outcome.serverLogLines !== null) {
    out(
      `server:     real server with its request log on (${integer(outcome.serverLogLines)} JSON lines written), seal worker off ` +
        `(SEAL_WORKER=false); exit code after SIGTERM: ${outcome.serverExitCode}`,
    );
  }
  out('latency:    per response, from autocannon\'s client-side timing, over every response of the measured window');
  out();
  out(row(COLUMNS.map(([name]) => name)));
  out('-'.repeat(COLUMNS.reduce((total, [, width]) => total + width, 0)));
  out(phaseRow('a. ceiling GET  (bare Hono, from memory)', results['ceiling-get']));
  out(phaseRow('b. real GET     /sdk/documents/{id}', results.get));
  if (results['ceiling-get-after']) out(phaseRow("a'. ceiling GET again, after b", results['ceiling-get-after']));
  if (results['get-hostile']) out(phaseRow("b'. real GET while hostile PDFs upload", results['get-hostile']));
  out(phaseRow('c. ceiling POST (bare Hono, reads the JSON)', results['ceiling-submit']));
  out(phaseRow('d. real POST    /sdk/documents/submit', results.submit));
  const sealGets = outcome.sealing?.results ?? {};
  if (outcome.settings.phases.has('get-sealing')) {
    out(phaseRow('e. real GET, sealing server, queue idle', sealGets.getIdle));
    out(phaseRow('f. real GET during a seal burst (same server)', sealGets.getDuringSeals));
  }
  // A phase not selected (`BENCH_PHASES=seal` alone) leaves its entry undefined.
  const measured = [...Object.values(results), ...Object.values(sealGets)].filter((result): result is PhaseResult => result !== undefined);
  const disturbed = measured.filter((result) => result.cpu && result.cpu.other > DISTURBED_CORES);
  for (const result of disturbed) {
    out(`WARNING: other processes used ${result.cpu!.other.toFixed(2)} cores during "${result.name}": its numbers are disturbed`);
  }
  for (const result of measured.filter((result) => result.cpu && result.cpu.generator > SATURATED_GENERATOR)) {
    out(`note: autocannon used ${result.cpu!.generator.toFixed(2)} cores during "${result.name}": the load generator may be its limit (a lower bound)`);
  }
  out('CPU: average cores used while measured by the server under load, by autocannon (this process), by anything else');
  if (sealGets.getDuringSeals) out("     (in e and f, the sealing server's PDF workers are counted apart from anything else: see \"GET burst\" below)");
  out();

  const ceilingGet = results['ceiling-get'];
  const realGet = results.get;
  const ceilingPost = results['ceiling-submit'];
  const realPost = results.submit;
  const target = (label: string, value: string, goal: string, pass: boolean | null) =>
    out(`${label.padEnd(36)}${value.padStart(10)}   ${goal.padEnd(18)}${pass === null ? '(no target)' : verdict(pass)}`);
  if (ceilingGet && realGet) {
    // The baseline is the mean of the ceiling measured before and after the real GET: the machine's speed drifts.
    const after = results['ceiling-get-after'];
    const baseline = after ? (ceilingGet.requestsPerSecond + after.requestsPerSecond) / 2 : ceilingGet.requestsPerSecond;
    const ratio = realGet.requestsPerSecond / baseline;
    const label = after ? "real GET / ceiling GET (mean a, a')" : 'real GET / ceiling GET';
    target(label, ratio.toFixed(2), `target >= ${TARGETS.getRatio.toFixed(2)}`, ratio >= TARGETS.getRatio);
  }
  if (realGet) {
    const label = `real GET p99 at ${settings.connections} connections`;
    target(label, `${ms(realGet.p99)} ms`, `target < ${TARGETS.getP99Ms} ms`, realGet.p99 < TARGETS.getP99Ms);
  }
  const hostileGet = results['get-hostile'];
  if (hostileGet && realGet) {
    const ratio = hostileGet.requestsPerSecond / realGet.requestsPerSecond;
    target("GET under hostile uploads / idle (b'/b)", ratio.toFixed(2), `target >= ${TARGETS.hostileGetRatio.toFixed(2)}`, ratio >= TARGETS.hostileGetRatio);
  }
  if (hostileGet) {
    target('GET p99 under hostile uploads', `${ms(hostileGet.p99)} ms`, `target < ${TARGETS.hostileP99Ms} ms`, hostileGet.p99 < TARGETS.hostileP99Ms);
  }
  if (outcome.hostile) {
    const mib = outcome.hostile.peakBytes / 1024 ** 2;
    target('server memory, all processes, peak', `${integer(mib)} MiB`, `target < ${integer(TARGETS.hostileMemoryMiB)} MiB`, mib < TARGETS.hostileMemoryMiB);
  }
  if (realPost) {
    const perSecond = submissionsPerSecond(realPost);
    const goal = `target >= ${integer(TARGETS.submissionsPerSecond)}`;
    target('durable submissions per second', integer(perSecond), goal, perSecond >= TARGETS.submissionsPerSecond);
  }
  if (ceilingPost && realPost) {
    target('real POST / ceiling POST', (realPost.requestsPerSecond / ceilingPost.requestsPerSecond).toFixed(2), '', null);
  }
  if (outcome.sealing) printSealing(outcome.sealing, out, target);
  out();
  out(`status codes, real GET:   ${statuses(realGet)}`);
  out(`status codes, real POST:  ${statuses(realPost)}`);
  if (outcome.hostile) {
    const counts = Object.entries(outcome.hostile.statusCounts).map(([status, count]) => `${status}: ${integer(count)}`).join(', ');
    out(`hostile uploads during b': ${integer(outcome.hostile.uploads)} (${counts}), two clients cycling the hostile-input suite's six PDFs`);
  }
  for (const result of [realGet, realPost]) {
    for (const [status, body] of result?.errorBodies ?? []) out(`  ${result!.name}, first ${status}: ${body}`);
  }

  if (durability) {
    out();
    out(
      `durability: ${integer(durability.accepted)} submissions answered 201 (sanity check, warm-up and measured load); ` +
        `after the server stopped the database holds ${integer(durability.storedSubmissions)} submissions and ` +
        `${integer(durability.completedDocuments)} completed documents`,
    );
    out(
      `            = ${integer(durability.accepted)} answered 201 + ${integer(durability.cutOffCommitted)} committed for requests cut off ` +
        `in flight when a phase's time ran out (${integer(durability.cutOff)} cut off, never answered)`,
    );
    const verdictLine = durability.ok ? 'OK' : `FAILED: ${durability.problems.join('; ')}`;
    out(`            every 201 stored with the checksum sent, one completed document each, nothing else stored: ${verdictLine}`);
  }
  if (outcome.poolExhausted) {
    out(`FAILED: the ${integer(fixtures.submitDocumentIds.length)} fresh documents ran out; raise BENCH_SUBMIT_POOL`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
