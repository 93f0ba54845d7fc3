import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStorage } from '../src/storage/index.js';
import { registerWebhook } from '../src/webhooks/manage.js';
import { startBenchServer, startChild, type ChildServer } from './child.js';
import { createFixtures, submitBodies } from './fixtures.js';
import { runPhase, type PhaseResult } from './load.js';
import { findOrganizationBySlug } from '../src/storage/queries/organizations.js';

/*
 * The webhooks phase of `pnpm bench:server`, on a server process of its own (its own embedded store, the
 * dispatcher on, the seal worker off) and a loopback receiver in another process (`webhook-sink.ts`):
 * - submit throughput with no endpoint subscribed (autocannon, as the submit phase);
 * - submit-to-delivery latency with the queue idle: one endpoint subscribed to `document.completed`, documents
 *   submitted one at a time, each timed from the POST to the receiver's arrival of its event;
 * - submit throughput again with 10 endpoints subscribed, the dispatcher sending at the same time (same server);
 * - deliveries per second: how fast the dispatcher then empties the backlog that load left (10 per submission).
 */

export interface WebhookSettings {
  /** Documents submitted one at a time for the latency. */
  latencyCount: number;
  /** Seconds of measured load in each throughput run, and of warm-up before it. */
  duration: number;
  warmup: number;
  connections: number;
  /** Endpoints subscribed in the second throughput run. */
  endpoints: number;
  /** The longest the backlog may take to drain before the rate is taken from what was delivered (s). */
  drainLimitSeconds: number;
}

export interface WebhookOutcome {
  setupMs: number;
  latency: { count: number; p50: number; p99: number; max: number };
  none: PhaseResult;
  subscribed: PhaseResult;
  /** Deliveries sent while the backlog (events fanned out, deliveries sent) drained, over how long, and whether it did. */
  drain: { deliveries: number; seconds: number; drained: boolean; left: number };
  /** Requests the receiver got beyond one per (endpoint, event). */
  duplicates: number;
  endpoints: number;
  serverExitCode: number | null;
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface SinkStats {
  requests: number;
  distinct: number;
}

async function stats(sink: ChildServer): Promise<SinkStats> {
  return (await (await fetch(`${sink.url}/stats`)).json()) as SinkStats;
}

/** Runs the phase; `appDir` is apps/server, `pool` the most submissions the two throughput runs may need. */
export async function measureWebhooks(settings: WebhookSettings, appDir: string, pool: number, keep = false): Promise<WebhookOutcome> {
  const started = performance.now();
  const fixtures = await createFixtures(pool + settings.latencyCount + 10);
  const bodies = await submitBodies();
  const secret = randomBytes(32).toString('hex');
  const ids = fixtures.submitDocumentIds;
  let next = 0;
  const take = () => {
    const id = ids[next++];
    if (!id) throw new Error('the webhooks phase ran out of fresh documents: raise BENCH_WEBHOOK_POOL');
    return id;
  };

  const sink = await startChild({ script: 'bench/webhook-sink.ts', cwd: appDir, env: process.env });
  const server = await startBenchServer(appDir, fixtures.databaseUrl, join(fixtures.dir, 'webhooks-server.log'), {
    SIGNET_SECRET: secret,
    SIGNET_WEBHOOKS_ALLOW_PRIVATE: 'true',
  });
  const storage = await openStorage(fixtures.databaseUrl);
  let outcome: WebhookOutcome | undefined;
  try {
    const organizationId = (await findOrganizationBySlug(storage.db.query, 'bench'))!.id;
    const subscribe = (index: number) =>
      registerWebhook(
        { storage, secret, allowPrivate: true, maxEndpoints: 1000 },
        { organizationId, url: `${sink.url}/hook-${index}`, events: ['document.completed'] },
      );
    const post = {
      method: 'POST' as const,
      path: '/sdk/documents/submit',
      headers: { 'X-API-Key': fixtures.apiKey, 'Content-Type': 'application/json' },
      url: server.url,
      serverPid: server.pid,
      connections: settings.connections,
      duration: settings.duration,
      warmup: settings.warmup,
      setupRequest: (request: { body?: unknown }) => ({ ...request, body: bodies.build(take()).body }),
    };
    const setupMs = performance.now() - started;

    process.stderr.write('running webhooks: submit, no endpoint…\n');
    const none = await runPhase({ name: 'POST, no endpoint', ...post });

    process.stderr.write('running webhooks: submit-to-delivery latency…\n');
    await subscribe(0);
    const latencies: number[] = [];
    for (let i = 0; i < settings.latencyCount; i++) {
      const documentId = take();
      const sent = now();
      const response = await fetch(`${server.url}/sdk/documents/submit`, { method: 'POST', headers: post.headers, body: bodies.build(documentId).body.toString('utf8') });
      if (response.status !== 201) throw new Error(`latency submission: ${response.status} ${await response.text()}`);
      for (;;) {
        const arrival = await fetch(`${sink.url}/arrival?documentId=${documentId}`);
        if (arrival.status === 200) {
          latencies.push(((await arrival.json()) as { arrival: number }).arrival - sent);
          break;
        }
        await arrival.arrayBuffer();
        if (now() - sent > 30_000) throw new Error(`no document.completed for ${documentId} within 30 s`);
        await sleep(1);
      }
    }
    latencies.sort((a, b) => a - b);

    process.stderr.write(`running webhooks: submit, ${settings.endpoints} endpoints…\n`);
    for (let index = 1; index < settings.endpoints; index++) await subscribe(index);
    const subscribed = await runPhase({ name: `POST, ${settings.endpoints} endpoints`, ...post });

    // What the load left: the events not fanned out yet and the deliveries not sent. The backlog is drained when the
    // store has no event left to fan out and the receiver has every delivery it holds.
    const drainStart = await stats(sink);
    const drainStarted = now();
    let last = drainStart;
    let owed = await backlog(fixtures.databaseUrl);
    while ((owed.events > 0 || last.distinct < owed.deliveries) && now() - drainStarted < settings.drainLimitSeconds * 1000) {
      await sleep(100);
      [last, owed] = [await stats(sink), await backlog(fixtures.databaseUrl)];
    }
    const target = owed.deliveries;
    const drainSeconds = (now() - drainStarted) / 1000;
    outcome = {
      setupMs,
      latency: { count: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1)! },
      none,
      subscribed,
      drain: { deliveries: last.distinct - drainStart.distinct, seconds: drainSeconds, drained: owed.events === 0 && last.distinct >= target, left: target - last.distinct },
      duplicates: last.requests - last.distinct,
      endpoints: settings.endpoints,
      serverExitCode: null,
    };
  } finally {
    await storage.close();
    const serverExitCode = await server.stop();
    // Set once it has stopped: whether it shut down cleanly after the load.
    if (outcome) outcome.serverExitCode = serverExitCode;
    await sink.stop();
    if (keep) process.stdout.write(`kept ${fixtures.dir}\n`);
    else rmSync(fixtures.dir, { recursive: true, force: true });
  }
  return outcome!;
}

/** Events not fanned out yet, and deliveries, in the store: read from the database file apart from the server. */
async function backlog(databaseUrl: string): Promise<{ events: number; deliveries: number }> {
  const { SqliteDatabase } = await import('../src/storage/sqlite-database.js');
  const db = new SqliteDatabase(databaseUrl.slice('file:'.length));
  try {
    const events = await db.get<{ n: number }>('SELECT count(*) AS n FROM webhook_events WHERE fanned_out = 0');
    const deliveries = await db.get<{ n: number }>('SELECT count(*) AS n FROM webhook_deliveries');
    return { events: Number(events?.n ?? 0), deliveries: Number(deliveries?.n ?? 0) };
  } finally {
    await db.close();
  }
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** The phase's section of the report. */
export function printWebhookReport(outcome: WebhookOutcome): void {
  const { latency, none, subscribed, drain } = outcome;
  const ratio = subscribed.requestsPerSecond / none.requestsPerSecond;
  const rate = drain.seconds > 0 ? drain.deliveries / drain.seconds : 0;
  const lines = [
    '',
    `webhooks: a server of its own (embedded store, dispatcher on), a loopback receiver in another process; setup ${fixed(outcome.setupMs / 1000, 1)} s`,
    `  submit-to-delivery, queue idle, ${latency.count} submissions one at a time: p50 ${fixed(latency.p50, 1)} ms, p99 ${fixed(latency.p99, 1)} ms, max ${fixed(latency.max, 1)} ms` +
      `   target p50 < 100 ms: ${verdict(latency.p50 < 100)}`,
    `  submit throughput, no endpoint:        ${fixed(none.requestsPerSecond)} req/s (p50 ${none.p50} ms, p99 ${none.p99} ms, non-2xx ${none.non2xx})`,
    `  submit throughput, ${outcome.endpoints} endpoints subscribed: ${fixed(subscribed.requestsPerSecond)} req/s (p50 ${subscribed.p50} ms, p99 ${subscribed.p99} ms, non-2xx ${subscribed.non2xx})` +
      `   ratio ${fixed(ratio * 100, 1)} %   target ≥ 80 %: ${verdict(ratio >= 0.8)}`,
    `  deliveries/s, draining the backlog of that run: ${fixed(rate)} /s (${drain.deliveries} in ${fixed(drain.seconds, 1)} s${drain.drained ? '' : `, ${drain.left} still owed at the limit`})` +
      `   target ≥ 1,000/s: ${verdict(rate >= 1000)}`,
    `  duplicates at the receiver: ${outcome.duplicates}; server exit code ${outcome.serverExitCode}`,
  ];
  console.log(lines.join('\n'));
}
