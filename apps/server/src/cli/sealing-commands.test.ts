import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerifyResultSchema } from '@signet/contract';
import { createDocument } from '../documents/create-document.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { createTestPki, type TestPki } from '../../test/sealing/signing/test-pki.js';
import { sealedIn, signet, startSealing, until } from '../../test/sealing/test-seal-jobs.js';
import { openStorage } from '../storage/index.js';
import type { DocumentRecord, SealJob } from '../storage/types.js';
import { buildPayload, call, createTestApp, type TestApp } from '../../test/support/harness.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { deliveryQueue } from '../webhooks/delivery-queue.js';
import type { JobSummary } from '../jobs/types.js';
import { findSealState, readSealedContent } from '../storage/queries/seals.js';
import { listWebhookDeliveries } from '../storage/queries/webhook-deliveries.js';

/*
 * The sealing commands of the real `signet` command line, each run to its end in a child process, on an embedded
 * store the test fills through the app and the real seal worker: a sealed document, one whose seal failed (an
 * expired certificate), one never submitted, and a sealed document of another organization. The commands that only
 * read run side by side; retrying and the standalone worker come after, in order.
 */
let dir: string;
let env: Record<string, string>;
let t: TestApp;
let pki: TestPki;
let sealed: DocumentRecord;
let failed: DocumentRecord;
let unsubmitted: DocumentRecord;
let foreign: DocumentRecord;
let sealedFile: string;

/** Submits `document` through the app with a pk key of its organization. */
async function submit(document: DocumentRecord, organizationId = t.org.id) {
  const { secret } = await t.createKey({ kind: 'pk' }, organizationId);
  const response = await call(t, 'POST', '/sdk/documents/submit', { key: secret, body: await buildPayload(document) });
  expect(response.status).toBe(201);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-cli-sealing-'));
  env = { DATABASE_URL: `file:${join(dir, 'signet.db')}` };
  pki = await createTestPki();
  t = await createTestApp({ name: 'sqlite', open: () => openStorage(env.DATABASE_URL!) });

  failed = await t.createDocument({ pages: 1 });
  await submit(failed);
  expect(await t.sealDue(pki.expired)).toBe(1);

  const other = await ensureOrganization(t.storage.db.query, 'other-org', 'Other');
  const pdf = await generateSamplePdf({ pages: 1 });
  foreign = await createDocument(t.storage, {
    organizationId: other.id,
    filename: 'theirs.pdf',
    bytes: pdf,
    fields: sampleFields(1),
    maxPdfBytes: t.config.maxPdfBytes,
  });
  await submit(foreign, other.id);
  sealed = await t.createDocument({ pages: 2 });
  await submit(sealed);
  expect(await t.sealDue(pki.signer)).toBe(2);
  unsubmitted = await t.createDocument({ pages: 1 });

  const { sealed: record } = await findSealState(t.storage.db.query, sealed.id);
  sealedFile = join(dir, 'sealed.pdf');
  await writeFile(sealedFile, await readSealedContent(t.storage.db.query, sealed.id, 0, record!.fileSize - 1));
  const flipped = new Uint8Array(await readFile(sealedFile));
  // Inside the original document, which the seal keeps as its byte prefix.
  flipped[Math.floor(sealed.fileSize / 2)]! ^= 0x01;
  await writeFile(join(dir, 'flipped.pdf'), flipped);
  await writeFile(join(dir, 'plain.pdf'), pdf);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Exit 1 with one line on stderr, `signet: …`. */
function expectRefusal(result: { code: number; stderr: string }, message: RegExp) {
  expect(result.code).toBe(1);
  expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^signet: /)]);
  expect(result.stderr).toMatch(message);
}

/** Each command starts a Node process that loads the whole CLI: seconds of CPU, several of them side by side. */
const COMMAND_TIMEOUT_MS = 60_000;

describe.concurrent('signet jobs, documents signed and verify', { timeout: COMMAND_TIMEOUT_MS }, () => {
  it('jobs list prints one line a job, newest first, with its state, attempts and the last failure', async () => {
    const { code, stdout } = await signet(env, 'jobs', 'list');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual([sealed.id, foreign.id, failed.id]);
    expect(lines[0]).toMatch(/^doc_\S+ {2}sealed +attempts 1 {2}updated \S+Z$/);
    expect(lines[2]).toMatch(/^doc_\S+ {2}failed +attempts 1 {2}updated \S+Z {2}The signing certificate has expired/);
  });

  it('jobs list --json prints the jobs as data', async () => {
    const { code, stdout } = await signet(env, 'jobs', 'list', '--json');
    expect(code).toBe(0);
    const jobs = JSON.parse(stdout) as SealJob[];
    expect(jobs.map((job) => [job.documentId, job.status])).toEqual([
      [sealed.id, 'sealed'],
      [foreign.id, 'sealed'],
      [failed.id, 'failed'],
    ]);
    expect(jobs[2]).toMatchObject({ attempts: 1, leaseOwner: null, lastError: expect.stringMatching(/has expired/) });
  });

  it('jobs list --kind and --status keep to a kind and a state, in the runner\'s words or the kind\'s', async () => {
    const [dead, failedWord, webhooks] = await Promise.all([
      signet(env, 'jobs', 'list', '--kind', 'seal', '--status', 'dead', '--json'),
      signet(env, 'jobs', 'list', '--status', 'failed'),
      signet(env, 'jobs', 'list', '--kind', 'webhook'),
    ]);
    expect((JSON.parse(dead.stdout) as JobSummary[]).map((job) => [job.kind, job.id, job.state, job.status])).toEqual([
      ['seal', failed.id, 'dead', 'failed'],
    ]);
    expect(failedWord.stdout.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^${failed.id} {2}failed `))]);
    expect(webhooks).toMatchObject({ code: 0, stdout: 'No jobs.\n' });
  });

  it('jobs retry refuses, with one line, an unknown document and a sealed one', async () => {
    const [unknown, done] = await Promise.all([
      signet(env, 'jobs', 'retry', 'doc_nothere'),
      signet(env, 'jobs', 'retry', sealed.id),
    ]);
    expectRefusal(unknown, /no seal job for doc_nothere/);
    expectRefusal(done, new RegExp(`the seal of ${sealed.id} is sealed: only failed or pending jobs are retried`));
  });

  it('documents signed --out writes the stored seal, byte for byte; refuses an unsealed document', async () => {
    const out = join(dir, 'out.pdf');
    const [written, notSealed] = await Promise.all([
      signet(env, 'documents', 'signed', sealed.id, '--out', out),
      signet(env, 'documents', 'signed', failed.id, '--out', join(dir, 'never.pdf')),
    ]);
    expect(written.code).toBe(0);
    const { sealed: record } = await findSealState(t.storage.db.query, sealed.id);
    const { fileSize, sha256, sealedAt } = record!;
    expect(written.stdout.trim()).toBe(`Wrote ${out}: ${fileSize} bytes, SHA-256 ${sha256}, sealed ${sealedAt}.`);
    expect(Buffer.compare(await readFile(out), await readFile(sealedFile))).toBe(0);
    const why = 'its seal is failed \\(The signing certificate has expired';
    expectRefusal(notSealed, new RegExp(`${failed.id} is not sealed: ${why}`));
  });

  it('verify: a sealed file is intact (exit 0); one flipped byte is ALTERED, another PDF not sealed (exit 2)', async () => {
    const [intact, altered, plain] = await Promise.all([
      signet(env, 'verify', sealedFile),
      signet(env, 'verify', join(dir, 'flipped.pdf')),
      signet(env, 'verify', join(dir, 'plain.pdf')),
    ]);
    const { sealed: record } = await findSealState(t.storage.db.query, sealed.id);
    const named = `document ${sealed.id}, submission ${record!.submissionId}`;
    // The verdict's line, then what the file's signature proves of itself (its PAdES level, chain, timestamps).
    expect(intact.code).toBe(0);
    expect(intact.stdout).toMatch(new RegExp(`^Sealed ${record!.sealedAt}: ${named}; intact\\.\\nPAdES level: B-`));
    expect(altered.code).toBe(2);
    expect(altered.stdout).toMatch(new RegExp(`^Sealed ${record!.sealedAt}: ${named}; ALTERED since it was sealed\\.\\nPAdES level: `));
    expect(plain.code).toBe(2);
    expect(plain.stdout).toMatch(/^Not sealed by this Signet instance \(SHA-256 [0-9a-f]{64}\)\.$/m);
  });

  it("verify --org answers only for that organization's seals", async () => {
    const [elsewhere, own] = await Promise.all([
      signet(env, 'verify', sealedFile, '--org', 'other-org', '--json'),
      signet(env, 'verify', sealedFile, '--org', t.org.slug, '--json'),
    ]);
    expect(elsewhere.code).toBe(2);
    const notOurs = VerifyResultSchema.parse(JSON.parse(elsewhere.stdout));
    expect(notOurs).toEqual({ sealed: false, intact: false, sha256: expect.any(String), pades: expect.objectContaining({ level: expect.any(String) }) });
    expect(own.code).toBe(0);
    const ours = VerifyResultSchema.parse(JSON.parse(own.stdout));
    expect(ours).toMatchObject({ sealed: true, intact: true, documentId: sealed.id });
  });
});

describe('signet jobs retry, then signet worker', { timeout: COMMAND_TIMEOUT_MS }, () => {
  it('retry puts a failed job back to pending; the worker seals it and stops on SIGTERM', async () => {
    const retried = await signet(env, 'jobs', 'retry', failed.id);
    expect(retried).toMatchObject({ code: 0, stdout: `Seal of ${failed.id} queued again.\n` });
    expect((await findSealState(t.storage.db.query, failed.id)).job).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await findSealState(t.storage.db.query, unsubmitted.id)).job).toBeNull();

    const worker = await startSealing('worker', {
      ...env,
      SIGNET_SIGNING_P12: pki.signer.path,
      SIGNET_SIGNING_P12_PASSWORD: pki.signer.password,
      SEAL_POLL_MS: '50',
    });
    try {
      expect(worker.stderr()).toMatch(new RegExp(`^Signet seal worker ${worker.address} running \\(sqlite\\)$`, 'm'));
      const sealedByWorker = async () => ((await findSealState(t.storage.db.query, failed.id)).sealed ? true : undefined);
      await until(sealedByWorker, 'sealed by signet worker', { timeoutMs: 30_000 });
      expect(await worker.stop()).toBe(0);
      expect(sealedIn(worker.logs())).toEqual([failed.id]);
      const { job } = await findSealState(t.storage.db.query, failed.id);
      expect(job).toMatchObject({ status: 'sealed', attempts: 1, lastError: null });
    } finally {
      await worker.kill9();
    }
  });
});

describe('signet jobs with webhook deliveries', { timeout: COMMAND_TIMEOUT_MS }, () => {
  it('lists a delivery that gave up among the jobs, and retry makes it due again with a fresh count', async () => {
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const created = await call(t, 'POST', '/webhooks', { key: sk, body: { url: 'https://93.184.216.34/hooks', events: ['document.sealed'] } });
    expect(created.status).toBe(201);
    const { id: webhookId } = ((await created.json()) as { data: { id: string } }).data;
    const test = await call(t, 'POST', `/webhooks/${webhookId}/test`, { key: sk });
    expect(test.status).toBe(202);
    // Its dispatcher gave up on it (the last attempt of the schedule).
    const queue = deliveryQueue();
    const [taken] = await queue.claim(t.storage.db, { owner: 'gone', now: new Date(), leaseMs: 60_000, limit: 1 });
    expect(await queue.settle(t.storage.db, 'gone', taken!, { state: 'dead', at: new Date(), error: 'HTTP 500' })).toBe(true);

    const listed = await signet(env, 'jobs', 'list', '--kind', 'webhook', '--status', 'dead', '--json');
    expect(JSON.parse(listed.stdout)).toMatchObject([{ kind: 'webhook', id: taken!.id, state: 'dead', status: 'failed', attempts: 1, lastError: 'HTTP 500', webhookId }]);
    const retried = await signet(env, 'jobs', 'retry', taken!.id);
    expect(retried).toMatchObject({ code: 0, stdout: `Delivery ${taken!.id} queued again (a running dispatcher sends it: signet serve or signet worker).\n` });
    const [delivery] = await listWebhookDeliveries(t.storage.db.query, webhookId, { limit: 10 });
    expect(delivery).toMatchObject({ id: taken!.id, status: 'pending', attempts: 0 });
    expectRefusal(await signet(env, 'jobs', 'retry', 'dlv_nothere'), /no job dlv_nothere that is dead or waiting/);
  });
});
