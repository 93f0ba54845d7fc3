/**
 * `pnpm bench:viewer`: how fast Signet's viewer shows a document, next to pdf.js's own viewer, and how much memory
 * it holds on to over a long document.
 *
 * One run: a real Signet server (SQLite, loopback) with a 1-page and a 300-page sample document; the bench page
 * (`bench/page/`) built for production by Vite and served precompressed from a process of its own
 * (`bench/static-server.ts`); Debian's Chromium through Playwright.
 * Every measurement gets a fresh browser context (empty HTTP cache, new pdf.js worker), after one discarded warm-up
 * per viewer; the two viewers alternate order over the repetitions, and medians are reported.
 *
 * - first paint / page drawn / interactive: see `bench/page/signet-entry.tsx` and `bench/page/pdfjs-entry.ts`; all
 *   start when the viewer is mounted and include fetching the document's metadata and the PDF. First paint is when
 *   page 1 is first on screen (for Signet, usually its server-rendered preview image); page drawn, when pdf.js's
 *   bitmap of page 1 is (the same moment for pdf.js's viewer, which shows nothing before).
 * - requests / KiB: what the server sent for the PDF file until first paint (bytes actually read off the response
 *   body, so an aborted download counts only what was sent).
 * - heap, for both viewers: the page's JS heap (`Runtime.getHeapUsage`, main thread only: the pdf.js worker is not
 *   included) after a forced garbage collection, once the 1-page file is shown (median of 3), and during a scroll of
 *   the 300-page file from top to bottom one viewport at a time (each step waits until the pages in view are drawn;
 *   sampled every 10 steps and at the end). Heap snapshots at both ends split the heap into compiled code (which
 *   grows as V8 optimizes the drawing code that a long scroll runs hot) and everything else. Canvases: the most
 *   `<canvas>` elements in the document at any moment.
 *
 * - builder: `<SigningBuilder>` on the same two PDFs as drafts (a builder session key each). Ready: the palette is
 *   enabled and page 1 on screen, as its preview image or drawn (`bench/page/builder-entry.tsx`), measured in each repetition after the two viewers and
 *   printed as a ratio to Signet's interactive time of that repetition (target ≤ 1). Drag: a field dragged across
 *   page 1 for 2 s by DevTools-protocol mouse moves on an 8 ms clock (a mouse's 125 Hz), in each profile; the 95th percentile of the
 *   intervals between the compositor's `DrawFrame` events in a Chromium trace (target ≤ 16.7 ms on the desktop),
 *   with the page's `requestAnimationFrame` intervals beside it.
 * - bundle sizes: the gzipped JavaScript of the viewer for a host page, with their budgets, as `pnpm size` measures
 *   them (`.size-limit.js` at the root of the repository: esbuild, minified, gzip -9).
 *
 * Environment: BENCH_SMOKE=1 for CI's quick check that it still runs, BENCH_REPS (default 5), BENCH_HEAP=0 to skip
 * the heap and scroll part, BENCH_HEAP_DETAIL=1 to list
 * what grew most between the two heap snapshots (by node type and constructor), BENCH_TRACE=<directory> to write a
 * Chromium trace of one more load per viewer, builder and file there, with JavaScript samples (open it in Perfetto or
 * chrome://tracing; the `bench-mount` and `bench-paint` marks delimit the measured span), and each drag's trace with
 * the compositor's and the display's work (`drag-<profile>-<document>.json`), BENCH_MINIFY=0 to build the bench page
 * unminified (the samples then name React's and Signet's functions), CHROMIUM_PATH (default /usr/bin/chromium).
 */
import type { FieldDefinition } from '@signet/contract';
import { generateSamplePdf, startLiveServer, type LiveServer } from '@signet/server/testing';
import react from '@vitejs/plugin-react';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright';
import { median } from 'simple-statistics';
import { build } from 'vite';
import { medianInterval } from './median-interval.js';
import type { BenchParams, MountTimes, ViewerName } from './page/protocol.js';

/**
 * `BENCH_SMOKE=1`: CI's check that the bench still runs, in seconds: one repetition, the desktop profile, no heap
 * part, a 20-page document in place of 300, a 0.5 s builder drag. Its figures mean nothing; only a failure does.
 */
const SMOKE = process.env.BENCH_SMOKE === '1';
const REPS = SMOKE ? 1 : Math.max(1, Number(process.env.BENCH_REPS ?? 5));
const HEAP = !SMOKE && process.env.BENCH_HEAP !== '0';
const LONG_PAGES = SMOKE ? 20 : 300;
const HEAP_DETAIL = Boolean(process.env.BENCH_HEAP_DETAIL);
const TRACE_DIR = process.env.BENCH_TRACE;
/** Main thread, workers, compilation, network and user timing: where a load's time goes, thread by thread. */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'v8.execute', 'blink.user_timing', 'loading', 'disabled-by-default-v8.cpu_profiler'];
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
/**
 * Where the loads are measured: a desktop, and a phone: a 390 × 844 viewport at 3 device pixels per CSS
 * pixel, touch, the CPU slowed 4× and DevTools' "Slow 4G" network (562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s
 * up: the preset's figures as DevTools applies them), both through the DevTools protocol.
 */
interface Profile {
  name: 'desktop' | 'phone';
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  mobile: boolean;
  cpuSlowdown?: number;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}
const PROFILES: Record<Profile['name'], Profile> = {
  desktop: { name: 'desktop', viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, mobile: false },
  phone: {
    name: 'phone',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    mobile: true,
    cpuSlowdown: 4,
    network: { latency: 562.5, downloadThroughput: (1.44 * 1024 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 },
  },
};
/** `BENCH_PROFILES`: which profiles' loads to measure (default both); the heap part runs on the desktop. */
const RUN_PROFILES = (SMOKE ? 'desktop' : (process.env.BENCH_PROFILES ?? 'desktop,phone')).split(',').map((name) => {
  const profile = PROFILES[name.trim() as Profile['name']];
  if (!profile) throw new Error(`BENCH_PROFILES: unknown profile ${name}`);
  return profile;
});
let profile: Profile = PROFILES.desktop;
const RUN_TIMEOUT_MS = 60_000;
const VIEWERS: Record<ViewerName, string> = { signet: 'Signet', pdfjs: 'pdf.js viewer' };

interface Traffic {
  reset(): void;
  take(): { requests: number; bytes: number };
}

/** Counts the PDF file requests the server answers and the body bytes it actually sends. */
function recordTraffic(live: LiveServer): Traffic {
  let requests = 0;
  let bytes = 0;
  live.intercept(async (request, next) => {
    const response = await next(request);
    if (!new URL(request.url).pathname.endsWith('/file') || !response.body) return response;
    requests++;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), { status: response.status, statusText: response.statusText, headers: response.headers });
  });
  return {
    reset: () => void (requests = bytes = 0),
    take: () => ({ requests, bytes }),
  };
}

function withTimeout<T>(promise: Promise<T>, what: string, ms = RUN_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs `use` on a bench page of its own: a fresh browser context (empty HTTP cache, new pdf.js worker) with the
 * viewer's entry loaded. The context is closed afterwards, whatever happens.
 */
async function withBenchPage<T>(browser: Browser, url: string, viewer: ViewerName | 'builder', use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.mobile,
    hasTouch: profile.mobile,
  });
  try {
    const page = await context.newPage();
    if (profile.cpuSlowdown || profile.network) {
      const cdp = await context.newCDPSession(page);
      if (profile.cpuSlowdown) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
      if (profile.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
    }
    page.on('pageerror', (error) => console.error(`[bench page] ${error.message}`));
    if (process.env.BENCH_CONSOLE) page.on('console', (message) => console.log(`[bench page] ${message.text()}`));
    await page.goto(url);
    await page.evaluate((name) => (name === 'builder' ? window.signetBench.loadBuilder() : window.signetBench.load(name)), viewer);
    return await use(page);
  } finally {
    await context.close();
  }
}

/** Mounts the loaded entry on the bench page and waits for its times. */
function mountViewer(page: Page, viewer: ViewerName, params: BenchParams): Promise<MountTimes> {
  return withTimeout(page.evaluate(([name, p]) => window.signetBench.run(name, p), [viewer, params] as const), `${viewer} load`);
}

interface Sample extends MountTimes {
  requests: number;
  bytes: number;
}

function measureLoad(browser: Browser, url: string, traffic: Traffic, viewer: ViewerName, params: BenchParams): Promise<Sample> {
  return withBenchPage(browser, url, viewer, async (page) => {
    traffic.reset();
    const times = await mountViewer(page, viewer, params);
    return { ...times, ...traffic.take() };
  });
}

/** One more load per viewer and file, each recorded as a Chromium trace in `directory`; returns the files written. */
async function traceLoads({ browser, pageUrl, files, drafts }: Bench, directory: string): Promise<string[]> {
  await mkdir(directory, { recursive: true });
  const written: string[] = [];
  for (const file of files) {
    for (const viewer of BOTH) {
      const path = join(directory, `${viewer}-${file.name.replace(/\W+/g, '-')}.json`);
      await withBenchPage(browser, pageUrl, viewer, async (page) => {
        await browser.startTracing(page, { path, categories: TRACE_CATEGORIES });
        try {
          await mountViewer(page, viewer, file.params);
        } finally {
          await browser.stopTracing();
        }
      });
      written.push(path);
    }
    {
      const path = join(directory, `builder-${file.name.replace(/\W+/g, '-')}.json`);
      await withBenchPage(browser, pageUrl, 'builder', async (page) => {
        await browser.startTracing(page, { path, categories: TRACE_CATEGORIES });
        try {
          await page.evaluate((p) => window.signetBench.runBuilder(p), drafts[files.indexOf(file)]!);
        } finally {
          await browser.stopTracing();
        }
      });
      written.push(path);
    }
  }
  return written;
}

/** A heap snapshot split into compiled code and the rest of the JS heap (Blink's native objects left out). */
interface HeapBreakdown {
  code: number;
  objects: number;
  /** Bytes by node type and name (a constructor, `(compiled code)`, a string…); filled for BENCH_HEAP_DETAIL only. */
  byName: Map<string, number>;
}

interface HeapProbe {
  /** The page's used JS heap, after a forced garbage collection if `collect`. */
  used(collect: boolean): Promise<number>;
  breakdown(): Promise<HeapBreakdown>;
}

/**
 * Heap readings of `page` through one CDP session, which closes with the page's context (a session per reading
 * would add its set-up and tear-down to every scroll step).
 */
async function heapProbe(page: Page): Promise<HeapProbe> {
  const cdp = await page.context().newCDPSession(page);
  const used = async (collect: boolean) => {
    if (collect) await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  const breakdown = async (): Promise<HeapBreakdown> => {
    const chunks: string[] = [];
    const onChunk = ({ chunk }: { chunk: string }) => void chunks.push(chunk);
    cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
    try {
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    } finally {
      cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
    }
    return splitSnapshot(chunks.join(''));
  };
  return { used, breakdown };
}

function splitSnapshot(json: string): HeapBreakdown {
  const snapshot = JSON.parse(json) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const { node_fields: fields, node_types: [types] } = snapshot.snapshot.meta;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const breakdown: HeapBreakdown = { code: 0, objects: 0, byName: new Map() };
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]!]!;
    const size = snapshot.nodes[i + sizeAt]!;
    if (type === 'code') breakdown.code += size;
    else if (type !== 'native') breakdown.objects += size;
    if (type === 'native' || !HEAP_DETAIL) continue;
    const name = type === 'string' || type === 'concatenated string' || type === 'sliced string' ? '(strings)' : `${type} ${snapshot.strings[snapshot.nodes[i + nameAt]!]!.slice(0, 60)}`;
    breakdown.byName.set(name, (breakdown.byName.get(name) ?? 0) + size);
  }
  return breakdown;
}

/** Mounts the viewer, lets it idle for a moment, and reads the heap after GC: the heap once the document is shown. */
async function mountAndSettle(page: Page, viewer: ViewerName, params: BenchParams): Promise<{ heap: HeapProbe; afterLoad: number }> {
  await mountViewer(page, viewer, params);
  await page.waitForTimeout(500);
  const heap = await heapProbe(page);
  return { heap, afterLoad: await heap.used(true) };
}

/** Heap after GC once the viewer shows the document, with its breakdown if asked. */
function heapAfterLoad(browser: Browser, url: string, viewer: ViewerName, params: BenchParams, withBreakdown: boolean) {
  return withBenchPage(browser, url, viewer, async (page) => {
    const { heap, afterLoad } = await mountAndSettle(page, viewer, params);
    return { used: afterLoad, breakdown: withBreakdown ? await heap.breakdown() : null };
  });
}

interface ScrollResult {
  steps: number;
  seconds: number;
  afterLoad: number;
  peakAfterGc: number;
  peakRaw: number;
  atEnd: number;
  breakdownAtEnd: HeapBreakdown;
  maxCanvases: number;
}

function scrollThrough(browser: Browser, url: string, viewer: ViewerName, params: BenchParams): Promise<ScrollResult> {
  return withBenchPage(browser, url, viewer, async (page) => {
    const { heap, afterLoad } = await mountAndSettle(page, viewer, params);
    let peakAfterGc = afterLoad;
    let peakRaw = afterLoad;
    const started = performance.now();
    let steps = 0;
    for (let end = false; !end; ) {
      end = await withTimeout(page.evaluate(() => window.signetBench.scrollStep()), 'scroll step');
      steps++;
      peakRaw = Math.max(peakRaw, await heap.used(false));
      if (steps % 10 === 0) peakAfterGc = Math.max(peakAfterGc, await heap.used(true));
    }
    await withTimeout(page.evaluate(() => window.signetBench.lastPagePainted()), 'last page');
    const seconds = (performance.now() - started) / 1000;
    const atEnd = await heap.used(true);
    peakAfterGc = Math.max(peakAfterGc, atEnd);
    const maxCanvases = await page.evaluate(() => window.signetBench.maxCanvases());
    return { steps, seconds, afterLoad, peakAfterGc, peakRaw, atEnd, breakdownAtEnd: await heap.breakdown(), maxCanvases };
  });
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const row = (cells: string[], widths: number[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
const BOTH = ['signet', 'pdfjs'] as const;

interface BenchFile {
  name: string;
  params: BenchParams;
}

interface Bench {
  browser: Browser;
  pageUrl: string;
  traffic: Traffic;
  files: [BenchFile, BenchFile];
  /** The same two PDFs as drafts, with a builder session key each (`files[i]`'s draft is `drafts[i]`). */
  drafts: [BenchParams, BenchParams];
}

/** What one profile's loads measured: the viewers' samples and the builder's ready times, by `file|viewer` and file. */
interface Loads {
  samples: Map<string, Sample[]>;
  builder: Map<string, number[]>;
}

/**
 * Load samples by file and viewer, alternating which viewer goes first; after each file's two viewers, the builder's
 * ready time on the same PDF as a draft (paired with Signet's interactive time of the same repetition).
 */
async function measureLoads({ browser, pageUrl, traffic, files, drafts }: Bench): Promise<Loads> {
  // Warm-up (discarded): the OS file cache, Chromium's first-process costs.
  for (const viewer of BOTH) await measureLoad(browser, pageUrl, traffic, viewer, files[0].params);
  await measureBuilderLoad(browser, pageUrl, drafts[0]);
  const samples = new Map<string, Sample[]>();
  const builder = new Map<string, number[]>();
  for (let rep = 0; rep < REPS; rep++) {
    const order: ViewerName[] = rep % 2 === 0 ? ['signet', 'pdfjs'] : ['pdfjs', 'signet'];
    for (const [i, file] of files.entries()) {
      for (const viewer of order) {
        const key = `${file.name}|${viewer}`;
        samples.set(key, [...(samples.get(key) ?? []), await measureLoad(browser, pageUrl, traffic, viewer, file.params)]);
      }
      builder.set(file.name, [...(builder.get(file.name) ?? []), await measureBuilderLoad(browser, pageUrl, drafts[i]!)]);
    }
    process.stdout.write(`  repetition ${rep + 1}/${REPS} done\n`);
  }
  return { samples, builder };
}

/** Prints the load table; returns the median first paint by `file|viewer`. */
function printLoads(files: BenchFile[], samples: Map<string, Sample[]>): Map<string, number> {
  const widths = [10, 14, 12, 12, 13, 9, 9, 22];
  console.log('\n' + row(['file', 'viewer', 'first paint', 'page drawn', 'interactive', 'requests', 'KiB', 'first paint min–max'], widths));
  const firstPaint = new Map<string, number>();
  for (const file of files) {
    for (const viewer of BOTH) {
      const list = samples.get(`${file.name}|${viewer}`)!;
      const paints = list.map((sample) => sample.firstPaint);
      firstPaint.set(`${file.name}|${viewer}`, median(paints));
      const drawn = ms(median(list.map((sample) => sample.pageDrawn)));
      const interactive = list.every((sample) => sample.interactive !== null) ? ms(median(list.map((sample) => sample.interactive!))) : '—';
      const requests = String(median(list.map((sample) => sample.requests)));
      const kib = (median(list.map((sample) => sample.bytes)) / 1024).toFixed(0);
      console.log(row([file.name, VIEWERS[viewer], ms(median(paints)), drawn, interactive, requests, kib, `${ms(Math.min(...paints))}–${ms(Math.max(...paints))}`], widths));
    }
  }
  return firstPaint;
}

interface HeapResult {
  afterLoad1p: number;
  breakdown1p: HeapBreakdown;
  scroll: ScrollResult;
}

async function measureHeaps({ browser, pageUrl, files }: Bench): Promise<Record<ViewerName, HeapResult>> {
  const results: Partial<Record<ViewerName, HeapResult>> = {};
  for (const viewer of BOTH) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await heapAfterLoad(browser, pageUrl, viewer, files[0].params, i === 2));
    const scroll = await scrollThrough(browser, pageUrl, viewer, files[1].params);
    results[viewer] = { afterLoad1p: median(runs.map((run) => run.used)), breakdown1p: runs[2]!.breakdown!, scroll };
    process.stdout.write(`  ${VIEWERS[viewer]}: 300 pages scrolled in ${scroll.steps} steps, ${scroll.seconds.toFixed(1)} s\n`);
  }
  return results as Record<ViewerName, HeapResult>;
}

function printHeaps(heaps: Record<ViewerName, HeapResult>): void {
  const widths = [14, 16, 30, 14, 10];
  console.log('\n' + row(['JS heap', '1 page loaded', '300 pages: loaded/peak/end', 'peak no GC', 'canvases'], widths));
  for (const viewer of BOTH) {
    const { afterLoad1p, scroll } = heaps[viewer];
    const span = `${(scroll.afterLoad / 2 ** 20).toFixed(2)} / ${(scroll.peakAfterGc / 2 ** 20).toFixed(2)} / ${mib(scroll.atEnd)}`;
    console.log(row([VIEWERS[viewer], mib(afterLoad1p), span, mib(scroll.peakRaw), String(scroll.maxCanvases)], widths));
  }
  console.log('Heap snapshots after GC (1 page loaded → 300 pages scrolled to the end):');
  for (const viewer of BOTH) {
    const before = heaps[viewer].breakdown1p;
    const after = heaps[viewer].scroll.breakdownAtEnd;
    const growth = (after.objects / before.objects).toFixed(2);
    console.log(`  ${VIEWERS[viewer].padEnd(14)} compiled code ${mib(before.code)} → ${mib(after.code)}; everything else ${mib(before.objects)} → ${mib(after.objects)} (×${growth})`);
    if (HEAP_DETAIL) printHeapGrowth(before, after);
  }
}

/** The node types and names whose bytes grew most between two snapshots. */
function printHeapGrowth(before: HeapBreakdown, after: HeapBreakdown): void {
  const names = new Set([...before.byName.keys(), ...after.byName.keys()]);
  const growth = [...names].map((name) => [name, (after.byName.get(name) ?? 0) - (before.byName.get(name) ?? 0)] as const);
  for (const [name, bytes] of growth.sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`      ${`${(bytes / 1024).toFixed(0)} KiB`.padStart(9)}  ${name}`);
  }
}

/** What the interval of the paired ratios' median says about the target ≤ `target`. */
function verdict(interval: [number, number] | null, target: number): string {
  if (!interval) return ' (too few repetitions for an interval: BENCH_REPS=9 or more)';
  if (interval[1] <= target) return ': met beyond this run\'s noise';
  if (interval[0] > target) return ': NOT met, beyond this run\'s noise';
  return `: not told apart from ${target.toFixed(1)} at this run's noise`;
}

/**
 * The median of the within-repetition ratios of Signet's `time` to pdf.js's `base` (the same time unless given),
 * with its interval and how many are within `target`.
 */
function pairedRatio(
  samples: Map<string, Sample[]>,
  file: BenchFile,
  time: 'firstPaint' | 'pageDrawn' | 'interactive',
  options: { base?: 'firstPaint' | 'pageDrawn'; target?: number } = {},
): string {
  // Each repetition measures both viewers back to back: their ratio cancels the machine's drift between repetitions.
  const { base = time === 'interactive' ? 'firstPaint' : time, target = 1 } = options;
  const pdfjs = samples.get(`${file.name}|pdfjs`)!;
  const paired = samples.get(`${file.name}|signet`)!.map((sample, rep) => sample[time]! / pdfjs[rep]![base]);
  const within = paired.filter((value) => value <= target).length;
  const interval = medianInterval(paired);
  const span = interval ? `, 95 % interval of that median ${interval[0].toFixed(2)}–${interval[1].toFixed(2)}` : '';
  return `median ${median(paired).toFixed(2)}${span}, ≤ ${target.toFixed(1)} in ${within} of ${paired.length}${verdict(interval, target)}`;
}

function printRatios(files: BenchFile[], samples: Map<string, Sample[]>, firstPaint: Map<string, number>, heaps: Record<ViewerName, HeapResult> | null): void {
  console.log('\nRatios');
  for (const file of files) {
    const ratio = firstPaint.get(`${file.name}|signet`)! / firstPaint.get(`${file.name}|pdfjs`)!;
    console.log(`  first paint Signet / pdf.js, ${file.name}: ${ratio.toFixed(2)} (target ≤ 1.0) ${ratio <= 1 ? 'met' : 'NOT met'}`);
    console.log(`    the same, within each repetition: ${pairedRatio(samples, file, 'firstPaint')}`);
    console.log(`    page drawn by pdf.js, within each repetition (for comparison): ${pairedRatio(samples, file, 'pageDrawn')}`);
    const interactive = samples.get(`${file.name}|signet`)!.every((sample) => sample.interactive !== null);
    if (interactive) {
      const ratio = pairedRatio(samples, file, 'interactive', { base: 'firstPaint', target: 0.8 });
      console.log(`  interactive Signet / first paint pdf.js, ${file.name} (target ≤ 0.8), within each repetition: ${ratio}`);
    }
  }
  if (!heaps) return;
  for (const viewer of BOTH) {
    const ratio = heaps[viewer].scroll.peakAfterGc / heaps[viewer].afterLoad1p;
    const target = viewer === 'signet' ? ` (target ≤ 1.5) ${ratio <= 1.5 ? 'met' : 'NOT met'}` : ' (for comparison)';
    console.log(`  heap 300-page peak / 1-page, ${VIEWERS[viewer]}: ${ratio.toFixed(2)}${target}`);
  }
}

/** The field the builder bench drags: a text field on page 1 of each draft. */
const DRAG_FIELD: FieldDefinition = { id: 'bench-field', type: 'text', page: 1, x: 0.1, y: 0.2, width: 0.25, height: 0.03, required: true, editable: true, label: 'Full name' };
/** How long a drag lasts, and the pointer's interval: one move per frame at 60 Hz. */
const DRAG_MS = SMOKE ? 500 : 2000;
/**
 * The pointer's clock: a USB mouse's default report rate (125 Hz). A mouse reports faster than the screen draws, so
 * every frame has a move to draw; moves on the screen's own 60 Hz clock would beat against its frames and leave some
 * without a move, which would then count as dropped frames of the builder.
 */
const MOVE_MS = 8;
/** What the drag's trace records: the compositor's frames (DevTools' frame track) and user timing for its marks. */
const DRAG_TRACE_CATEGORIES = ['disabled-by-default-devtools.timeline.frame', 'devtools.timeline', 'blink.user_timing', ...(TRACE_DIR ? ['cc', 'viz', 'gpu', 'benchmark', 'input'] : [])];

/**
 * A draft of the sample agreement (`pages` long, one text field on page 1) and a builder session key of it, as a host's
 * backend makes them: `POST /documents?draft=true` and `POST /documents/{id}/builder-sessions` with an sk key.
 */
async function createDraft(live: LiveServer, pages: number): Promise<BenchParams> {
  const managerKey = await live.createKey({ kind: 'sk' });
  const form = new FormData();
  const pdf = await generateSamplePdf({ pages });
  form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'agreement.pdf', { type: 'application/pdf' }));
  form.set('fields', JSON.stringify([DRAG_FIELD]));
  const answer = async (response: Response, what: string) => {
    const body = (await response.json()) as { data: unknown };
    if (response.status !== 201) throw new Error(`${what}: ${response.status} ${JSON.stringify(body)}`);
    return body.data;
  };
  const request = (path: string, init: RequestInit) => live.test.app.request(path, { ...init, headers: { 'X-API-Key': managerKey, ...init.headers } });
  const draft = (await answer(await request('/documents?draft=true', { method: 'POST', body: form }), 'creating a draft')) as { id: string };
  const session = (await answer(
    await request(`/documents/${draft.id}/builder-sessions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ allowSend: false }) }),
    'minting a builder session',
  )) as { key: string };
  return { baseUrl: live.url, documentId: draft.id, apiKey: session.key };
}

/** Mounts the builder on a fresh bench page and waits until a field can be dropped; ms from mount. */
function measureBuilderLoad(browser: Browser, url: string, params: BenchParams): Promise<number> {
  return withBenchPage(browser, url, 'builder', (page) => withTimeout(page.evaluate((p) => window.signetBench.runBuilder(p), params), 'builder load'));
}

interface DragResult {
  /** The frames the compositor drew during the drag (`dragFrames`). */
  drawn: DragFrames;
  /** Intervals between the page's animation frames during the drag, ms. */
  raf: number[];
  moves: number;
}

/**
 * Drags the draft's field across page 1 for `DRAG_MS`, once the pages in view are drawn: pressed at its centre, then one `Input.dispatchMouseEvent`
 * move per 8 ms (a mouse's 125 Hz) right across the page and back, drifting down a little, then released. Recorded meanwhile: a Chromium trace (the compositor's `DrawFrame` events between the `bench-drag`
 * marks) and the page's `requestAnimationFrame` timestamps.
 */
function measureDrag(browser: Browser, url: string, params: BenchParams): Promise<DragResult> {
  return withBenchPage(browser, url, 'builder', async (page) => {
    await withTimeout(page.evaluate((p) => window.signetBench.runBuilder(p), params), 'builder load');
    // The drag starts on a builder at rest: every page in view drawn, then half a second more.
    await withTimeout(page.evaluate(() => window.signetBench.builderSettled()), 'builder pages in view');
    await page.waitForTimeout(500);
    const { field, page: sheet } = await page.evaluate((id) => window.signetBench.builderBoxes(id), DRAG_FIELD.id);
    const cdp: CDPSession = await page.context().newCDPSession(page);
    const mouse = (type: 'mouseMoved' | 'mousePressed' | 'mouseReleased', x: number, y: number, buttons: number) =>
      cdp.send('Input.dispatchMouseEvent', { type, x, y, buttons, button: type === 'mouseMoved' && buttons === 0 ? 'none' : 'left', clickCount: type === 'mouseMoved' ? 0 : 1, pointerType: 'mouse' });
    const from = { x: field.x + field.width / 2, y: field.y + field.height / 2 };
    // Across the page: the field's right edge goes to 90 % of the page's width and comes back.
    const reach = Math.max(0, sheet.x + 0.9 * sheet.width - (field.x + field.width));
    const drop = Math.min(0.1 * sheet.height, 80);
    const chunks: Buffer[] = [];
    await browser.startTracing(page, { categories: DRAG_TRACE_CATEGORIES });
    let moves = 0;
    let raf: number[];
    try {
      await mouse('mouseMoved', from.x, from.y, 0);
      await page.evaluate(() => window.signetBench.startFrames());
      await mouse('mousePressed', from.x, from.y, 1);
      // Moves go out on the clock, one per 8 ms, without waiting for the previous one's answer: Chromium answers a
      // move once it has handled it, at its next frame, and waiting would pace the moves by the frames being measured.
      // At most 3 moves are in flight (a slow renderer gets them no faster than it takes them).
      const inFlight = new Set<Promise<unknown>>();
      const start = performance.now();
      for (let next = start; ; ) {
        const t = (performance.now() - start) / DRAG_MS;
        if (t >= 1) break;
        const across = t < 0.5 ? t * 2 : 2 - t * 2;
        const sent = mouse('mouseMoved', from.x + across * reach, from.y + t * drop, 1);
        inFlight.add(sent);
        void sent.finally(() => inFlight.delete(sent));
        moves++;
        if (inFlight.size >= 3) await Promise.race(inFlight);
        next += MOVE_MS;
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      await Promise.all(inFlight);
      await mouse('mouseReleased', from.x, from.y + drop, 0);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      raf = await page.evaluate(() => window.signetBench.stopFrames());
    } finally {
      chunks.push(await browser.stopTracing());
      if (TRACE_DIR) await mkdir(TRACE_DIR, { recursive: true });
      if (TRACE_DIR) await writeFile(join(TRACE_DIR, `drag-${profile.name}-${params.documentId}.json`), Buffer.concat(chunks));
    }
    return { drawn: dragFrames(Buffer.concat(chunks).toString('utf8')), raf, moves };
  });
}

/**
 * The drag's frames as the compositor reports them between the `bench-drag` marks, on its vsync clock (the
 * `BeginFrame` interval): each drawn frame (`DrawFrame`, numbered by the vsync it began on) lasted from the previous
 * frame, drawn or idle, to its own vsync, so a frame drawn one vsync late lasted two intervals. An idle frame (the
 * compositor's `PipelineReporter` says no update was desired: the field held still on a snap line) is not a dropped
 * one, as in DevTools' frames track. The wall-clock gaps between `DrawFrame` events are printed beside them; they also
 * hold each frame's jitter within its interval and the idle frames.
 */
function dragFrames(json: string): DragFrames {
  type TraceEvent = { name: string; ph: string; ts: number; pid: number; args?: { frameSeqId?: number; frame_reporter?: { state?: string; frame_sequence?: number } } };
  const parsed = JSON.parse(json) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const start = events.find((event) => event.name === 'bench-drag-start');
  const end = events.find((event) => event.name === 'bench-drag-end');
  if (!start || !end) throw new Error('builder drag: the trace lacks the bench-drag marks');
  const during = events.filter((event) => event.pid === start.pid && event.ts >= start.ts && event.ts <= end.ts);
  const draws = during.filter((event) => event.name === 'DrawFrame' && event.args?.frameSeqId !== undefined).sort((a, b) => a.ts - b.ts);
  // A drag that drew fewer than two frames measured nothing: the trace or the drag broke.
  if (draws.length < 2) throw new Error(`builder drag: ${draws.length} DrawFrame events in the trace between the bench-drag marks`);
  const begins = during.filter((event) => event.name === 'BeginFrame').map((event) => event.ts).sort((a, b) => a - b);
  const vsync = median(begins.slice(1).map((ts, i) => (ts - begins[i]!) / 1000)) || 1000 / 60;
  const idle = new Set(
    during
      .filter((event) => event.name === 'PipelineReporter' && event.ph === 'b' && event.args?.frame_reporter?.state === 'STATE_NO_UPDATE_DESIRED')
      .map((event) => event.args!.frame_reporter!.frame_sequence!),
  );
  const frames = draws.slice(1).map((draw, i) => {
    const [from, to] = [draws[i]!.args!.frameSeqId!, draw.args!.frameSeqId!];
    let since = from;
    for (let seq = from + 1; seq < to; seq++) if (idle.has(seq)) since = seq;
    return (to - since) * vsync;
  });
  return { frames, gaps: draws.slice(1).map((draw, i) => (draw.ts - draws[i]!.ts) / 1000), idle: idle.size, vsync };
}

interface DragFrames {
  /** Each drawn frame's time, ms: whole vsync intervals since the previous frame, drawn or idle. */
  frames: number[];
  /** Wall-clock gaps between consecutive `DrawFrame` events, ms. */
  gaps: number[];
  /** Frames in which nothing changed on screen. */
  idle: number;
  vsync: number;
}

/** The `p`th percentile (nearest rank) of `values`. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * The builder's ready times against Signet's interactive times, file by file (target ≤ 1), and against the viewer's
 * page drawn by pdf.js (for comparison: both show page 1's preview image before pdf.js draws it).
 */
function printBuilderLoads(files: BenchFile[], loads: Loads): void {
  const widths = [10, 24, 20, 20, 40];
  console.log('\n' + row(['file', 'builder ready', 'viewer interactive', 'viewer page drawn', 'builder / viewer interactive, per rep.'], widths));
  for (const file of files) {
    const ready = loads.builder.get(file.name)!;
    const viewer = loads.samples.get(`${file.name}|signet`)!;
    const interactive = viewer.every((sample) => sample.interactive !== null) ? ms(median(viewer.map((sample) => sample.interactive!))) : '—';
    const paired = viewer.every((sample) => sample.interactive !== null) ? ready.map((time, rep) => time / viewer[rep]!.interactive!) : [];
    const ratio = paired.length ? `median ${median(paired).toFixed(2)}, ≤ 1.0 in ${paired.filter((value) => value <= 1).length} of ${paired.length}` : '—';
    const drawn = ms(median(viewer.map((sample) => sample.pageDrawn)));
    console.log(row([file.name, `${ms(median(ready))} (${ms(Math.min(...ready))}–${ms(Math.max(...ready))})`, interactive, drawn, ratio], widths));
  }
  for (const file of files) {
    const viewer = loads.samples.get(`${file.name}|signet`)!;
    const ready = median(loads.builder.get(file.name)!);
    const drawn = ready / median(viewer.map((sample) => sample.pageDrawn));
    if (viewer.every((sample) => sample.interactive !== null)) {
      const ratio = ready / median(viewer.map((sample) => sample.interactive!));
      console.log(`  builder ready / viewer interactive, ${file.name}: ${ratio.toFixed(2)} (target ≤ 1.0) ${ratio <= 1 ? 'met' : 'NOT met'}`);
    }
    console.log(`    builder ready / viewer page drawn by pdf.js, ${file.name} (for comparison): ${drawn.toFixed(2)}`);
  }
}

/** Drags on each file's draft in every profile; the 95th-percentile frame times. */
async function measureDrags({ browser, pageUrl, files, drafts }: Bench): Promise<Array<{ profile: Profile; file: BenchFile; drag: DragResult }>> {
  const results = [];
  for (const next of RUN_PROFILES) {
    profile = next;
    for (const [i, file] of files.entries()) results.push({ profile: next, file, drag: await measureDrag(browser, pageUrl, drafts[i]!) });
  }
  profile = PROFILES.desktop;
  return results;
}

function printDrags(drags: Array<{ profile: Profile; file: BenchFile; drag: DragResult }>): void {
  const widths = [9, 10, 8, 34, 26, 28];
  console.log(`\n== builder: a field dragged across page 1 for ${DRAG_MS / 1000} s, a pointer move every ${MOVE_MS} ms (125 Hz, a USB mouse's rate)`);
  console.log(row(['profile', 'file', 'moves', 'frame time p95 / frames (late, idle)', 'DrawFrame gap p95 / median', 'rAF interval p95 / median'], widths));
  for (const { profile: measured, file, drag } of drags) {
    const { frames, gaps, idle, vsync } = drag.drawn;
    const late = frames.filter((frame) => frame > vsync * 1.5).length;
    const drawn = `${percentile(frames, 95).toFixed(1)} ms / ${frames.length + 1} (${late}, ${idle})`;
    const gap = `${percentile(gaps, 95).toFixed(1)} ms / ${median(gaps).toFixed(1)} ms`;
    const raf = `${percentile(drag.raf, 95).toFixed(1)} ms / ${median(drag.raf.length ? drag.raf : [Number.NaN]).toFixed(1)} ms`;
    console.log(row([measured.name, file.name, String(drag.moves), drawn, gap, raf], widths));
  }
  for (const { profile: measured, file, drag } of drags) {
    const p95 = percentile(drag.drawn.frames, 95);
    const target = measured.name === 'desktop' ? ` (target ≤ 16.7 ms) ${p95 <= 16.7 ? 'met' : 'NOT met'}` : ` (CPU ${measured.cpuSlowdown}× slower; no target)`;
    console.log(`  drag frame time p95, ${measured.name}, ${file.name}: ${p95.toFixed(1)} ms${target}`);
  }
}

/** The bundle sizes and budgets of `.size-limit.js` (`pnpm size`), printed beside the timings. */
async function printBundleSizes(): Promise<void> {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const run = await promisify(execFile)(join(root, 'node_modules/.bin/size-limit'), ['--json'], { cwd: root }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }), // over a budget, it exits 1 and still reports
  );
  const checks = JSON.parse(run.stdout) as Array<{ name: string; size: number; sizeLimit?: number; passed?: boolean }>;
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
  const widths = [86, 12, 12];
  console.log('\n' + row(['bundle (gzip -9)', 'size', 'budget'], widths));
  for (const check of checks) {
    const budget = check.sizeLimit === undefined ? '' : `${kb(check.sizeLimit)}${check.passed === false ? ' OVER' : ''}`;
    console.log(row([check.name, kb(check.size), budget], widths));
  }
}

/** Writes `name.gz` beside every compressible file under `directory`, as a deployment pipeline does for a CDN. */
async function precompress(directory: string): Promise<void> {
  const files = (await readdir(directory, { recursive: true })).filter((name) => /\.(m?js|css|html|json|svg|map)$/.test(name));
  await Promise.all(files.map(async (name) => writeFile(join(directory, `${name}.gz`), gzipSync(await readFile(join(directory, name)), { level: 9 }))));
}

/**
 * Builds the bench page for production and serves it, precompressed, from a process of its own
 * (`bench/static-server.ts`), as a host page's files are served apart from the Signet API in production; returns
 * its URL. (At first `vite preview` served it from this process: compressing the 1.2 MB pdf.js worker on every
 * request took 100–175 ms of CPU and held up the API's answers for whichever viewer had a request in flight; in a
 * process of its own it still took that CPU from the viewers on the machine's two cores.)
 */
async function serveBenchPage(cleanups: Array<() => Promise<unknown>>): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'signet-viewer-bench-'));
  cleanups.push(() => rm(outDir, { recursive: true, force: true }));
  const root = fileURLToPath(new URL('./page/', import.meta.url));
  await build({ root, configFile: false, logLevel: 'warn', plugins: [react()], build: { outDir, emptyOutDir: true, target: 'es2022', minify: process.env.BENCH_MINIFY !== '0' } });
  await precompress(outDir);

  const script = fileURLToPath(new URL('./static-server.ts', import.meta.url));
  const server = spawn(process.execPath, ['--import', 'tsx', script, outDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(server, 'exit');
  cleanups.push(async () => {
    server.kill();
    await exited;
  });
  // Its first line is the port it listens on.
  const port = await withTimeout(
    Promise.race([
      once(createInterface({ input: server.stdout! }), 'line').then(([line]) => String(line)),
      exited.then(([code]) => Promise.reject(new Error(`the static server exited with ${code}`))),
    ]),
    'the static server',
  );
  return `http://127.0.0.1:${port}/`;
}

async function main(): Promise<void> {
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    const profiles = RUN_PROFILES.map((p) => `${p.name} ${p.viewport.width}×${p.viewport.height}`).join(', ');
    console.log(`Signet viewer bench: ${REPS} repetitions, Chromium at ${CHROMIUM_PATH}, profiles: ${profiles}\n`);
    const live = await startLiveServer();
    cleanups.push(() => live.close());
    const traffic = recordTraffic(live);
    const apiKey = await live.createKey();
    const paramsOf = (document: { id: string }): BenchParams => ({ baseUrl: live.url, documentId: document.id, apiKey });
    const files: Bench['files'] = [
      { name: '1 page', params: paramsOf(await live.createDocument({ pages: 1 })) },
      { name: `${LONG_PAGES} pages`, params: paramsOf(await live.createDocument({ pages: LONG_PAGES })) },
    ];
    const drafts: Bench['drafts'] = [await createDraft(live, 1), await createDraft(live, LONG_PAGES)];
    const pageUrl = await serveBenchPage(cleanups);
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    cleanups.push(() => browser.close());
    const bench: Bench = { browser, pageUrl, traffic, files, drafts };

    const loads = [];
    for (const next of RUN_PROFILES) {
      profile = next;
      process.stdout.write(`Loads, ${profile.name} profile\n`);
      loads.push({ profile: next, ...(await measureLoads(bench)) });
    }
    profile = PROFILES.desktop;
    process.stdout.write('Builder drags\n');
    const drags = await measureDrags(bench);
    const heaps = HEAP ? await measureHeaps(bench) : null;
    for (const measuredLoads of loads) {
      const { profile: measured, samples } = measuredLoads;
      console.log(`\n== ${measured.name} profile: ${measured.viewport.width}×${measured.viewport.height}${measured.cpuSlowdown ? `, CPU ${measured.cpuSlowdown}× slower, Slow 4G` : ''}`);
      const firstPaint = printLoads(files, samples);
      printRatios(files, samples, firstPaint, measured.name === 'desktop' ? heaps : null);
      printBuilderLoads(files, measuredLoads);
    }
    printDrags(drags);
    if (heaps) printHeaps(heaps);
    await printBundleSizes();
    if (TRACE_DIR) console.log(`\nTraces: ${(await traceLoads(bench, TRACE_DIR)).join(', ')}`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error('cleanup failed:', error));
  }
}

await main();
