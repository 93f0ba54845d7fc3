import { hash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { SealingConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { PdfLimitError, PdfPoolBusyError, type PdfPool } from '../pdf/pool/index.js';
import type { SealJob, Storage, StoredSubmission } from '../storage/types.js';
import { SealError } from './errors.js';
import { isLargeDocument, sealTimeLimit, smallDocumentSize } from './seal-limits.js';
import type { SealInput, SigningKey } from './types.js';
import { listAuditEvents } from '../storage/queries/audit.js';
import { readDocumentContent } from '../storage/queries/document-files.js';
import { findDocument } from '../storage/queries/documents.js';
import { listSubmissions } from '../storage/queries/submissions.js';

/** The longest wait between two attempts of a job, however many it has had. */
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

export interface SealWorkerOptions {
  storage: Storage;
  pdfPool: PdfPool;
  logger: Logger;
  config: SealingConfig;
  /**
   * The signing key, resolved when a seal needs it: a key that cannot be used (wrong password, expired) fails the
   * job with its reason instead of stopping the server.
   */
  signingKey: () => Promise<SigningKey>;
  /**
   * Seals run side by side (default 1); more than the pool's workers only queue in the pool. With more than one,
   * one of them never takes a large document (`isLargeDocument`), so small ones are not stuck behind large ones.
   */
  concurrency?: number;
  /** Origin of the sealed PDF's URL in `document.sealed` webhook events (default: a path without one). */
  publicBaseUrl?: string;
  now?: () => Date;
}

/**
 * Turns completed submissions into sealed PDFs: takes due jobs from the `seal_jobs` outbox with a lease, seals
 * each in the PDF pool (`sealPdf`: values drawn, forms flattened, audit trail appended, PAdES signature), and stores
 * the result with the job's completion in one transaction. A failure that may pass (a timestamp authority that did
 * not answer, a busy pool) is retried with exponential backoff up to `maxAttempts`; one that will not (a PDF that
 * cannot be drawn on, an unusable certificate) marks the job `failed` at once. Runs inside `signet serve`, and
 * alone as `signet worker`; several may share a PostgreSQL database.
 * @example const worker = new SealWorker({ storage, pdfPool, logger, config: config.sealing, signingKey }); worker.start();
 */
export class SealWorker {
  /** Who holds a taken job's lease: this process, uniquely. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  readonly #options: SealWorkerOptions;
  readonly #now: () => Date;
  #running = false;
  #loops: Promise<void>[] = [];
  #wakers = new Set<() => void>();

  constructor(options: SealWorkerOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** Starts taking jobs; `stop` ends it. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    const loops = Math.max(1, this.#options.concurrency ?? 1);
    this.#loops = Array.from({ length: loops }, (_, index) => this.#loop({ smallOnly: loops > 1 && index === loops - 1 }));
  }

  /** Looks for due jobs now rather than at the next poll (a submission just enqueued one). */
  wake(): void {
    for (const wake of this.#wakers) wake();
  }

  /** Takes no more jobs and waits for the ones under way. */
  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    await Promise.all(this.#loops);
  }

  /** Takes one due job (of a document that is not large, with `smallOnly`) and runs it; false when none was due. */
  async runOnce(options: { smallOnly?: boolean } = {}): Promise<boolean> {
    const { storage, config, pdfPool } = this.#options;
    const size = options.smallOnly ? smallDocumentSize(config.limits, pdfPool.options.taskTimeoutMs) : undefined;
    const job = await storage.claimSealJob(this.owner, { now: this.#now(), leaseMs: config.leaseMs, ...(size ? { size } : {}) });
    if (!job) return false;
    if (job.attempts > config.maxAttempts) {
      // Taken over after its lease ran out each time: whatever it does stops the worker (killed, out of memory).
      const reason = `gave up after ${job.attempts - 1} attempts, each ended by its worker stopping`;
      await this.#fail(job, new SealError(reason, { retryable: false }), this.#options.logger.child({ documentId: job.documentId }));
      return true;
    }
    await this.#run(job);
    return true;
  }

  async #loop(lane: { smallOnly: boolean }): Promise<void> {
    while (this.#running) {
      let worked = false;
      try {
        worked = await this.runOnce(lane);
      } catch (error) {
        // Storage failed (a restart of the database): wait for the next poll and try again.
        this.#options.logger.error({ err: error }, 'seal worker: could not take a job');
      }
      if (!worked && this.#running) await this.#sleep();
    }
  }

  /** Until the next pending job is due, at most a poll interval, or until woken. */
  async #sleep(): Promise<void> {
    const { storage, config } = this.#options;
    let wait = config.pollMs;
    try {
      const due = await storage.nextSealJobDue();
      if (due) wait = Math.max(0, Math.min(wait, Date.parse(due) - this.#now().getTime()));
    } catch {
      // The poll interval, then.
    }
    if (wait === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      function done() {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      }
      const wakers = this.#wakers;
      wakers.add(done);
    });
  }

  async #run(job: SealJob): Promise<void> {
    const { storage, pdfPool, logger, config } = this.#options;
    const log = logger.child({ documentId: job.documentId, submissionId: job.submissionId, attempt: job.attempts });
    // A seal may outlast the lease (a large document): it is renewed while the seal runs, so no other worker takes
    // the job over from a live one, and one that died still loses it after `leaseMs`.
    const renewal = setInterval(() => {
      const until = new Date(this.#now().getTime() + config.leaseMs);
      storage.renewSealLease(this.owner, job.documentId, until).catch((error: unknown) => log.warn({ err: error }, 'seal worker: could not renew a lease'));
    }, Math.max(50, Math.floor(config.leaseMs / 3)));
    let limitMs: number | undefined;
    try {
      const input = await this.#input(job);
      const original = await readDocumentContent(storage.db.query, job.documentId, 0, input.document.size - 1);
      const sealedAt = input.seal.sealedAt;
      const size = { pageCount: input.seal.document.pageCount, fileSize: input.document.size };
      limitMs = sealTimeLimit(config.limits, pdfPool.options.taskTimeoutMs, size, job.attempts);
      const started = performance.now();
      const sealed = await pdfPool.runWithin({ timeoutMs: limitMs, memoryLimitMb: config.limits.memoryMb }, 'seal', original, input.seal);
      const sha256 = hash('sha256', sealed, 'hex');
      const stored = await storage.completeSealJob(
        this.owner,
        { documentId: job.documentId, submissionId: job.submissionId, sha256, fileSize: sealed.byteLength, sealedAt },
        sealed,
        `${this.#options.publicBaseUrl ?? ''}/documents/${job.documentId}/signed.pdf`,
      );
      const large = isLargeDocument(config.limits, pdfPool.options.taskTimeoutMs, size);
      const ms = Math.round(performance.now() - started);
      if (stored) log.info({ sha256, bytes: sealed.byteLength, ms, limitMs, pages: size.pageCount, large }, 'document sealed');
      else log.warn('seal discarded: the job was taken over by another worker or is already sealed');
    } catch (error) {
      await this.#fail(job, error instanceof PdfLimitError ? this.#limitReached(error, limitMs) : error, log);
    } finally {
      clearInterval(renewal);
    }
  }

  /**
   * A seal stopped at a limit, as the job's reason: past its time limit it is tried again with a longer one (each
   * attempt's doubles), unless it already had the ceiling; past the memory or image cap it fails, naming the cap.
   */
  #limitReached(error: PdfLimitError, limitMs: number | undefined): SealError {
    const { limits } = this.#options.config;
    if (error.limit === 'time') {
      const atCeiling = limitMs === undefined || limitMs >= limits.maxMs;
      const reason = atCeiling
        ? `the seal took longer than ${limits.maxMs} ms, the most any seal may take (SEAL_TIMEOUT_MAX_MS)`
        : `the seal took longer than its time limit of ${limitMs} ms; the next attempt is given twice as long, up to ${limits.maxMs} ms (SEAL_TIMEOUT_MAX_MS)`;
      return new SealError(reason, { retryable: !atCeiling, cause: error });
    }
    if (error.limit === 'memory') {
      const reason = `the seal needed more memory than a PDF worker may use while sealing, ${limits.memoryMb} MiB (SEAL_MEMORY_MB): ${error.message}`;
      return new SealError(reason, { retryable: false, cause: error });
    }
    return new SealError(`the seal stopped at the PDF image cap (PDF_MAX_IMAGE_PIXELS): ${error.message}`, { retryable: false, cause: error });
  }

  /** What the seal needs: the document, its submissions and audit trail so far, and the signing key. */
  async #input(job: SealJob): Promise<{ document: { size: number }; seal: SealInput }> {
    const { storage, config } = this.#options;
    const [document, submissions, events] = await Promise.all([
      findDocument(storage.db.query, job.documentId),
      listSubmissions(storage.db.query, job.documentId),
      listAuditEvents(storage.db.query, job.documentId),
    ]);
    const submission = submissions.find((candidate) => candidate.id === job.submissionId) ?? submissions.at(-1);
    if (!document || !submission) {
      throw new SealError(`Document ${job.documentId} or its submission no longer exists`, { retryable: false });
    }
    const key = await this.#options.signingKey();
    const values = (stored: StoredSubmission) => withSealImages((JSON.parse(stored.payload) as { fields: SealInput['submission']['values'] }).fields, stored);
    const summary = (stored: StoredSubmission) => ({
      id: stored.id,
      checksum: stored.checksum,
      receivedAt: stored.receivedAt,
      clientIp: stored.clientIp,
      userAgent: stored.userAgent,
    });
    const bySigner = new Map(submissions.map((stored) => [stored.signerId, stored]));
    const signers = document.implicitSigner ? undefined : document.signers.flatMap((signer) => {
      const stored = bySigner.get(signer.id);
      return stored ? [{ name: signer.name, ...(signer.email ? { email: signer.email } : {}), submission: summary(stored) }] : [];
    });
    return {
      document: { size: document.fileSize },
      seal: {
        document: { id: document.id, filename: document.filename, pageCount: document.pageCount, sha256: document.sha256 },
        fields: document.fields,
        submission: { ...summary(submission), values: document.implicitSigner ? values(submission) : submissions.flatMap(values) },
        ...(signers ? { signers } : {}),
        events,
        sealedAt: this.#now().toISOString(),
        signing: { ...key, ...(config.tsaUrl ? { tsaUrl: config.tsaUrl, tsaTimeoutMs: config.tsaTimeoutMs } : {}) },
      },
    };
  }

  async #fail(job: SealJob, error: unknown, log: Logger): Promise<void> {
    const { storage, config } = this.#options;
    const reason = error instanceof Error ? error.message : String(error);
    const retryable = isRetryable(error);
    const exhausted = job.attempts >= config.maxAttempts;
    const now = this.#now();
    const delay = Math.min(MAX_RETRY_DELAY_MS, config.retryBaseMs * 2 ** (job.attempts - 1));
    const retryAt = retryable && !exhausted ? new Date(now.getTime() + delay) : null;
    try {
      await storage.failSealJob(this.owner, job.documentId, { error: reason, retryAt, now });
    } catch (storeError) {
      // The lease runs out and another attempt takes the job: nothing is lost.
      log.error({ err: storeError }, 'seal worker: could not record a failed attempt');
    }
    if (retryAt) log.warn({ reason, retryAt: retryAt.toISOString() }, 'seal attempt failed; it will be retried');
    else log.error({ reason, retryable, attempts: job.attempts }, 'seal failed; `signet jobs retry` runs it again');
  }
}

/**
 * The submitted values with each image the submit normalised (`StoredSubmission.sealImages`, by payload path)
 * replaced by its copy: the seal never decodes an image over `SEAL_IMAGE_LIMITS`.
 */
function withSealImages(values: SealInput['submission']['values'], stored: StoredSubmission): SealInput['submission']['values'] {
  const copies = stored.sealImages;
  if (!copies) return values;
  return values.map((field, index) => {
    const copy = copies[`fields[${index}].value.imageData`];
    return copy && 'imageData' in field.value ? { ...field, value: { ...field.value, imageData: copy } } : field;
  });
}

/** Whether a failed seal may succeed later without anyone changing anything. */
function isRetryable(error: unknown): boolean {
  if (error instanceof SealError) return error.retryable;
  if (error instanceof PdfPoolBusyError) return true;
  // Not reached from a seal (`#limitReached` turns these into a SealError first).
  if (error instanceof PdfLimitError) return false;
  // Storage or a crashed worker: passing causes.
  return true;
}
