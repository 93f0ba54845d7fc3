import { EXPIRES_AT_MAX_DAYS, TimestampSchema } from '@signet/contract';
import { z } from 'zod';
import { ApiError, validationError } from '../errors.js';
import { defineJobKind } from '../jobs/generic-queue.js';
import { markDocumentExpired } from '../storage/queries/documents.js';
import { enqueueDocumentEvent } from '../storage/queries/webhook-deliveries.js';
import type { DocumentRecord } from '../storage/types.js';

/*
 * Expiry (docs/lifecycle.md): a document created with `expiresAt` reads `expired` once that time has passed before it
 * was completed (computed on read), and can no longer be signed. The `expire` job, due at `expiresAt`, records it
 * once (`expired_at`) and enqueues `document.expired` in the same transaction.
 */

/** The 409 of signing, declining or opening an expired document (`details.reason: "expired"`). */
export function expiredNotSignable(document: Pick<DocumentRecord, 'id' | 'expiresAt'>): ApiError {
  return new ApiError('SUBMISSION_FAILED', `Document ${document.id} expired at ${document.expiresAt}`, { details: { reason: 'expired' } });
}

/**
 * The `expiresAt` part of an upload, checked: absent, or an ISO 8601 time with a zone after `now` and at most
 * `EXPIRES_AT_MAX_DAYS` ahead (else 400 naming `expiresAt`). Resolves with it as the server writes times.
 * @example parseExpiresAt('2027-01-01T00:00:00Z', new Date()) // '2027-01-01T00:00:00.000Z'
 */
export function parseExpiresAt(value: unknown, now: Date): string | undefined {
  if (value === undefined) return undefined;
  const parsed = TimestampSchema.safeParse(value);
  if (!parsed.success || Number.isNaN(Date.parse(parsed.data))) throw validationError('expiresAt', 'must be an ISO 8601 time with a zone');
  const at = Date.parse(parsed.data);
  if (at <= now.getTime()) throw validationError('expiresAt', 'must be in the future');
  if (at > now.getTime() + EXPIRES_AT_MAX_DAYS * 86_400_000) throw validationError('expiresAt', `must be at most ${EXPIRES_AT_MAX_DAYS} days ahead`);
  return new Date(at).toISOString();
}

const ExpirePayloadSchema = z.object({ documentId: z.string() });

/**
 * The `expire` job kind: one job a document created with `expiresAt` (keyed by its id), due then. It records the
 * expiry and enqueues `document.expired` once, in the job's settling transaction; a document completed, declined or
 * voided by then is left alone. Enqueued by `storeDocument` with `enqueueJob(tx, expireJob, …)`.
 */
export const expireJob = defineJobKind({
  name: 'expire',
  schema: ExpirePayloadSchema,
  options: {
    leaseMs: 60_000,
    pollMs: 5_000,
    concurrency: 1,
    claimBatch: 10,
    backoff: { kind: 'exponential', baseMs: 1000, maxMs: 600_000, maxAttempts: 10, jitter: 0.1 },
  },
  async handler(job) {
    const { documentId } = job.payload;
    return {
      effects: async (tx) => {
        if (!(await markDocumentExpired(tx.query, documentId, Date.now()))) return;
        const row = await tx.query.selectFrom('documents').select('expires_at').where('id', '=', documentId).executeTakeFirstOrThrow();
        const expiresAt = new Date(Number(row.expires_at)).toISOString();
        const enqueued = await enqueueDocumentEvent(tx.query, documentId, { type: 'document.expired', occurredAt: expiresAt, data: { documentId, expiresAt } });
        return enqueued > 0 ? { wake: ['webhook'] } : undefined;
      },
    };
  },
});
