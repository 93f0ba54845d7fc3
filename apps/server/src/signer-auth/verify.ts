import { randomBytes } from 'node:crypto';
import {
  ACCESS_CODE_LOCK_SECONDS,
  EMAIL_CODE_SEND_LIMITS,
  EMAIL_CODE_TTL_SECONDS,
  VERIFICATION_MAX_ATTEMPTS,
  maskEmail,
  type VerificationCodeSent,
  type VerificationFailure,
  type VerificationResult,
} from '@signet/contract';
import { ApiError } from '../errors.js';
import { jobsEnqueued } from '../jobs/wake.js';
import { enqueueMail } from '../mail/outbox.js';
import { enqueueDocumentEvent } from '../storage/queries/webhook-deliveries.js';
import { webhookEventsEnqueued } from '../webhooks/wake.js';
import type { AppContext } from '../app-context.js';
import type { DocumentRecord } from '../storage/types.js';
import {
  claimAccessCodeTry,
  claimCodeTry,
  findAccessCodeLock,
  findSignerCode,
  lockAccessCode,
  recordVerification,
  replaceSignerCode,
  type VerificationRow,
} from '../storage/queries/verification.js';
import { accessCodeMatches, emailCodeHash, newEmailCode, sameHash, type StoredSigner } from './codes.js';
import { codeMessage } from './code-message.js';

/*
 * Sending and checking a signer's code (docs/signer-auth.md, "Limits"). Every try is counted before the code is
 * compared; a verification and each wrong try are recorded for the audit trail.
 */

const HOUR_MS = 3_600_000;

/** Who is trying: the session key, its signer, and where from (the audit trail's address and browser). */
export interface VerificationAttempt {
  document: DocumentRecord;
  signer: StoredSigner;
  keyId: string;
  at: Date;
  ip: string | null;
  userAgent: string | null;
}

const failed = (reason: VerificationFailure, message: string, attemptsLeft?: number) =>
  new ApiError('VERIFICATION_FAILED', message, { details: { reason, ...(attemptsLeft === undefined ? {} : { attemptsLeft }) } });

/** The e-mailed code's fifth wrong try, or any try after it: a new code must be sent. */
const codeUsedUp = () => failed('too_many_attempts', 'Too many wrong tries: ask for a new code', 0);

const tooSoon = (reason: string, message: string, untilMs: number, now: number) => {
  const seconds = Math.max(1, Math.ceil((untilMs - now) / 1000));
  return new ApiError('RATE_LIMIT_EXCEEDED', message, { details: { reason, retryAfter: seconds }, headers: { 'Retry-After': String(seconds) } });
};

/**
 * E-mails the signer a new 6-digit code (the last one stops working): one a minute, five an hour (429 otherwise).
 * @example await sendEmailCode(deps, attempt) // { method: 'email_code', maskedEmail: 'a***@example.com', … }
 */
export async function sendEmailCode(deps: AppContext, attempt: VerificationAttempt): Promise<VerificationCodeSent> {
  const { document, signer } = attempt;
  if (signer.auth !== 'email_code' || !signer.email) throw failed('not_email_code', `${signer.name} proves who they are with an access code, not an e-mailed one`);
  if (!deps.config.mail) throw new ApiError('SERVICE_UNAVAILABLE', 'This server sends no e-mail (SIGNET_SMTP_URL is not set)');
  const now = attempt.at.getTime();
  const code = newEmailCode();
  const email = signer.email;
  const sent = await deps.storage.db.transaction(async (tx) => {
    const last = await findSignerCode(tx.query, document.id, signer.id);
    const sameHour = last !== undefined && now - last.hour_started_at < HOUR_MS;
    if (last && now - last.sent_at < EMAIL_CODE_SEND_LIMITS.intervalSeconds * 1000) {
      throw tooSoon('resend_limit', 'A code was sent less than a minute ago', last.sent_at + EMAIL_CODE_SEND_LIMITS.intervalSeconds * 1000, now);
    }
    if (last && sameHour && last.sent_this_hour >= EMAIL_CODE_SEND_LIMITS.perHour) {
      throw tooSoon('resend_limit', 'Five codes were sent this hour', last.hour_started_at + HOUR_MS, now);
    }
    const row = {
      document_id: document.id,
      signer_id: signer.id,
      code_hash: emailCodeHash(deps.secret, document.id, signer.id, code),
      expires_at: now + EMAIL_CODE_TTL_SECONDS * 1000,
      failures: 0,
      sent_at: now,
      hour_started_at: sameHour ? last.hour_started_at : now,
      sent_this_hour: sameHour ? last.sent_this_hour + 1 : 1,
    };
    await replaceSignerCode(tx.query, row);
    await enqueueMail(tx, deps.secret, { to: email, ...codeMessage(code, document, signer) }, { purpose: 'signer-code', documentId: document.id });
    return row;
  });
  jobsEnqueued(deps.storage.db, 'mail');
  return {
    method: 'email_code',
    maskedEmail: maskEmail(email),
    expiresAt: new Date(sent.expires_at).toISOString(),
    resendAfter: new Date(now + EMAIL_CODE_SEND_LIMITS.intervalSeconds * 1000).toISOString(),
  };
}

/**
 * Checks `code` for the signer's method; right: the session key is verified (and `signer.verified` recorded). Wrong:
 * 422 `VERIFICATION_FAILED` with the tries left, or 429 once an access code locks.
 */
export async function checkCode(deps: AppContext, attempt: VerificationAttempt, code: string): Promise<VerificationResult> {
  const { document, signer } = attempt;
  const now = attempt.at.getTime();
  const method = signer.auth === 'email_code' ? 'email_code' : 'access_code';
  const verificationRow = (outcome: 'verified' | 'failed'): VerificationRow => ({
    id: `ver_${randomBytes(12).toString('hex')}`,
    document_id: document.id,
    signer_id: signer.id,
    key_id: attempt.keyId,
    outcome,
    method,
    address: method === 'email_code' ? (signer.email ?? null) : null,
    occurred_at: now,
    ip: attempt.ip,
    user_agent: attempt.userAgent,
  });
  const recordFailure = () => recordVerification(deps.storage.db.query, verificationRow('failed'));

  if (method === 'email_code') {
    const claimed = await claimCodeTry(deps.storage.db.query, document.id, signer.id, now, VERIFICATION_MAX_ATTEMPTS);
    if (!claimed) {
      const last = await findSignerCode(deps.storage.db.query, document.id, signer.id);
      if (!last) throw failed('no_code', 'No code has been sent, or it was used: ask for a new one');
      if (last.expires_at <= now) throw failed('expired', 'The code has expired: ask for a new one');
      throw codeUsedUp();
    }
    if (!sameHash(emailCodeHash(deps.secret, document.id, signer.id, code), claimed.code_hash)) {
      await recordFailure();
      const left = VERIFICATION_MAX_ATTEMPTS - claimed.failures;
      if (left === 0) throw codeUsedUp();
      throw failed('wrong_code', 'The code is not right', left);
    }
  } else {
    const tries = await claimAccessCodeTry(deps.storage.db.query, document.id, signer.id, now, VERIFICATION_MAX_ATTEMPTS);
    if (tries === undefined) {
      const lock = await findAccessCodeLock(deps.storage.db.query, document.id, signer.id);
      throw tooSoon('locked', 'Too many wrong access codes: try again later', lock?.lockedUntil ?? now + ACCESS_CODE_LOCK_SECONDS * 1000, now);
    }
    if (!signer.accessCodeHash || !(await accessCodeMatches(code, signer.accessCodeHash))) {
      await recordFailure();
      if (tries >= VERIFICATION_MAX_ATTEMPTS) {
        const until = now + ACCESS_CODE_LOCK_SECONDS * 1000;
        await lockAccessCode(deps.storage.db.query, document.id, signer.id, until);
        throw tooSoon('locked', 'Too many wrong access codes: try again later', until, now);
      }
      throw failed('wrong_code', 'The access code is not right', VERIFICATION_MAX_ATTEMPTS - tries);
    }
  }
  const verifiedAt = attempt.at.toISOString();
  // The verification and its webhook event in one transaction: neither is recorded without the other.
  const enqueued = await deps.storage.db.transaction(async (tx) => {
    await recordVerification(tx.query, verificationRow('verified'));
    return enqueueDocumentEvent(tx.query, document.id, {
      type: 'signer.verified',
      occurredAt: verifiedAt,
      data: { documentId: document.id, signerId: signer.id, signerName: signer.name, method, verifiedAt },
    });
  });
  webhookEventsEnqueued(deps.storage.db, enqueued);
  return { verified: true, method, verifiedAt };
}
