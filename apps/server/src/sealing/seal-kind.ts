import { hash } from 'node:crypto';
import { z } from 'zod';
import type { SealingConfig } from '../config.js';
import { JobRunner } from '../jobs/runner.js';
import type { JobKind, JobKindOptions, Lane } from '../jobs/types.js';
import type { Logger } from '../logger.js';
import { PdfLimitError, PdfPoolBusyError, type PdfPool } from '../pdf/pool/index.js';
import { recordAuditEvent } from '../storage/queries/audit.js';
import { storeSealedDocument } from '../storage/queries/seals.js';
import type { Queryable } from '../storage/sql-database.js';
import type { SealedDocument, Storage, StoredSubmission } from '../storage/types.js';
import { enqueueDocumentEvent } from '../storage/queries/webhook-deliveries.js';
import { SealError } from './errors.js';
import { isLargeDocument, sealTimeLimit, smallDocumentSize } from './seal-limits.js';
import { sealQueue, type ClaimedSeal } from './seal-queue.js';
import type { SealInput, SealingKey } from './types.js';
import type { SignedPdf } from './signing/sign-pdf.js';
import type { PadesLevel } from '@signet/contract';
import { listAuditEvents } from '../storage/queries/audit.js';
import { readDocumentContent } from '../storage/queries/document-files.js';
import { findDocument } from '../storage/queries/documents.js';
import { listSubmissions } from '../storage/queries/submissions.js';
import { COMPLETION_KIND, enqueueCompletionNotices } from '../mail/completion.js';

/** The longest wait between two attempts of a seal, however many it has had. */
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/** A seal job as claimed: the document to seal, and the submission that completed it. */
const sealJobSchema = z.looseObject({
  id: z.string().startsWith('doc_'),
  documentId: z.string().startsWith('doc_'),
  submissionId: z.string().min(1),
  attempts: z.number().int().positive(),
}) as unknown as z.ZodType<ClaimedSeal>;

/** The lane of the loop that takes no large document (`isLargeDocument`). */
const SMALL_LANE = 'small';

export interface SealKindOptions {
  storage: Storage;
  pdfPool: PdfPool;
  config: SealingConfig;
  /**
   * The signing key, resolved when a seal needs it: a key that cannot be used (wrong password, expired) fails the
   * job with its reason instead of stopping the server.
   */
  signingKey: () => Promise<SealingKey>;
  /**
   * Seals run side by side (default 1); more than the pool's workers only queue in the pool. With more than one,
   * one of them never takes a large document (`isLargeDocument`), so small ones are not stuck behind large ones.
   */
  concurrency?: number;
  /** Origin of the sealed PDF's URL in `document.sealed` webhook events (default: a path without one). */
  publicBaseUrl?: string;
  /** Told how each recorded attempt ended, and a sealed one's time in the pool (metrics, `metrics/`). */
  onSealEnded?: (end: SealEnd) => void;
}

/** How a seal attempt ended: `sealed` (with its time), `retry` (it runs again) or `failed` (dead). */
export type SealEnd = { outcome: 'sealed'; ms: number; pages: number } | { outcome: 'retry' | 'failed' };

/** What the log line of a stored seal says. */
interface SealDetails {
  sha256: string;
  bytes: number;
  ms: number;
  limitMs: number;
  pages: number;
  large: boolean;
  /** The PAdES level reached. */
  level: PadesLevel;
  /** Set when `level` is below `SIGNET_PADES_LEVEL`: the level asked for, and why it was not reached. */
  levelAsked?: PadesLevel;
  levelReason?: string;
}

/** The seal loops: one lane for any document and one for documents that are not large, or one lane alone. */
function sealLanes(concurrency: number): Lane[] {
  if (concurrency <= 1) return [{ name: 'default', concurrency: 1 }];
  return [
    { name: 'any', concurrency: concurrency - 1 },
    { name: SMALL_LANE, concurrency: 1 },
  ];
}

/**
 * The `seal` job kind: turns completed submissions into sealed PDFs. Each job of `seal_jobs` is sealed in the PDF
 * pool (`sealPdf`: values drawn, forms flattened, audit trail appended, PAdES signature) within a time limit that
 * follows its document and doubles on each attempt (`seal-limits.ts`), its lease renewed while it runs. The
 * sealed file, the `document.sealed` audit event and its webhook event are stored with the job's completion, under
 * its lease. A failure that may pass (a timestamp authority that did not answer, a busy pool) is retried on an
 * exponential backoff up to `SEAL_MAX_ATTEMPTS`; one that will not (a PDF that cannot be drawn on, an unusable
 * certificate) is dead at once, and the host hears of it (`document.sealing_failed`).
 * @example runner.register(sealKind({ storage, pdfPool, config: config.sealing, signingKey }));
 */
export function sealKind(options: SealKindOptions): JobKind<ClaimedSeal, SealDetails> {
  const { storage, pdfPool, config } = options;
  const base = pdfPool.options.taskTimeoutMs;
  const jobOptions: JobKindOptions = {
    leaseMs: config.leaseMs,
    pollMs: config.pollMs,
    lanes: sealLanes(Math.max(1, options.concurrency ?? 1)),
    renewLeases: true,
    // Exact delays, as documented ("Retry policy" in docs/decisions.md): a seal retries against one timestamp
    // authority, not a crowd of receivers.
    backoff: { kind: 'exponential', baseMs: config.retryBaseMs, maxMs: MAX_RETRY_DELAY_MS, maxAttempts: config.maxAttempts, jitter: 0 },
  };
  return {
    name: 'seal',
    schema: sealJobSchema,
    queue: sealQueue({ lanes: { [SMALL_LANE]: smallDocumentSize(config.limits, base) } }),
    options: jobOptions,
    async handler(job, { now }) {
      const input = await sealInput(options, job, now());
      const original = await readDocumentContent(storage.db.query, job.documentId, 0, input.document.size - 1);
      const size = { pageCount: input.seal.document.pageCount, fileSize: input.document.size };
      const limitMs = sealTimeLimit(config.limits, base, size, job.attempts);
      const started = performance.now();
      let signed: SignedPdf;
      try {
        signed = await pdfPool.runWithin({ timeoutMs: limitMs, memoryLimitMb: config.limits.memoryMb }, 'seal', original, input.seal);
      } catch (error) {
        throw error instanceof PdfLimitError ? limitReached(config, error, limitMs) : error;
      }
      const sealed = signed.bytes;
      const sha256 = hash('sha256', sealed, 'hex');
      const { level } = signed;
      const record = { documentId: job.documentId, submissionId: job.submissionId, sha256, fileSize: sealed.byteLength, sealedAt: input.seal.sealedAt, level };
      const details = {
        sha256,
        bytes: sealed.byteLength,
        ms: Math.round(performance.now() - started),
        limitMs,
        pages: size.pageCount,
        large: isLargeDocument(config.limits, base, size),
        level,
        ...(signed.levelReason ? { levelAsked: config.padesLevel, levelReason: signed.levelReason } : {}),
      };
      const url = `${options.publicBaseUrl ?? ''}/documents/${job.documentId}/signed.pdf`;
      return { details, effects: (tx) => completeSeal(tx, record, sealed, url) };
    },
    retryable: isRetryable,
    onDead: async (tx, job, error, at) => {
      // Given up: the host hears of it (`document.sealing_failed`), in the same transaction.
      const failedAt = at.toISOString();
      const data = { documentId: job.documentId, submissionId: job.submissionId, error, attempts: job.attempts, failedAt };
      const webhooks = await enqueueDocumentEvent(tx.query, job.documentId, { type: 'document.sealing_failed', occurredAt: failedAt, data });
      return { wake: webhooks > 0 ? ['webhook'] : [] };
    },
    logFields: (job) => ({ documentId: job.documentId, submissionId: job.submissionId }),
    logSettled(job, settlement, recorded, log) {
      if (recorded && options.onSealEnded) {
        const { details } = settlement;
        if (settlement.state === 'done') options.onSealEnded({ outcome: 'sealed', ms: details?.ms ?? 0, pages: details?.pages ?? 0 });
        else options.onSealEnded({ outcome: settlement.state === 'pending' ? 'retry' : 'failed' });
      }
      if (!recorded) log.warn('seal discarded: the job was taken over by another worker or is already sealed');
      else if (settlement.state === 'done') {
        log.info(settlement.details ?? {}, 'document sealed');
        const { level, levelAsked, levelReason } = settlement.details ?? {};
        if (levelReason) log.warn({ level, levelAsked, reason: levelReason }, 'document sealed below the PAdES level asked for (SIGNET_PADES_LEVEL)');
      }
      else if (settlement.state === 'pending') log.warn({ reason: settlement.error, retryAt: settlement.runAt.toISOString() }, 'seal attempt failed; it will be retried');
      else log.error({ reason: settlement.error, retryable: settlement.retryable ?? false, attempts: job.attempts }, 'seal failed; `signet jobs retry` runs it again');
    },
  };
}

/**
 * A seal's completion, in the transaction that marked its job sealed under the lease: the sealed file, the audit
 * trail's `document.sealed`, its webhook event (with `signedDocumentUrl`), and, for a document delivered by e-mail,
 * the signed copy's link to each signer (docs/email.md).
 */
export async function completeSeal(tx: Queryable, sealed: SealedDocument, content: Uint8Array, signedDocumentUrl: string): Promise<{ wake: string[] }> {
  await storeSealedDocument(tx.query, sealed, content);
  await recordAuditEvent(tx.query, sealed.documentId, { type: 'document.sealed', occurredAt: sealed.sealedAt });
  const webhooks = await enqueueDocumentEvent(tx.query, sealed.documentId, {
    type: 'document.sealed',
    occurredAt: sealed.sealedAt,
    data: { documentId: sealed.documentId, submissionId: sealed.submissionId, sha256: sealed.sha256, signedDocumentUrl, sealedAt: sealed.sealedAt },
  });
  const notices = await enqueueCompletionNotices(tx, sealed.documentId);
  return { wake: [...(webhooks > 0 ? ['webhook'] : []), ...(notices > 0 ? [COMPLETION_KIND.name] : [])] };
}

/**
 * A seal stopped at a limit, as the job's reason: past its time limit it is tried again with a longer one (each
 * attempt's doubles), unless it already had the ceiling; past the memory or image cap it fails, naming the cap.
 */
function limitReached(config: SealingConfig, error: PdfLimitError, limitMs: number): SealError {
  const { limits } = config;
  if (error.limit === 'time') {
    const atCeiling = limitMs >= limits.maxMs;
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
async function sealInput(options: SealKindOptions, job: ClaimedSeal, now: Date): Promise<{ document: { size: number }; seal: SealInput }> {
  const { storage, config } = options;
  const [document, submissions, events] = await Promise.all([
    findDocument(storage.db.query, job.documentId),
    listSubmissions(storage.db.query, job.documentId),
    listAuditEvents(storage.db.query, job.documentId),
  ]);
  const submission = submissions.find((candidate) => candidate.id === job.submissionId) ?? submissions.at(-1);
  if (!document || !submission) {
    throw new SealError(`Document ${job.documentId} or its submission no longer exists`, { retryable: false });
  }
  const key = await options.signingKey();
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
      sealedAt: now.toISOString(),
      signing: {
        ...key,
        ...(config.tsaUrl ? { tsaUrl: config.tsaUrl, tsaTimeoutMs: config.tsaTimeoutMs } : {}),
        level: config.padesLevel,
        revocationTimeoutMs: config.revocationTimeoutMs,
        finalAttempt: job.attempts >= config.maxAttempts,
      },
    },
  };
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
  // Not reached from a seal (the handler turns these into a SealError first).
  if (error instanceof PdfLimitError) return false;
  // Storage or a crashed worker: passing causes.
  return true;
}

/**
 * A job runner with the seal kind alone: for tests and tools that seal what is due (`runOnce('seal')`) without
 * webhooks. Processes start theirs with every kind (`jobs/start.ts`).
 * @example const runner = sealRunner({ storage, pdfPool, config: config.sealing, signingKey, logger }); while (await runner.runOnce('seal'));
 */
export function sealRunner(options: SealKindOptions & { logger: Logger; now?: () => Date }): JobRunner {
  const runner = new JobRunner({ db: options.storage.db, logger: options.logger, ...(options.now ? { now: options.now } : {}) });
  return runner.register(sealKind(options));
}
