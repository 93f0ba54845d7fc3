import { REMIND_INTERVAL_SECONDS, type SignerReminder } from '@signet/contract';
import type { Config } from '../config.js';
import { ApiError, validationError } from '../errors.js';
import { jobsEnqueued } from '../jobs/wake.js';
import { lockDocument } from '../storage/queries/documents.js';
import { listSignerMessages } from '../storage/queries/signer-messages.js';
import { findSignerStates } from '../storage/queries/signers.js';
import type { Storage } from '../storage/types.js';
import { queueSignerMessage, signerCanSign, signingLinkBase } from './delivery.js';

/** What a reminder asked for now needs: the settings, the secret, who asks, and the request's origin (if any). */
export interface RemindRequest {
  config: Pick<Config, 'mail' | 'publicBaseUrl' | 'host' | 'port'>;
  secret: string;
  documentId: string;
  signerId: string;
  /** The API key's id, or `cli`. */
  sentBy: string;
  now: Date;
  /** The origin of the link when neither `PUBLIC_BASE_URL` nor the document's own is known. */
  origin?: string;
}

/**
 * Queues a reminder to one signer now (`POST /documents/{id}/signers/{signerId}/remind`, `signet documents remind`):
 * 404 for no such document or signer; 409 `DOCUMENT_CLOSED` unless it is pending; 422 when the server sends no mail,
 * the signer has no `email`, has signed or waits for their turn; 429 when the signer had a message within the hour.
 * The checks and the message share the document's row lock, so two requests at once send one reminder.
 * @example await remindSigner(storage, { config, secret, documentId, signerId: 'tenant', sentBy: 'cli', now: new Date() })
 */
export async function remindSigner(storage: Storage, request: RemindRequest): Promise<SignerReminder> {
  const { documentId, signerId, now } = request;
  const email = await storage.db.transaction(async (tx) => {
    const document = await lockDocument(tx.query, documentId);
    if (!document || document.erased) {
      throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} not found`, document?.erased ? { details: { reason: 'erased' } } : {});
    }
    const signer = document.implicitSigner ? undefined : document.signers.find((candidate) => candidate.id === signerId);
    if (!signer) throw new ApiError('NOT_FOUND', `Document ${documentId} has no signer ${signerId}`, { details: { field: 'signerId' } });
    if (document.status !== 'pending') {
      throw new ApiError('DOCUMENT_CLOSED', `Document ${documentId} is ${document.status}: its signers cannot be reminded`, {
        details: { status: document.status, reason: `a ${document.status} document cannot be signed` },
      });
    }
    if (!request.config.mail) throw validationError('delivery', 'this server sends no e-mail: SIGNET_SMTP_URL is not set (docs/email.md)', 422);
    if (!signer.email) throw validationError('signerId', `signer "${signerId}" has no email`, 422);
    if (!signerCanSign(document, await findSignerStates(tx.query, documentId), signerId)) {
      throw validationError('signerId', `signer "${signerId}" has signed already or waits for their turn`, 422);
    }
    const last = (await listSignerMessages(tx.query, documentId, signerId)).at(-1);
    const wait = last ? Math.ceil((Date.parse(last.sentAt) + REMIND_INTERVAL_SECONDS * 1000 - now.getTime()) / 1000) : 0;
    if (wait > 0) {
      throw new ApiError('RATE_LIMIT_EXCEEDED', `Signer ${signerId} had a message less than an hour ago: try again in ${wait} s`, {
        details: { retryAfterSeconds: wait },
        headers: { 'Retry-After': String(wait) },
      });
    }
    const base = signingLinkBase(request.config, document, request.origin);
    return queueSignerMessage(tx, { secret: request.secret, base, now }, document, { signerId, kind: 'reminder', sentBy: request.sentBy });
  });
  jobsEnqueued(storage.db, 'mail');
  return { documentId, signerId, email: email!, queuedAt: now.toISOString() };
}
