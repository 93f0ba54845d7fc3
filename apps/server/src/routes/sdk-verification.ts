import { endpoints } from '@signet/contract';
import type { Context } from 'hono';
import { ApiError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import type { AppEnv } from '../http/env.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { requestHeader } from '../http/request-header.js';
import { parseOrThrow } from '../http/validation.js';
import { clientIp } from '../middleware/api-key/client-ip.js';
import { assertSessionDocument } from '../middleware/api-key/index.js';
import { draftNotSignable } from '../documents/drafts.js';
import { expiredNotSignable } from '../documents/expiry.js';
import { voidedNotSignable } from '../documents/void.js';
import { signerToVerify } from '../signer-auth/gate.js';
import { checkCode, sendEmailCode, type VerificationAttempt } from '../signer-auth/verify.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument } from './sdk-documents.js';

/** A code is at most 64 characters: 1 KiB is plenty. */
const MAX_CHECK_BODY_BYTES = 1024;
/** Checks a minute, per session key and per client address, on top of each code's own tries. */
const CHECKS_PER_MINUTE = { key: 10, ip: 30 } as const;

/** The signer `c`'s session key signs as, who must verify, on its own signable document; 403/404/409 otherwise. */
async function attemptOf(deps: AppContext, c: Context<AppEnv>, documentId: string): Promise<VerificationAttempt> {
  const key = c.get('apiKey');
  if (!key.signerId) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 'Only a signer\'s session key proves who its signer is', {
      details: { reason: 'not a session key of a signer of this document' },
    });
  }
  assertSessionDocument(key, documentId);
  const document = await findOwnDocument(deps, key.organizationId, documentId);
  if (document.status === 'draft') throw draftNotSignable(document);
  if (document.status === 'voided') throw voidedNotSignable(document);
  if (document.status === 'expired') throw expiredNotSignable(document);
  const signer = signerToVerify(key, document);
  if (!signer) throw new ApiError('VERIFICATION_FAILED', 'This signer has nothing to prove: the document opens as it is', { details: { reason: 'not_required' } });
  return {
    document,
    signer,
    keyId: key.id,
    at: new Date(c.get('receivedAt')),
    ip: clientIp(c, deps.config.trustProxy),
    userAgent: requestHeader(c, 'user-agent') ?? null,
  };
}

/** Counts a check against the key's and the address's minute (docs/signer-auth.md, "Limits"); 429 past either. */
async function limitChecks(deps: AppContext, keyId: string, ip: string | null): Promise<void> {
  const decisions = await Promise.all([
    deps.rateLimits.consume(`verify:${keyId}`, CHECKS_PER_MINUTE.key),
    ...(ip ? [deps.rateLimits.consume(`verify-ip:${ip}`, CHECKS_PER_MINUTE.ip)] : []),
  ]);
  const refused = decisions.find((decision) => !decision.allowed);
  if (refused) {
    throw new ApiError('RATE_LIMIT_EXCEEDED', 'Too many code checks: wait a moment', {
      details: { reason: 'check_limit', retryAfter: refused.retryAfter },
      headers: { 'Retry-After': String(refused.retryAfter) },
    });
  }
}

/** `POST /sdk/documents/{id}/verification` and `…/verification/check` (docs/signer-auth.md). */
export function verificationHandlers(deps: AppContext): Pick<EndpointHandlers, 'sendVerificationCode' | 'checkVerification'> {
  return {
    sendVerificationCode: handler(endpoints.sendVerificationCode, {
      async handle(c, { params }) {
        const attempt = await attemptOf(deps, c, params.documentId);
        return c.json(await sendEmailCode(deps, attempt), 202);
      },
    }),
    checkVerification: handler(endpoints.checkVerification, {
      before: [smallJsonBodyLimit(MAX_CHECK_BODY_BYTES)],
      readsItself: ['body'],
      async handle(c, { params }) {
        const attempt = await attemptOf(deps, c, params.documentId);
        await limitChecks(deps, attempt.keyId, attempt.ip);
        const { code } = parseOrThrow(endpoints.checkVerification.request.body.schema, await readJsonObject(c));
        return c.json(await checkCode(deps, attempt, code), 200);
      },
    }),
  };
}
