/**
 * Test support for the seal job tests: `signet serve` and `signet worker` as child processes whose log lines are
 * kept, a timestamp authority that holds requests at a gate (a seal in flight for as long as a test wants), seeded
 * submissions, and what the store and `pdfsig` say of each document's seal.
 */
import { execFile } from 'node:child_process';
import { hash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { createApiKeyRecord } from '../../src/documents/seed.js';
import { pendingDocument, type SamplePdf } from '../hardening/fuzz-targets.js';
import { submitOnce, type ClientSubmission } from '../hardening/submission-client.js';
import { startSignet, type LogLine, type SignetProcess } from '../hardening/server-process.js';
import { generateSamplePdf, sampleFields } from '../../src/pdf/sample.js';

export type { LogLine, SignetProcess };
import { openStorage } from '../../src/storage/index.js';
import type { SealJob, SealedDocument, Storage } from '../../src/storage/types.js';
import { buildPayload } from '../support/harness.js';
import { runSignet, type CommandResult } from '../support/cli.js';
import { withPdfFile } from './render/test-poppler.js';
import { listAuditEvents } from '../../src/storage/queries/audit.js';
import { ensureOrganization } from '../../src/storage/queries/organizations.js';
import { findSealState, listSealJobs, readSealedContent } from '../../src/storage/queries/seals.js';

const run = promisify(execFile);

/**
 * `signet serve` or `signet worker` with its log kept (level info): `startSignet` of `hardening/server-process.ts`.
 * @example const worker = await startSealing('worker', { DATABASE_URL }); … await worker.stop();
 */
export function startSealing(command: 'serve' | 'worker', env: Record<string, string>): Promise<SignetProcess> {
  return startSignet(command, { LOG_LEVEL: 'info', ...env }, { keepLogs: true });
}

/** What a `signet` command printed, and its exit code. */
/**
 * Runs the real `signet` command line to its end with `env` over this process's environment.
 * @example const { code, stdout } = await signet({ DATABASE_URL }, 'jobs', 'list', '--json');
 */
export function signet(env: Record<string, string>, ...args: string[]): Promise<CommandResult> {
  return runSignet(args, { env });
}

/** The documents a process's log says it sealed, in order. */
export const sealedIn = (logs: LogLine[]): string[] =>
  logs.filter((line) => line.msg === 'document sealed').map((line) => String(line.documentId));

/** A timestamp authority in front of another that answers the first `pass` requests and holds the rest. */
export interface GatedTsa {
  url: string;
  /** Requests received so far. */
  received(): number;
  /** Resolves once a request is being held. */
  holding(): Promise<void>;
  /** Lets every held and later request through. */
  open(): void;
  close(): Promise<void>;
}

/**
 * A loopback proxy to the timestamp authority at `upstream` (e.g. `startTestTsa().url`) that forwards the first
 * `pass` requests and holds each later one until `open()`: a seal waits at its timestamp, in flight, as long as a
 * test needs it to.
 * @example const gate = await startGatedTsa(tsa.url, 2); await gate.holding(); await server.kill9(); gate.open();
 */
export async function startGatedTsa(upstream: string, pass: number): Promise<GatedTsa> {
  let count = 0;
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        if (++count > pass) {
          held();
          await opened;
        }
        const answer = await fetch(upstream, {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query' },
          body: Buffer.concat(chunks),
        });
        const body = Buffer.from(await answer.arrayBuffer());
        const type = answer.headers.get('content-type') ?? 'application/octet-stream';
        response.writeHead(answer.status, { 'content-type': type }).end(body);
      })().catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    received: () => count,
    holding: () => holding,
    open: () => release(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        release();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A pk key, and `count` pending documents with their payloads, not yet sent. */
export interface SeededSubmissions {
  pk: string;
  submissions: ClientSubmission[];
}

/**
 * Seeds `databaseUrl` (documents stored directly, as the durability tests do: no preview is drawn) with `count`
 * pending documents of one to three pages, and a valid submission payload for each.
 * @example const { pk, submissions } = await seedSubmissions(store.databaseUrl, 8);
 */
export async function seedSubmissions(databaseUrl: string, count: number): Promise<SeededSubmissions> {
  const storage = await openStorage(databaseUrl);
  try {
    const org = await ensureOrganization(storage.db.query, 'sealing', 'Sealing');
    const pk = await createApiKeyRecord(storage, { organizationId: org.id, kind: 'pk', rateLimit: 1_000_000_000 });
    const pdfs: SamplePdf[] = [];
    for (const pages of [1, 2, 3]) {
      pdfs.push({ bytes: await generateSamplePdf({ pages }), fields: sampleFields(pages), pages });
    }
    const submissions: ClientSubmission[] = [];
    for (let i = 0; i < count; i++) {
      const document = await pendingDocument(storage, pdfs[i % pdfs.length]!, org.id);
      const payload = (await buildPayload(document)) as ClientSubmission['payload'];
      submissions.push({ documentId: document.id, payload, idempotencyKey: undefined, contradicted: [], unanswered: 0 });
    }
    return { pk: pk.key, submissions };
  } finally {
    await storage.close();
  }
}

/** Submits every one of `submissions` to `url`, `concurrency` at a time; resolves with how many were acknowledged. */
export async function submitAll(url: string, pk: string, submissions: ClientSubmission[], concurrency = 8) {
  const queue = [...submissions];
  let acknowledged = 0;
  const client = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if ((await submitOnce(url, pk, next)) === 'acknowledged') acknowledged++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return acknowledged;
}

/**
 * Polls `check` every `everyMs` (100) until it returns a value other than `undefined`; after `timeoutMs` rejects, saying
 * what `seen` saw last. A bound on a wait for a state, not a timed assertion.
 * @example const { sealed } = await until(() => findSealState(storage.db.query, id).then((s) => s.sealed ? s : undefined), 'sealed');
 */
export async function until<T>(
  check: () => Promise<T | undefined>,
  what: string,
  options: { timeoutMs?: number; everyMs?: number; seen?: () => Promise<unknown> } = {},
): Promise<T> {
  const { timeoutMs = 60_000, everyMs = 100, seen } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const last = seen ? `; last seen: ${JSON.stringify(await seen())}` : '';
      throw new Error(`not ${what} within ${timeoutMs} ms${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Resolves once `count` jobs are sealed; after `timeoutMs` rejects with how many jobs are in each state. */
export function untilSealed(storage: Storage, count: number, timeoutMs: number): Promise<true> {
  return until(async () => ((await jobsByStatus(storage)).sealed?.length === count ? true : undefined), `${count} sealed`, {
    timeoutMs,
    seen: async () => Object.entries(await jobsByStatus(storage)).map(([status, jobs]) => `${status}: ${jobs.length}`),
  });
}

/** Jobs by status, of every job in the store. */
export async function jobsByStatus(storage: Storage): Promise<Record<string, SealJob[]>> {
  const byStatus: Record<string, SealJob[]> = {};
  for (const job of await listSealJobs(storage.db.query, { limit: 10_000 })) (byStatus[job.status] ??= []).push(job);
  return byStatus;
}

/** What the store holds of one document's seal, read back as a verifier would. */
export interface SealRecord {
  job: SealJob | null;
  sealed: SealedDocument | null;
  /** How many `document.sealed` events its audit trail has. */
  sealedEvents: number;
  /** The stored file, when sealed. */
  content: Uint8Array | null;
  /** Whether the stored file's SHA-256 is the one recorded. */
  sha256Matches: boolean;
}

export async function sealRecord(storage: Storage, documentId: string): Promise<SealRecord> {
  const { job, sealed } = await findSealState(storage.db.query, documentId);
  const events = await listAuditEvents(storage.db.query, documentId);
  const content = sealed ? await readSealedContent(storage.db.query, documentId, 0, sealed.fileSize - 1) : null;
  return {
    job,
    sealed,
    sealedEvents: events.filter((event) => event.type === 'document.sealed').length,
    content,
    sha256Matches: content !== null && sealed !== null && hash('sha256', content, 'hex') === sealed.sha256,
  };
}

/** `pdfsig`'s report on `pdf`. It exits 0 even on a digest mismatch: judge by its output. */
export async function pdfsig(pdf: Uint8Array): Promise<string> {
  return withPdfFile(pdf, async (path) => (await run('pdfsig', [path])).stdout);
}
