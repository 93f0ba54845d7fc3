import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FieldDefinition } from '@signet/contract';
import { newId } from '../ids.js';
import type { PdfPool } from '../pdf/pool/index.js';
import { createPdfPool } from '../pdf-worker/index.js';
import { sampleFields } from '../pdf/sample.js';
import type { DocumentRecord, Organization } from '../storage/types.js';
import { buildPayload, call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { isLargeDocument, sealTimeLimit } from './seal-limits.js';
import { createTestPki, type TestPki } from '../../test/sealing/signing/test-pki.js';
import { largeTextPdf } from '../../test/sealing/test-large-pdf.js';
import { until } from '../../test/sealing/test-seal-jobs.js';
import { storeDocument } from '../documents/create-document.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import type { JobRunner } from '../jobs/runner.js';
import { sealRunner } from './seal-kind.js';
import { findSealState } from '../storage/queries/seals.js';

/*
 * Seals whose work scales with the document, on the real app (submissions through `app.request`), real storage on
 * both engines, a real PDF pool and the real seal worker:
 * - a 10,000-page document (17 MB, inside the upload limit) seals on its first attempt, its time limit scaled to
 *   its size, while another organization's 3-page document, submitted while it seals, is sealed on its first attempt
 *   within its own (unscaled) time limit: the large one does not hold every worker;
 * - a seal stopped at its time limit is tried again with twice the time, and fails naming the ceiling once it had
 *   it; one stopped at the memory cap fails at once, naming it.
 */
const LARGE_PAGES = 10_000;

let pki: TestPki;
let largePdf: Uint8Array;

beforeAll(async () => {
  [pki, largePdf] = await Promise.all([createTestPki(), largeTextPdf(LARGE_PAGES)]);
}, 60_000);

describe.each(engines)('seals scaled to their document on $name', (engine) => {
  let t: TestApp;
  let pool: PdfPool | undefined;
  let worker: JobRunner | undefined;

  afterEach(async () => {
    await worker?.stop();
    await pool?.close();
    await t?.close();
    worker = undefined;
    pool = undefined;
  });

  /** The real seal worker over `t`'s storage, with a pool of the app's configuration. */
  function sealWorker(options: { concurrency?: number; now?: () => Date } = {}): JobRunner {
    pool = createPdfPool(t.config.pdfPool);
    return sealRunner({
      storage: t.storage,
      pdfPool: pool,
      logger: t.logger,
      config: t.config.sealing,
      signingKey: async () => pki.selfSigned,
      ...options,
    });
  }

  /** A document of `pdf` stored as an upload would store it (the upload's own checks are not under test). */
  function storePdf(organization: Organization, pdf: Uint8Array, pageCount: number, fields: FieldDefinition[]): Promise<DocumentRecord> {
    return storeDocument(t.storage,
      {
        id: newId('doc'),
        organizationId: organization.id,
        filename: `${pageCount}-pages.pdf`,
        mimeType: 'application/pdf',
        pageCount,
        fileSize: pdf.byteLength,
        sha256: createHash('sha256').update(pdf).digest('hex'),
        fields,
        createdAt: new Date().toISOString(),
      },
      pdf,
    );
  }

  async function submit(document: DocumentRecord, key: string): Promise<void> {
    const response = await call(t, 'POST', '/sdk/documents/submit', { key, body: await buildPayload(document) });
    expect(response.status, await response.clone().text()).toBe(201);
  }

  const sealedLog = (documentId: string) => t.logs.find((line) => line.msg === 'document sealed' && line.documentId === documentId);

  it(
    "seals a 10,000-page document on its first attempt, and another organization's 3-page one beside it within its own limit",
    async () => {
      // A base of 30 s rather than 10: the test machine's other work must not turn a slow 3-page seal into a retry
      // (what is under test is that it is not stuck behind the large one, and that the large one's limit scales).
      t = await createTestApp(engine, { PDF_WORKERS: '2', PDF_TASK_TIMEOUT_MS: '30000', SEAL_POLL_MS: '50' });
      const base = t.config.pdfPool.taskTimeoutMs;
      const limits = t.config.sealing.limits;
      const other = await ensureOrganization(t.storage.db.query, `other-${newId('org').slice(-6).toLowerCase()}`, 'Other Org');
      const largeFields = sampleFields(LARGE_PAGES).filter((field) => field.page === LARGE_PAGES);
      const large = await storePdf(t.org, largePdf, LARGE_PAGES, largeFields);
      const small = await t.createDocument({ organizationId: other.id });
      expect(large.fileSize).toBeLessThanOrEqual(t.config.maxPdfBytes);
      expect(isLargeDocument(limits, base, large)).toBe(true);
      expect(isLargeDocument(limits, base, small)).toBe(false);

      worker = sealWorker({ concurrency: t.config.pdfPool.workers });
      worker.start();
      // Two seals at once first, so that both PDF workers have loaded the sealing code before the race below.
      const warmups = await Promise.all([t.createDocument(), t.createDocument()]);
      const pk = (await t.createKey()).secret;
      await Promise.all(warmups.map((document) => submit(document, pk)));
      worker.wake('seal');
      for (const { id } of warmups) await until(async () => (await findSealState(t.storage.db.query, id)).sealed ?? undefined, 'sealed', { timeoutMs: 60_000 });

      await submit(large, pk);
      worker.wake('seal');
      await until(async () => ((await findSealState(t.storage.db.query, large.id)).job?.status === 'running' ? true : undefined), 'running', { timeoutMs: 30_000 });

      const submitted = performance.now();
      await submit(small, (await t.createKey({}, other.id)).secret);
      worker.wake('seal');
      await until(async () => (await findSealState(t.storage.db.query, small.id)).sealed ?? undefined, 'sealed', { timeoutMs: 60_000 });
      const smallMs = performance.now() - submitted;
      const smallLimit = sealTimeLimit(limits, base, small, 1);
      expect(smallMs).toBeLessThan(smallLimit);
      expect((await findSealState(t.storage.db.query, small.id)).job).toMatchObject({ status: 'sealed', attempts: 1 });

      await until(async () => (await findSealState(t.storage.db.query, large.id)).sealed ?? undefined, 'sealed', { timeoutMs: 240_000 });
      expect((await findSealState(t.storage.db.query, large.id)).job).toMatchObject({ status: 'sealed', attempts: 1, lastError: null });
      const largeLimit = sealTimeLimit(limits, base, large, 1);
      expect(largeLimit).toBeGreaterThan(2 * base);
      expect(sealedLog(large.id)).toMatchObject({ limitMs: largeLimit, pages: LARGE_PAGES, large: true });
      expect(sealedLog(small.id)).toMatchObject({ limitMs: smallLimit, pages: 3, large: false });
      expect(t.logs.filter((line) => /seal (attempt )?failed/.test(String(line.msg)))).toEqual([]);
      // Sealed beside the large one, not behind it.
      expect(Number(sealedLog(small.id)!.time)).toBeLessThan(Number(sealedLog(large.id)!.time));
      console.info(`${engine.name}: 10,000-page seal ${String(sealedLog(large.id)!.ms)} ms (limit ${largeLimit} ms); 3-page beside it ${Math.round(smallMs)} ms`);
    },
    300_000,
  );

  it('tries a seal stopped at its time limit again with twice the time, and fails naming the ceiling once it had it', async () => {
    t = await createTestApp(engine, {
      PDF_WORKERS: '1',
      PDF_TASK_TIMEOUT_MS: '100',
      SEAL_TIMEOUT_PER_PAGE_MS: '0',
      SEAL_TIMEOUT_PER_MIB_MS: '0',
      SEAL_TIMEOUT_MAX_MS: '200',
    });
    let offset = 0;
    worker = sealWorker({ now: () => new Date(Date.now() + offset) });
    const document = await t.createDocument();
    await submit(document, (await t.createKey()).secret);

    expect(await worker.runOnce('seal')).toBe(true);
    expect((await findSealState(t.storage.db.query, document.id)).job).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'the seal took longer than its time limit of 100 ms; the next attempt is given twice as long, up to 200 ms (SEAL_TIMEOUT_MAX_MS)',
    });
    offset += 3_600_000;
    expect(await worker.runOnce('seal')).toBe(true);
    const { job, sealed } = await findSealState(t.storage.db.query, document.id);
    expect(sealed).toBeNull();
    expect(job).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastError: 'the seal took longer than 200 ms, the most any seal may take (SEAL_TIMEOUT_MAX_MS)',
    });
    expect(await worker.runOnce('seal')).toBe(false);
  }, 60_000);

  it('seals, on a later attempt, a document whose first attempts ran out of time, each given twice the time before', async () => {
    t = await createTestApp(engine, {
      PDF_WORKERS: '1',
      PDF_TASK_TIMEOUT_MS: '100',
      SEAL_TIMEOUT_PER_PAGE_MS: '0',
      SEAL_TIMEOUT_PER_MIB_MS: '0',
      SEAL_TIMEOUT_MAX_MS: '60000',
      SEAL_MAX_ATTEMPTS: '12',
    });
    let offset = 0;
    worker = sealWorker({ now: () => new Date(Date.now() + offset) });
    const document = await t.createDocument();
    await submit(document, (await t.createKey()).secret);
    const reasons: Array<string | null> = [];
    for (let attempt = 1; attempt <= 12; attempt++) {
      expect(await worker.runOnce('seal')).toBe(true);
      const { job } = await findSealState(t.storage.db.query, document.id);
      if (job!.status === 'sealed') break;
      reasons.push(job!.lastError);
      offset += 3_600_000;
    }
    const { job, sealed } = await findSealState(t.storage.db.query, document.id);
    expect(sealed).not.toBeNull();
    expect(job!.attempts).toBeGreaterThan(1);
    expect(reasons).toEqual(
      reasons.map((_, index) => `the seal took longer than its time limit of ${100 * 2 ** index} ms; the next attempt is given twice as long, up to 60000 ms (SEAL_TIMEOUT_MAX_MS)`),
    );
    expect(sealedLog(document.id)).toMatchObject({ limitMs: 100 * 2 ** (job!.attempts - 1) });
  }, 120_000);

  it('fails a seal stopped at the memory cap at once, naming SEAL_MEMORY_MB', async () => {
    t = await createTestApp(engine, { PDF_WORKERS: '1', PDF_WORKER_MEMORY_MB: '128', SEAL_MEMORY_MB: '128' });
    worker = sealWorker();
    const document = await t.createDocument();
    await submit(document, (await t.createKey()).secret);
    expect(await worker.runOnce('seal')).toBe(true);
    const { job, sealed } = await findSealState(t.storage.db.query, document.id);
    expect(sealed).toBeNull();
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job!.lastError).toMatch(/^the seal needed more memory than a PDF worker may use while sealing, 128 MiB \(SEAL_MEMORY_MB\): /);
  }, 60_000);
});

