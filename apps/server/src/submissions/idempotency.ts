import { ApiError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import type { IdempotencyScope } from '../storage/types.js';
import { submitDocument, type SubmitRequest, type SubmitResponse } from './submit.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../storage/queries/idempotency.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A claim still unfinished after this long belongs to a request that died; a retry may take it over. */
const STALE_CLAIM_MS = 60_000;

/** A submit's answer, and whether it repeats the one stored under its `Idempotency-Key`. */
export interface IdempotentSubmitResponse extends SubmitResponse {
  replayed: boolean;
}

/**
 * A submission under an `Idempotency-Key` (docs/api.md, "Idempotency"; Stripe's semantics), scoped to the organization: the same key
 * and body within 24 h replay the first response; another body is a 422; a key still in flight is a 409. Only
 * successes are kept: a refused request frees its key, so a corrected body may use it.
 * @example const { status, result, replayed } = await submitWithIdempotencyKey(deps, request, 'order-42')
 */
export async function submitWithIdempotencyKey(
  deps: AppContext,
  request: SubmitRequest,
  idempotencyKey: string,
): Promise<IdempotentSubmitResponse> {
  const scope: IdempotencyScope = { organizationId: request.key.organizationId, key: idempotencyKey };
  // The server's checksum of the body plus the one it claims: key order and whitespace do not change a body.
  const fingerprint = `${request.checksum}:${request.payload.checksum}`;
  const claim = await claimIdempotencyKey(deps.storage.db, scope, fingerprint, {
    now: request.receivedAt,
    expiresAfterMs: DAY_MS,
    staleAfterMs: STALE_CLAIM_MS,
  });
  switch (claim.state) {
    case 'in_flight':
      throw new ApiError('SUBMISSION_FAILED', 'A request with this Idempotency-Key is still being processed', {
        details: { reason: 'the first request with this Idempotency-Key has not finished; retry later' },
        // Tells a client that retrying is the way out: the replay of the first response follows.
        headers: { 'Retry-After': '1' },
      });
    case 'mismatch':
      throw new ApiError('VALIDATION_ERROR', 'This Idempotency-Key was used with a different body', {
        status: 422,
        details: { field: 'Idempotency-Key', reason: 'an Idempotency-Key may only be reused with the same body' },
      });
    case 'completed':
      return { status: claim.status as SubmitResponse['status'], result: JSON.parse(claim.body), replayed: true };
    case 'claimed':
      break;
  }
  let response: SubmitResponse;
  try {
    response = await submitDocument(deps, { ...request, idempotency: scope });
  } catch (error) {
    await releaseIdempotencyKey(deps.storage.db.query, scope);
    throw error;
  }
  // A 201 is stored with the submission, in its transaction; a replay of a completed document is stored here.
  if (response.status === 200) await completeIdempotencyKey(deps.storage.db.query, scope, 200, JSON.stringify(response.result));
  return { ...response, replayed: false };
}
