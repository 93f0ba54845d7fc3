import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChild } from './child.js';
import { runPhase, type PhaseResult } from './load.js';
import { poolWorkerPids, withWorkerPeak, workerResidentBytes } from './pool-memory.js';
import { createSealFixtures, sealSubmissionBody, type SealDocumentKind, type SealFixtures } from './seal-fixtures.js';
import { measureSealLevels, type SealLevelsOutcome } from './seal-levels.js';

/*
 * The sealing phases of `pnpm bench:server`, on a server process of their own (its own embedded store, the seal
 * worker on, the PDF pool at its default size, the development signing certificate it generates on first start):
 * - seal: one warm-up seal, then 3-page submissions one at a time, each waited for until sealed (latency with the
 *   queue idle), a burst of 3-page submissions sent at once (sealed/s), and 300-page submissions one at a time; the
 *   PDF workers' resident memory is sampled throughout. Then the loaded seal: 3-page submissions one at a time while
 *   another organization's 10,000-page document and its 4096² 16-bit photo document are sealing (`loadedSeal`).
 *   Last, 3-page seals at PAdES B-T against B-LTA, on two servers of their own with a local timestamp authority
 *   and revocation services (`seal-levels.ts`).
 * - get-sealing: the GET phase's request against this server with the queue idle, then again right after a burst of
 *   3-page submissions, while the worker seals them.
 * "Sealed" is what a client sees: `GET /documents/{id}` answering `sealing.status: 'sealed'`, polled every `pollMs`.
 * The server's own times come from its log after it stopped: `document sealed` lines (written once the sealed PDF is
 * stored, with the seal's time in the pool) against each submission's `timestamp` (when the server received it).
 */

export interface SealSettings {
  /** 3-page submissions sent one after another, each waited for until sealed. */
  idle: number;
  /** 3-page submissions sent at once. */
  burst: number;
  /** 300-page submissions, one after another. */
  large: number;
  largePages: number;
  /** 3-page submissions sent at once right before the GET load of get-sealing. */
  getBurst: number;
  /** How often a waiting client asks whether a document is sealed (ms). */
  pollMs: number;
  /** 3-page seals timed at B-T and at B-LTA each, alternating, on servers of their own (`seal-levels.ts`). */
  levels: number;
  /**
   * The loaded seal: 3-page submissions one at a time (`count`), each waited for, while another organization's
   * `hugePages`-page document and its one-page document with a `photoSide`² 16-bit RGBA photo are sealing.
   */
  loaded: { count: number; hugePages: number; photoSide: number };
}

/** One submission, from the client's side and the server's. */
export interface TimedSeal {
  documentId: string;
  /** When the client sent it and when it saw it sealed (epoch ms). */
  sentAt: number;
  sealedSeenAt: number;
  /** The submission's `timestamp`: when the server received it (epoch ms). */
  receivedAt: number;
  /** The sk key that reads its sealing status (its organization's). */
  readKey: string;
  /** From the server's log: when it stored the seal (epoch ms), and how long the seal took in the pool (ms). */
  storedAt?: number;
  poolMs?: number;
}

/** The loaded seal: 3-page seals while another organization's huge and photo documents seal. */
export interface LoadedSeal {
  huge: DocumentShape;
  photo: { side: number; bytes: number };
  /** The 3-page seals, and how many of them were seen sealed while the huge document was still unsealed. */
  small: TimedSeal[];
  whileHuge: number;
  hugeSeal: TimedSeal;
  photoSeal: TimedSeal;
}

export interface SealOutcome {
  documents: { small: DocumentShape; large: DocumentShape };
  /** Null when the seal phase did not run. */
  loaded: LoadedSeal | null;
  /** PDF worker processes of the sealing server. */
  workers: number;
  setupMs: number;
  pollMs: number;
  idle: TimedSeal[];
  burst: { seals: TimedSeal[]; seconds: number } | null;
  large: TimedSeal[];
  /** One PDF worker's resident memory: after the warm-up seal, and its peaks while sealing each kind (bytes). */
  memory: { idleBytes: number; smallPeakBytes: number; largePeakBytes: number } | null;
  /** The GET load's seal burst: submitted, stored within the measured window, and how many were still unsealed after it. */
  getBurst: { submitted: number; sealedInWindow: number; unsealedAfter: number } | null;
  /** Seal attempts the server logged as failed. */
  failedAttempts: number;
  /** The PAdES comparison (`seal-levels.ts`); null when the seal phase did not run. */
  levels: SealLevelsOutcome | null;
  serverExitCode: number | null;
  results: { getIdle?: PhaseResult; getDuringSeals?: PhaseResult };
}

interface DocumentShape {
  pageCount: number;
  fields: number;
  fieldPages: number[];
  bytes: number;
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a client of the sealing server does: submit a document and wait until it is sealed. */
export function sealClient(url: string, fixtures: SealFixtures, pollMs: number) {
  async function sealingStatus(documentId: string, readKey = fixtures.readKey): Promise<string> {
    const response = await fetch(`${url}/documents/${documentId}`, { headers: { 'X-API-Key': readKey } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET /documents/${documentId}: ${response.status}: ${text.slice(0, 300)}`);
    const status = (JSON.parse(text) as { data: { sealing: { status: string } } }).data.sealing.status;
    if (status === 'failed') throw new Error(`the seal of ${documentId} failed (see the seal server's log)`);
    return status;
  }

  return {
    take(kind: SealDocumentKind): string {
      const id = kind.ids.shift();
      if (id === undefined) throw new Error(`out of fresh ${kind.pageCount}-page documents for the sealing phases`);
      return id;
    },

    async submit(kind: SealDocumentKind, documentId: string): Promise<TimedSeal> {
      const body = await sealSubmissionBody(kind, documentId);
      const sentAt = now();
      const response = await fetch(`${url}/sdk/documents/submit`, {
        method: 'POST',
        headers: { 'X-API-Key': kind.keys.submit, 'Content-Type': 'application/json' },
        body,
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`submission of ${documentId}: ${response.status}: ${text.slice(0, 300)}`);
      const receivedAt = Date.parse((JSON.parse(text) as { timestamp: string }).timestamp);
      return { documentId, sentAt, receivedAt, sealedSeenAt: Number.NaN, readKey: kind.keys.read };
    },

    /**
     * Polls until every one of `seals` is sealed, in the order given (the queue's), asking about the next only once
     * the one before it is sealed, so that waiting costs the server about one request every `pollMs`.
     */
    async waitSealed(seals: TimedSeal[], timeoutMs: number): Promise<void> {
      const deadline = now() + timeoutMs;
      let next = 0;
      while (next < seals.length) {
        while (next < seals.length && (await sealingStatus(seals[next]!.documentId, seals[next]!.readKey)) === 'sealed') {
          seals[next++]!.sealedSeenAt = now();
        }
        if (next === seals.length) return;
        if (now() > deadline) throw new Error(`${seals.length - next} of ${seals.length} documents not sealed within ${timeoutMs / 1000} s`);
        await sleep(pollMs);
      }
    },

    sealingStatus,
  };
}
type SealClient = ReturnType<typeof sealClient>;

/** Runs `task` over `items`, `limit` at a time, keeping the results in order. */
async function mapLimit<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await task(items[index]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** One document at a time: submitted, then waited for until sealed. */
async function oneAtATime(client: SealClient, kind: SealDocumentKind, count: number, timeoutMs: number): Promise<TimedSeal[]> {
  const seals: TimedSeal[] = [];
  for (let i = 0; i < count; i++) {
    const seal = await client.submit(kind, client.take(kind));
    await client.waitSealed([seal], timeoutMs);
    seals.push(seal);
  }
  return seals;
}

/** The `seal` phase: warm-up, idle latency, a burst, the large documents; one PDF worker's memory throughout. */
async function sealPhase(serverPid: number, client: SealClient, fixtures: SealFixtures, settings: SealSettings) {
  const { small, large } = fixtures;
  // The first seal of a worker loads fonts, PDFium and the signing code: not counted.
  await oneAtATime(client, small, 1, 60_000);
  const idleBytes = workerResidentBytes(serverPid);
  const idle = await withWorkerPeak(serverPid, () => oneAtATime(client, small, settings.idle, 60_000));
  const burst = await withWorkerPeak(serverPid, async () => {
    const ids = Array.from({ length: settings.burst }, () => client.take(small));
    const started = now();
    const seals = await Promise.all(ids.map((id) => client.submit(small, id)));
    await client.waitSealed(seals, 120_000 + settings.burst * 5_000);
    return { seals, seconds: (Math.max(...seals.map((seal) => seal.sealedSeenAt)) - started) / 1000 };
  });
  // After the small ones: a worker's resident memory seldom shrinks, so the large seals must come last.
  const largeSeals = await withWorkerPeak(serverPid, () => oneAtATime(client, large, settings.large, 120_000));
  const loaded = fixtures.heavy ? await loadedSeal(client, small, fixtures.heavy, settings.loaded.count) : null;
  return {
    loaded,
    idle: idle.result,
    burst: burst.result,
    large: largeSeals.result,
    memory: { idleBytes, smallPeakBytes: Math.max(idle.peakBytes, burst.peakBytes), largePeakBytes: largeSeals.peakBytes },
  };
}

/**
 * The loaded seal: another organization submits its huge document and its photo document, then 3-page submissions
 * are sent one at a time, each waited for until sealed, while the huge one is still unsealed (at most `count`);
 * then both heavy ones are waited for.
 */
async function loadedSeal(client: SealClient, small: SealDocumentKind, heavy: NonNullable<SealFixtures['heavy']>, count: number) {
  const hugeSeal = await client.submit(heavy.huge, client.take(heavy.huge));
  const photoSeal = await client.submit(heavy.photo, client.take(heavy.photo));
  const seals: TimedSeal[] = [];
  let whileHuge = 0;
  for (let i = 0; i < count; i++) {
    const seal = await client.submit(small, client.take(small));
    await client.waitSealed([seal], 120_000);
    seals.push(seal);
    if ((await client.sealingStatus(hugeSeal.documentId, hugeSeal.readKey)) === 'sealed') break;
    whileHuge++;
  }
  await client.waitSealed([photoSeal], 300_000);
  await client.waitSealed([hugeSeal], 300_000);
  const huge = { pageCount: heavy.huge.pageCount, fields: heavy.huge.fields.length, fieldPages: [heavy.huge.pageCount], bytes: heavy.huge.bytes };
  return { huge, photo: heavy.photo.photo, small: seals, whileHuge, hugeSeal, photoSeal };
}

/**
 * The `get-sealing` phase: the GET phase's request with the seal queue idle, then right after `getBurst` 3-page
 * submissions, while the worker seals them; then how many of them were still unsealed.
 */
async function getSealingPhase(
  server: { url: string; pid: number },
  client: SealClient,
  fixtures: SealFixtures,
  options: { load: { connections: number; duration: number; warmup: number }; getBurst: number },
) {
  const get = {
    url: server.url,
    serverPid: server.pid,
    watchPids: poolWorkerPids(server.pid),
    method: 'GET' as const,
    path: `/sdk/documents/${fixtures.getDocumentId}`,
    headers: { 'X-API-Key': fixtures.submitKey },
    ...options.load,
  };
  const getIdle = await runPhase({ name: 'real GET, seal queue idle', ...get });
  const burstIds = Array.from({ length: options.getBurst }, () => client.take(fixtures.small));
  await mapLimit(burstIds, 8, (id) => client.submit(fixtures.small, id));
  const getDuringSeals = await runPhase({ name: 'real GET during a seal burst', ...get });
  const statuses = await mapLimit(burstIds, 8, (id) => client.sealingStatus(id));
  return { getIdle, getDuringSeals, burstIds, unsealedAfter: statuses.filter((status) => status !== 'sealed').length };
}

/** What the server logged about seals: each stored seal by document, and the failed attempts. */
function readSealLog(path: string): { stored: Map<string, { time: number; ms: number }>; failedAttempts: number } {
  const stored = new Map<string, { time: number; ms: number }>();
  let failedAttempts = 0;
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  for (const line of text.split('\n')) {
    if (!line.includes('"msg":"document sealed"') && !line.includes('"msg":"seal')) continue;
    const entry = JSON.parse(line) as { msg: string; time: number; ms?: number; documentId?: string };
    if (entry.msg === 'document sealed' && entry.documentId) stored.set(entry.documentId, { time: entry.time, ms: entry.ms ?? Number.NaN });
    else if (entry.msg.startsWith('seal attempt failed') || entry.msg.startsWith('seal failed')) failedAttempts++;
  }
  return { stored, failedAttempts };
}

function shapeOf(kind: SealDocumentKind): DocumentShape {
  return {
    pageCount: kind.pageCount,
    fields: kind.fields.length,
    fieldPages: [...new Set(kind.fields.map((field) => field.page))],
    bytes: kind.bytes,
  };
}

/**
 * Starts the sealing server on a fresh store in `dir`, runs the chosen sealing phases against it, stops it and
 * reads its log.
 * @example const outcome = await measureSealing({ dir, phases: { seal: true, getSealing: true }, load, seal })
 */
export async function measureSealing(options: {
  dir: string;
  phases: { seal: boolean; getSealing: boolean };
  load: { connections: number; duration: number; warmup: number };
  seal: SealSettings;
  appDir: string;
}): Promise<SealOutcome> {
  const { dir, phases, seal: settings } = options;
  const small = 1 + (phases.seal ? settings.idle + settings.burst + settings.loaded.count : 0) + (phases.getSealing ? settings.getBurst : 0);
  const fixtures = await createSealFixtures(dir, {
    small,
    large: phases.seal ? settings.large : 0,
    largePages: settings.largePages,
    heavy: phases.seal ? { pages: settings.loaded.hugePages, photoSide: settings.loaded.photoSide } : null,
  });
  const documents = { small: shapeOf(fixtures.small), large: shapeOf(fixtures.large) };
  const log = join(dir, 'seal-server.log');
  const server = await startChild({
    script: 'bench/serve.ts',
    cwd: options.appDir,
    env: { ...process.env, DATABASE_URL: fixtures.databaseUrl, BENCH_SERVER_LOG: log, SEAL_WORKER: 'true' },
  });
  const client = sealClient(server.url, fixtures, settings.pollMs);
  const workers = poolWorkerPids(server.pid).length;
  let measured: Awaited<ReturnType<typeof sealPhase>> | null = null;
  let getSealing: Awaited<ReturnType<typeof getSealingPhase>> | null = null;
  let serverExitCode: number | null = null;
  try {
    if (phases.seal) {
      process.stderr.write('running seal…\n');
      measured = await sealPhase(server.pid, client, fixtures, settings);
    }
    if (phases.getSealing) {
      process.stderr.write('running get-sealing…\n');
      getSealing = await getSealingPhase(server, client, fixtures, { load: options.load, getBurst: settings.getBurst });
    }
  } finally {
    serverExitCode = await server.stop();
  }
  let levels: SealLevelsOutcome | null = null;
  if (phases.seal) {
    process.stderr.write('running seal: B-T against B-LTA…\n');
    levels = await measureSealLevels({ dir, appDir: options.appDir, count: settings.levels, pollMs: settings.pollMs });
  }

  const { stored, failedAttempts } = readSealLog(log);
  const withLog = (seal: TimedSeal): TimedSeal => ({ ...seal, storedAt: stored.get(seal.documentId)?.time, poolMs: stored.get(seal.documentId)?.ms });
  const window = getSealing?.getDuringSeals.window;
  const sealedInWindow = (getSealing?.burstIds ?? []).filter((id) => {
    const time = stored.get(id)?.time;
    return window && time !== undefined && time >= window.start && time <= window.end;
  }).length;
  return {
    documents,
    workers,
    setupMs: fixtures.setupMs,
    pollMs: settings.pollMs,
    loaded: measured?.loaded
      ? {
          ...measured.loaded,
          small: measured.loaded.small.map(withLog),
          hugeSeal: withLog(measured.loaded.hugeSeal),
          photoSeal: withLog(measured.loaded.photoSeal),
        }
      : null,
    idle: measured?.idle.map(withLog) ?? [],
    burst: measured ? { seals: measured.burst.seals.map(withLog), seconds: measured.burst.seconds } : null,
    large: measured?.large.map(withLog) ?? [],
    memory: measured?.memory ?? null,
    getBurst: getSealing && { submitted: getSealing.burstIds.length, sealedInWindow, unsealedAfter: getSealing.unsealedAfter },
    failedAttempts,
    levels,
    serverExitCode,
    results: { getIdle: getSealing?.getIdle, getDuringSeals: getSealing?.getDuringSeals },
  };
}
