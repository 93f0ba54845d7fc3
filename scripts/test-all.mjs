// `pnpm test`: every test of the repository, in stages that run side by side where they do not depend on each other,
// each stage's output kept in its own log and printed whole when the stage ends, then a table of each step's time (and
// the CPU time its processes used) and the run's closing line (`N passed, N failed`, added up over every runner).
// Exits non-zero when any step failed.
//
//   node scripts/test-all.mjs                 everything (what CI runs, through .ci/run)
//   node scripts/test-all.mjs --only node,e2e  only the named stages (and the steps they wait for)
//
// Why this shape is in docs/decisions.md, "Continuous integration".
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;
const logs = mkdtempSync(join(tmpdir(), 'signet-test-all-'));
const packs = join(logs, 'packs');

/** The demo page is built once (by the `demo` step) for every suite that serves it. */
const built = { SIGNET_DEMO_BUILT: '1', SIGNET_HOSTS_TARBALLS: packs };

/**
 * A step: a command run from the repository root, after the steps it `needs` have passed and those it comes `after`
 * have ended, whatever their outcome. Steps of one stage run one after another; stages run side by side.
 */
const stages = {
  // Two lanes, about one core each (docs/decisions.md, "Continuous integration"). The Node suites run on one Vitest
  // worker, so the checks and the e2e flows run beside them; the Chromium suites follow the Node suites in their
  // lane; Firefox, WebKit and the viewer on React 18 follow the e2e flows in the other.
  node: [
    { name: 'vitest (Node)', run: 'pnpm exec vitest run --project @signet/server --project @signet/contract --project @signet/api' },
    { name: 'vitest (Chromium)', run: 'pnpm exec vitest run --project @signet/viewer --project @signet/embed' },
  ],
  // Packing builds every package's dist/ (the embed script the e2e suites load included); the host apps install
  // those tarballs.
  e2e: [
    { name: 'packs', run: `node scripts/check-packs.mjs --out ${packs}` },
    { name: 'demo build', run: 'pnpm --filter @signet/demo build' },
    // The import rules (docs/decisions.md, "Dependency rules"): no cycles, generic code knows no domain.
    { name: 'check:deps', run: 'pnpm check:deps' },
    { name: 'typecheck', run: 'pnpm typecheck' },
    { name: 'size', run: 'pnpm size' },
    { name: 'e2e', run: 'pnpm test:e2e', env: built },
    { name: 'host apps', run: 'pnpm test:hosts', env: built },
    // The release path: `pnpm release` of those tarballs to a local registry, a host installing them from it by name
    // (docs/releases.md).
    { name: 'registry', run: 'pnpm test:registry', env: built, needs: ['packs'] },
    // Every phase of the server's benchmark still runs (its figures are not judged here).
    { name: 'bench:server smoke', run: 'pnpm bench:server', env: { BENCH_SMOKE: '1' } },
    { name: 'firefox', run: 'pnpm test:firefox', env: built, needs: ['demo build', 'packs'] },
    { name: 'webkit', run: 'pnpm test:webkit', env: built, needs: ['demo build', 'packs'] },
    // The viewer's benchmark (its figures are not judged here).
    { name: 'bench:viewer smoke', run: 'pnpm bench:viewer', env: { BENCH_SMOKE: '1' } },
    // The viewer's suite again on React 18: in this lane since the type check became the shorter (TypeScript 7).
    { name: 'vitest (React 18)', run: 'pnpm exec vitest run --project "@signet/viewer (React 18)"' },
    // The packages' suites and the server as a process on Node 22 and 24 (docs/decisions.md, "Node versions").
    { name: 'node 22 + 24', run: 'node scripts/test-node-versions.mjs --ci' },
    // The container image built with podman and run: signed on PostgreSQL, its store kept on a volume
    // (docs/operations.md, "Container image"). Last, so that no step rebuilds the embed script it copies; the
    // server it builds into its own folder.
    { name: 'image', run: 'pnpm test:image', env: { SIGNET_IMAGE_USE_BUILT: '1' }, needs: ['packs'] },
  ],
};

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : undefined;

/** Each step's outcome, by name, as a promise its dependants wait on. */
const outcomes = new Map();
const results = [];

function runStep(stage, step) {
  const log = join(logs, `${step.name.replace(/\W+/g, '-')}.log`);
  const out = createWriteStream(log);
  const started = performance.now();
  return new Promise((resolve) => {
    // `times` after the step: the CPU its processes used, for the table; a lower bound, since it counts only processes
    // waited for all the way up (docs/decisions.md, "Continuous integration").
    const timesFile = `${log}.times`;
    const child = spawn('bash', ['-c', `${step.run}\ncode=$?\ntimes > '${timesFile}'\nexit $code`], {
      cwd: root,
      env: { ...process.env, ...step.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code) => {
      out.end(() => {
        const seconds = (performance.now() - started) / 1000;
        const text = readFileSync(log, 'utf8');
        process.stdout.write(`\n===== ${stage} › ${step.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s =====\n`);
        process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
        results.push({ stage, step: step.name, seconds, cpuSeconds: childCpuSeconds(timesFile), ok: code === 0, counts: countTests(text) });
        resolve(code === 0);
      });
    });
  });
}

/**
 * The user and system CPU seconds of a step's processes, from bash's `times` (its second line: the children's), or
 * undefined when it did not run to the end.
 */
function childCpuSeconds(timesFile) {
  let text;
  try {
    text = readFileSync(timesFile, 'utf8');
  } catch {
    return undefined;
  }
  const seconds = [...(text.split('\n')[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => Number(m) * 60 + Number(s));
  return seconds.length === 2 ? seconds[0] + seconds[1] : undefined;
}

/** The tests a log says passed and failed: Vitest's closing line (summary-reporter) and Playwright's summary. */
function countTests(text) {
  let passed = 0;
  let failed = 0;
  let flaky = 0;
  for (const line of text.split('\n')) {
    const vitest = /^(\d+) passed, (\d+) failed(?:, \d+ skipped)?$/.exec(line.trim());
    if (vitest) {
      passed += Number(vitest[1]);
      failed += Number(vitest[2]);
      continue;
    }
    const playwrightPassed = /^\s*(\d+) passed \(/.exec(line);
    if (playwrightPassed) passed += Number(playwrightPassed[1]);
    const playwrightFailed = /^\s*(\d+) failed$/.exec(line);
    if (playwrightFailed) failed += Number(playwrightFailed[1]);
    // A Playwright test that failed and then passed on its retry (see e2e/playwright.config.ts).
    const playwrightFlaky = /^\s*(\d+) flaky$/.exec(line);
    if (playwrightFlaky) {
      passed += Number(playwrightFlaky[1]);
      flaky += Number(playwrightFlaky[1]);
    }
  }
  return { passed, failed, flaky, names: failureNames(text) };
}

/** Lines of a failure's message the closing table shows under its name. */
const MESSAGE_LINES = 10;

/** `text` cut to `width` characters, an ellipsis marking the cut. */
const clip = (text, width) => (text.length > width ? `${text.slice(0, width - 3)}...` : text);

/**
 * The names of the tests a log says failed (Vitest's `FAIL` and `×` lines, Playwright's numbered failures and
 * retries), so that the closing table, the part of a CI log most often read, says which tests they were; with the
 * message Vitest printed under a failure's `FAIL` heading (its error line and the lines after it, up to the diff or
 * the stack), which says how it failed.
 */
function failureNames(text) {
  const names = new Map();
  let heading;
  // Vitest colours its output even with FORCE_COLOR=0; the colour codes go before matching.
  for (const line of text.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
    const vitest = /^\s*(?:FAIL|×)\s+(.+?)\s*(?:\d+ms)?$/.exec(line);
    const playwright = /^\s+\d+\) (\S+\.spec\.ts:\d+:\d+ .+?)[\s─]*$/.exec(line);
    const listed = /^\s+(?:\[[\w-]+\] › )?(tests\/\S+\.spec\.ts:\d+:\d+ › .+?)\s*$/.exec(line);
    const name = vitest?.[1] ?? playwright?.[1] ?? listed?.[1];
    if (name) {
      const shown = clip(name, 160);
      if (!names.has(shown)) names.set(shown, []);
      // A failure's message is read once: a retry's FAIL heading adds nothing under the name.
      heading = /^\s*FAIL\s/.test(line) && names.get(shown).length === 0 ? shown : undefined;
      continue;
    }
    if (!heading) continue;
    const message = names.get(heading);
    if (message.length === 0) {
      const error = /^\s*((?:\w*Error|Error)\b.*)$/.exec(line);
      if (error) message.push(clip(error[1], 240));
    } else if (/^\s*(?:- Expected|❯|⎯)/.test(line) || message.length >= MESSAGE_LINES) {
      heading = undefined;
    } else if (line.trim()) {
      message.push(clip(line.trimEnd(), 240));
    }
  }
  return [...names].map(([name, message]) => [name, ...message].join('\n      '));
}

const wanted = Object.entries(stages).filter(([stage]) => !only || only.includes(stage));
const wantedSteps = new Set(wanted.flatMap(([, steps]) => steps.map((step) => step.name)));
const allSteps = new Map(Object.entries(stages).flatMap(([stage, steps]) => steps.map((step) => [step.name, { stage, step }])));

/** Starts `name` once (a step a wanted stage needs runs even if its own stage was not asked for). */
function start(name) {
  if (!outcomes.has(name)) {
    const { stage, step } = allSteps.get(name);
    outcomes.set(
      name,
      (async () => {
        await Promise.all((step.after ?? []).filter((name) => wantedSteps.has(name)).map(start));
        const needed = await Promise.all((step.needs ?? []).map(start));
        if (needed.every(Boolean)) return runStep(stage, step);
        results.push({ stage, step: step.name, seconds: 0, ok: false, counts: { passed: 0, failed: 0, flaky: 0, names: [] }, skipped: true });
        process.stdout.write(`\n===== ${stage} › ${step.name}: not run, a step it needs failed =====\n`);
        return false;
      })(),
    );
  }
  return outcomes.get(name);
}

const runStarted = performance.now();
const stageResults = await Promise.all(
  wanted.map(async ([, steps]) => {
    let ok = true;
    for (const step of steps) {
      // A failed step does not stop the rest of its stage: CI should report every failure of a run at once.
      ok = (await start(step.name)) && ok;
    }
    return ok;
  }),
);

const total = (performance.now() - runStarted) / 1000;
const cpu = (r) => (r.cpuSeconds === undefined ? '' : `  ${r.cpuSeconds.toFixed(0).padStart(5)} s CPU`);
const rows = results.map((r) => `${r.stage.padEnd(9)} ${r.step.padEnd(18)} ${r.skipped ? 'not run' : `${r.seconds.toFixed(0).padStart(5)} s`}  ${r.ok ? 'passed' : 'FAILED'}${cpu(r)}`);
const cpuTotal = results.reduce((sum, r) => sum + (r.cpuSeconds ?? 0), 0);
const summary = [
  '',
  '===== stage times =====',
  ...rows,
  `${'whole run'.padEnd(28)} ${total.toFixed(0).padStart(5)} s       >= ${cpuTotal.toFixed(0).padStart(5)} s CPU (processes not waited for are not counted)`,
  ...results.flatMap((r) => r.counts.names.map((name) => `  ${r.step}: ${name}`)).map((line, i) => (i === 0 ? `failed or retried:\n${line}` : line)),
  `logs: ${logs}`,
].join('\n');
writeFileSync(join(logs, 'summary.txt'), summary);
console.log(summary);
const passed = results.reduce((sum, r) => sum + r.counts.passed, 0);
// A step that failed without a failed test (a typecheck, a budget, a crash) counts as one failure.
const failed = results.reduce((sum, r) => sum + (r.counts.failed || (r.ok ? 0 : 1)), 0);
const flaky = results.reduce((sum, r) => sum + r.counts.flaky, 0);
console.log(`\n${passed} passed, ${failed} failed${flaky ? ` (${flaky} passed only on a retry)` : ''}`);
process.exit(stageResults.every(Boolean) ? 0 : 1);
