import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.js';
import { deepTransparentPng, truncatedPng } from '../../../test/hardening/hostile-images.js';
import { contentBombPdf, imageBombPdf, objectStreamBombPdf, slowToDrawPdf } from '../../../test/hardening/hostile-pdfs.js';
import { residentBytes } from '../../process-memory.js';
import { SealError } from '../../sealing/errors.js';
import { formPdf, sealInput, signaturePng, testFields } from '../../../test/sealing/render/test-pdfs.js';
import { createTestPki } from '../../../test/sealing/signing/test-pki.js';
import { generateSamplePdf } from '../sample.js';
import { createPdfPool } from '../../pdf-worker/index.js';
import { DEFAULT_PDF_POOL_OPTIONS, PdfLimitError, PdfPoolBusyError, type PdfPool, type PdfPoolEvent, type PdfPoolOptions } from './index.js';

const TSX = fileURLToPath(new URL('../../../../../node_modules/.bin/tsx', import.meta.url));

let pool: PdfPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function newPool(options: Partial<PdfPoolOptions> = {}): PdfPool {
  pool = createPdfPool({ workers: 1, taskTimeoutMs: 5000, ...options });
  return pool;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected the task to fail');
    },
    (error: Error) => error,
  );
}

// Workers start, inflate bombs and seal: a minute a test, as the other suites that fork workers give a loaded machine.
describe('PdfPool', { timeout: 60_000 }, () => {
  it('inspects and draws in a worker process, not in this one', async () => {
    const pdf = await generateSamplePdf({ pages: 2 });
    const pool = newPool();
    expect(await pool.run('inspect', pdf)).toEqual({ pageCount: 2 });
    expect(await pool.run('preview', pdf)).toMatchObject({ mediaType: 'image/webp', width: 1224, height: 1584 });
    const { pids } = pool.stats();
    expect(pids).toHaveLength(1);
    expect(pids[0]).not.toBe(process.pid);
  });

  it("passes a refusal of the file through as the task's own ApiError", async () => {
    const error = await failure(newPool().run('inspect', new TextEncoder().encode('<html>')));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).details).toMatchObject({ field: 'file' });
  });

  it('kills a task over its wall time, replaces the worker, and the next task runs', async () => {
    const pool = newPool({ taskTimeoutMs: 800 });
    await pool.run('inspect', await generateSamplePdf({ pages: 1 }));
    const [before] = pool.stats().pids;
    const started = performance.now();
    const error = await failure(pool.run('preview', slowToDrawPdf()));
    expect(error).toBeInstanceOf(PdfLimitError);
    expect((error as PdfLimitError).limit).toBe('time');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(residentBytes(before!)).toBeUndefined();
    expect(await pool.run('inspect', await generateSamplePdf({ pages: 3 }))).toEqual({ pageCount: 3 });
    expect(pool.stats().pids).not.toContain(before);
  });

  it("reports each task's end, each refusal as busy and each kill to its observers (observe)", async () => {
    const pool = newPool({ taskTimeoutMs: 800, maxQueue: 1, queueTimeoutMs: 10_000 });
    const events: PdfPoolEvent[] = [];
    const stop = pool.observe((event) => events.push(event));
    const sample = await generateSamplePdf({ pages: 1 });
    await pool.run('inspect', sample);
    await failure(pool.run('inspect', new TextEncoder().encode('<html>')));
    const slow = failure(pool.run('preview', slowToDrawPdf()));
    const waiting = pool.run('inspect', sample);
    expect(await failure(pool.run('inspect', sample))).toBeInstanceOf(PdfPoolBusyError);
    await slow;
    await waiting;
    stop();
    await pool.run('inspect', sample);
    expect(events.map((event) => ({ ...event, ...('ms' in event ? { ms: typeof event.ms } : {}) }))).toEqual([
      { type: 'task', kind: 'inspect', ms: 'number', outcome: 'ok' },
      { type: 'task', kind: 'inspect', ms: 'number', outcome: 'failed' },
      { type: 'busy', kind: 'inspect' },
      { type: 'kill', limit: 'time' },
      { type: 'task', kind: 'preview', ms: 'number', outcome: 'time' },
      { type: 'task', kind: 'inspect', ms: 'number', outcome: 'ok' },
    ]);
    const timed = events.find((event) => event.type === 'task' && event.outcome === 'time') as { ms: number };
    expect(timed.ms).toBeGreaterThanOrEqual(700);
  });

  it("kills a worker whose resident memory passes the cap (the inspection inflating a 1 GiB object stream to find page 1)", async () => {
    const pool = newPool({ memoryLimitMb: 256 });
    const error = await failure(pool.run('inspect', await objectStreamBombPdf()));
    expect(error).toBeInstanceOf(PdfLimitError);
    expect((error as PdfLimitError).limit).toBe('memory');
    expect(await pool.run('inspect', await generateSamplePdf({ pages: 1 }))).toEqual({ pageCount: 1 });
  });

  it("refuses a page over PDFium's heap cap, and draws the next one with a fresh PDFium", async () => {
    const pool = newPool({ preview: { heapBytes: 64 * 1024 * 1024, maxImagePixels: 50_000_000 } });
    const error = await failure(pool.run('preview', await contentBombPdf(256 * 1024 * 1024)));
    expect(error).toBeInstanceOf(PdfLimitError);
    expect((error as PdfLimitError).limit).toBe('memory');
    expect(error.message).toMatch(/67108864 bytes/);
    expect(await pool.run('preview', await generateSamplePdf({ pages: 1 }))).toMatchObject({ width: 1224 });
  });

  it('does not decode an image over the pixel limit', async () => {
    const pool = newPool({ preview: { heapBytes: 256 * 1024 * 1024, maxImagePixels: 1_000_000 } });
    await pool.run('inspect', await generateSamplePdf({ pages: 1 }));
    const pdf = await imageBombPdf(2000);
    // Refused by the pixel check, before any decoding: a decoded image would have drawn or hit the heap cap instead.
    const error = await failure(pool.run('preview', pdf));
    expect(error).toBeInstanceOf(PdfLimitError);
    expect((error as PdfLimitError).limit).toBe('image');
    expect(error.message).toMatch(/4000000 pixels/);
  });

  it('refuses a task beyond the queue bound, and one that waited longer than a task may run, as busy (503)', async () => {
    const pool = newPool({ taskTimeoutMs: 1500, maxQueue: 1, queueTimeoutMs: 500 });
    await pool.run('inspect', await generateSamplePdf({ pages: 1 }));
    const slow = failure(pool.run('preview', slowToDrawPdf()));
    const waiting = pool.run('inspect', await generateSamplePdf({ pages: 1 }));
    const beyond = await failure(pool.run('inspect', await generateSamplePdf({ pages: 1 })));
    expect(beyond).toBeInstanceOf(PdfPoolBusyError);
    expect(beyond).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'Retry-After': '5' } });
    expect(await failure(waiting)).toBeInstanceOf(PdfPoolBusyError);
    expect(await slow).toBeInstanceOf(PdfLimitError);
  });

  it('runs a task within its own limits (runWithin): a time limit shorter than the pool\'s stops it, naming that limit', async () => {
    const pool = newPool({ taskTimeoutMs: 60_000 });
    const started = performance.now();
    const error = await failure(pool.runWithin({ timeoutMs: 700 }, 'preview', slowToDrawPdf()));
    expect(error).toBeInstanceOf(PdfLimitError);
    expect(error.message).toBe('the PDF took longer than 700 ms to process');
    // Well before the pool's own minute: stopped by the task's limit, however busy the machine (a CI's two cores).
    expect(performance.now() - started).toBeLessThan(30_000);
    // The pool's own limits still hold for the next task.
    expect(await pool.run('inspect', await generateSamplePdf({ pages: 1 }))).toEqual({ pageCount: 1 });
  });

  it('gives a task more memory than the pool\'s cap only up to taskMemoryCeilingMb', { timeout: 120_000 }, async () => {
    const pki = await createTestPki();
    const sealedAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    const input = sealInput(await testFields(), 3, { sealedAt, signing: pki.signer });
    const original = await formPdf();
    // Asked for 4 GiB with no ceiling above the pool's 128 MiB: held to 128 MiB, and a seal needs more.
    // This test is about memory: both pools have three times the pool's own time limit, as a loaded machine seals slowly.
    const taskTimeoutMs = DEFAULT_PDF_POOL_OPTIONS.taskTimeoutMs * 3;
    const capped = newPool({ memoryLimitMb: 128, taskTimeoutMs });
    const error = await failure(capped.runWithin({ memoryLimitMb: 4096 }, 'seal', original, input));
    expect(error).toBeInstanceOf(PdfLimitError);
    expect((error as PdfLimitError).limit).toBe('memory');
    await capped.close();
    // With a ceiling of 1 GiB, the same seal runs while the pool's own cap stays 128 MiB.
    const raised = newPool({ memoryLimitMb: 128, taskMemoryCeilingMb: 1024, taskTimeoutMs });
    const { bytes: sealed } = await raised.runWithin({ memoryLimitMb: 1024 }, 'seal', original, input);
    expect(Buffer.from(sealed.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
    expect(raised.options.memoryLimitMb).toBe(128);
  });

  it('fails waiting tasks on close and kills its workers', async () => {
    const pool = newPool({ taskTimeoutMs: 10_000 });
    await pool.run('inspect', await generateSamplePdf({ pages: 1 }));
    const [pid] = pool.stats().pids;
    const running = failure(pool.run('preview', slowToDrawPdf()));
    const queued = failure(pool.run('inspect', await generateSamplePdf({ pages: 1 })));
    await pool.close();
    expect((await queued).message).toMatch(/closed/);
    expect(await running).toBeInstanceOf(Error);
    expect(residentBytes(pid!)).toBeUndefined();
    expect((await failure(pool.run('inspect', new Uint8Array()))).message).toMatch(/closed/);
  });

  it('seals in a worker, within the default memory cap, a submission whose signature is a 6000 × 6000 PNG', async () => {
    const pki = await createTestPki();
    const [fields, huge] = await Promise.all([testFields(), signaturePng(6000, 6000)]);
    const withHuge = fields.map((field) => (field.type === 'signature' ? { ...field, value: { type: 'signature' as const, imageData: huge } } : field));
    const sealedAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    const pool = newPool({ taskTimeoutMs: DEFAULT_PDF_POOL_OPTIONS.taskTimeoutMs });
    expect(pool.options.memoryLimitMb).toBe(DEFAULT_PDF_POOL_OPTIONS.memoryLimitMb);
    const original = await formPdf();
    const { bytes: sealed, level } = await pool.run('seal', original, sealInput(withHuge, 3, { sealedAt, signing: pki.signer }));
    expect(sealed).toBeInstanceOf(Uint8Array);
    expect(level).toBe('B-B');
    expect(Buffer.from(sealed.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
    expect(Buffer.from(sealed).toString('latin1')).toContain('/ETSI.CAdES.detached');
  });

  it('decodes a submitted image in a worker: a broken one is the 422 naming its field, a deep one comes back normalised', async () => {
    // The 4096² 16-bit image takes a few seconds to decode: the pool's own time limit, not this file's 5 s.
    const pool = newPool({ taskTimeoutMs: DEFAULT_PDF_POOL_OPTIONS.taskTimeoutMs });
    const field = 'fields[2].value.imageData';
    const error = await failure(pool.run('image', await truncatedPng(), { field }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422, details: { field, reason: expect.stringMatching(/libpng read error/) } });
    const deep = await pool.run('image', await deepTransparentPng(), { field });
    expect(deep).toMatchObject({ width: 4096, height: 4096, bitsPerSample: 16, sealCopy: expect.stringMatching(/^data:image\/png;base64,/) });
    const { default: sharp } = await import('sharp');
    const copy = await sharp(Buffer.from(deep.sealCopy!.split(',')[1]!, 'base64')).metadata();
    expect(copy).toMatchObject({ width: 2000, height: 2000, depth: 'uchar', hasAlpha: true });
    expect(pool.stats().pids).not.toContain(process.pid);
  });

  it('passes a seal refusal through as a SealError that keeps its retryable', async () => {
    const garbage = new TextEncoder().encode('%PDF-1.7\n' + 'not a pdf at all '.repeat(200));
    const error = await failure(newPool().run('seal', garbage, sealInput(await testFields())));
    expect(error).toBeInstanceOf(SealError);
    expect((error as SealError).retryable).toBe(false);
    expect(error.message).toMatch(/cannot be sealed/);
  });

  it('closing an idle pool of two waits for both workers, with nothing else keeping the process alive', async () => {
    // In a process of its own: here the test runner keeps the event loop alive whatever the pool does.
    const dir = await mkdtemp(join(tmpdir(), 'signet-pool-close-'));
    try {
      const script = join(dir, 'close.mts');
      const pool = JSON.stringify(new URL('../../pdf-worker/index.ts', import.meta.url).href);
      await writeFile(script, `import { createPdfPool } from ${pool};
const pool = createPdfPool({ workers: 2 });
pool.warm();
setTimeout(async () => { await pool.close(); console.log('closed'); }, 1500);\n`);
      const { stdout } = await promisify(execFile)(TSX, [script], { timeout: 30_000 });
      expect(stdout).toContain('closed');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

