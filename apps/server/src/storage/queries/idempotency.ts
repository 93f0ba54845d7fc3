import type { Tables } from '../tables.js';
import type { SqlDatabase } from '../sql-database.js';
import type { Db } from '../typed-queries.js';
import type { IdempotencyClaim, IdempotencyScope } from '../types.js';

/*
 * `Idempotency-Key` claims (docs/decisions.md, "One storage layer"): insert the key, and only when it exists, lock its
 * row and decide, on both engines.
 */

/** A claim retries when the row it conflicted with was released before it could be read; this bounds the loop. */
const MAX_CLAIM_ATTEMPTS = 5;

type ClaimOptions = { now: Date; expiresAfterMs: number; staleAfterMs: number };

/**
 * What a claim of an idempotency key finds, given its current row: the answer, and whether the caller must rewrite
 * the row as a fresh in-flight claim of `fingerprint` — when expired, or in flight but stale.
 */
export function decideIdempotencyClaim(
  row: Pick<Tables['idempotency_keys'], 'fingerprint' | 'status' | 'response_status' | 'response_body' | 'created_at'>,
  fingerprint: string,
  options: ClaimOptions,
): { claim: IdempotencyClaim; write: boolean } {
  const age = options.now.getTime() - row.created_at;
  if (age > options.expiresAfterMs) return { claim: { state: 'claimed' }, write: true };
  if (row.fingerprint !== fingerprint) return { claim: { state: 'mismatch' }, write: false };
  if (row.status === 'completed') {
    return { claim: { state: 'completed', status: row.response_status!, body: row.response_body! }, write: false };
  }
  if (age > options.staleAfterMs) return { claim: { state: 'claimed' }, write: true };
  return { claim: { state: 'in_flight' }, write: false };
}

/**
 * Claims an `Idempotency-Key` for a request whose body has `fingerprint`. A claim older than `expiresAfterMs`
 * counts as absent; an unfinished one older than `staleAfterMs` is taken over (its request died).
 */
export async function claimIdempotencyKey(
  database: SqlDatabase,
  scope: IdempotencyScope,
  fingerprint: string,
  options: ClaimOptions,
): Promise<IdempotencyClaim> {
  const { organizationId, key } = scope;
  const now = options.now.getTime();
  for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
    // A new key, the common case: one statement. A concurrent insert of the same key makes this one wait for it.
    const inserted = await database.query
      .insertInto('idempotency_keys')
      .values({ organization_id: organizationId, key, fingerprint, status: 'in_flight', created_at: now })
      .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows === 1n) return { state: 'claimed' };

    const claim = await database.transaction(async (tx) => {
      const row = await tx.query
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'status', 'response_status', 'response_body', 'created_at'])
        .where('organization_id', '=', organizationId)
        .where('key', '=', key)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return null;
      const { claim, write } = decideIdempotencyClaim(row, fingerprint, options);
      if (write) {
        await tx.query
          .updateTable('idempotency_keys')
          .set({ fingerprint, status: 'in_flight', response_status: null, response_body: null, created_at: now })
          .where('organization_id', '=', organizationId)
          .where('key', '=', key)
          .execute();
      }
      return claim;
    });
    if (claim) return claim;
  }
  throw new Error(`Idempotency key ${JSON.stringify(key)} kept being released while it was claimed`);
}

/** Stores the response of a claimed key, to be replayed (in the caller's transaction, or alone). */
export async function completeIdempotencyKey(db: Db, scope: IdempotencyScope, status: number, body: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: 'completed', response_status: status, response_body: body })
    .where('organization_id', '=', scope.organizationId)
    .where('key', '=', scope.key)
    .execute();
}

/** Drops an unfinished claim, so that the request can be tried again. */
export async function releaseIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('organization_id', '=', scope.organizationId)
    .where('key', '=', scope.key)
    .where('status', '=', 'in_flight')
    .execute();
}
