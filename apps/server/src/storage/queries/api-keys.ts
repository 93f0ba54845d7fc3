import type { ApiKeyKind, Scope } from '@signet/contract';
import type { Tables } from '../tables.js';
import type { Db } from '../typed-queries.js';
import type { ApiKeyRecord, AuthenticatedKey, IsoTime, SessionKeyRecord } from '../types.js';
import { toIso, toIsoOrNull, toMillis, toMillisOrNull } from '../schema.js';

/*
 * API keys, an organization's and the session keys bound to one document (and signer). Only a key's hash is stored.
 */

type ApiKeyRow = Tables['api_keys'];

/** An `api_keys` row as a record; `documentId` and `signerId` only on a session key. */
function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    kind: row.kind as ApiKeyKind,
    hash: row.hash,
    displayPrefix: row.display_prefix,
    scopes: JSON.parse(row.scopes) as Scope[],
    expiresAt: toIsoOrNull(row.expires_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
    rateLimit: row.rate_limit,
    createdAt: toIso(row.created_at),
    ...(row.document_id === null ? {} : { documentId: row.document_id, signerId: row.signer_id }),
    ...(row.builder === null ? {} : { builder: row.builder }),
  };
}

/** Stores a new key. */
export async function insertApiKey(db: Db, key: ApiKeyRecord): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      organization_id: key.organizationId,
      kind: key.kind,
      hash: key.hash,
      display_prefix: key.displayPrefix,
      scopes: JSON.stringify(key.scopes),
      expires_at: toMillisOrNull(key.expiresAt),
      revoked_at: toMillisOrNull(key.revokedAt),
      allowed_origins: JSON.stringify(key.allowedOrigins),
      rate_limit: key.rateLimit,
      created_at: toMillis(key.createdAt),
      document_id: key.documentId ?? null,
      signer_id: key.signerId ?? null,
      builder: key.builder ?? null,
    })
    .execute();
}

/** A key with its organization, looked up by one of its unique columns. */
async function findAuthenticatedKey(db: Db, column: 'k.hash' | 'k.id', value: string): Promise<AuthenticatedKey | null> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('organizations as o', 'o.id', 'k.organization_id')
    .selectAll('k')
    .select(['o.slug as organization_slug', 'o.name as organization_name', 'o.created_at as organization_created_at'])
    .where(column, '=', value)
    .executeTakeFirst();
  if (!row) return null;
  const organization = { id: row.organization_id, slug: row.organization_slug, name: row.organization_name, createdAt: toIso(row.organization_created_at) };
  return { ...toApiKey(row), organization };
}

/** The key with this hash and its organization, whatever its revocation or expiry. */
export function findApiKeyByHash(db: Db, hash: string): Promise<AuthenticatedKey | null> {
  return findAuthenticatedKey(db, 'k.hash', hash);
}

/** The key with this id and its organization, whatever its revocation or expiry (a document token's key). */
export function findApiKeyById(db: Db, id: string): Promise<AuthenticatedKey | null> {
  return findAuthenticatedKey(db, 'k.id', id);
}

/** Sets `revokedAt` unless already set; false when no such key exists. */
export async function revokeApiKey(db: Db, id: string, revokedAt: IsoTime): Promise<boolean> {
  const revoked = await db
    .updateTable('api_keys')
    .set({ revoked_at: toMillis(revokedAt) })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (revoked.numUpdatedRows === 1n) return true;
  return (await db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/**
 * Revokes a session key of a document (`builder`: a builder session key, else a signer's); the key's record (its
 * revocation time the first one), or null when the document has no such key of that kind.
 */
export async function revokeSessionKey(
  db: Db,
  documentId: string,
  keyId: string,
  revokedAt: IsoTime,
  { builder = false }: { builder?: boolean } = {},
): Promise<SessionKeyRecord | null> {
  const ofKind = <Q extends { where: (column: 'builder', op: 'is' | 'is not', value: null) => Q }>(query: Q) =>
    query.where('builder', builder ? 'is not' : 'is', null);
  await ofKind(
    db.updateTable('api_keys').set({ revoked_at: toMillis(revokedAt) }).where('id', '=', keyId).where('document_id', '=', documentId).where('revoked_at', 'is', null),
  ).execute();
  const row = await ofKind(db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('document_id', '=', documentId)).executeTakeFirst();
  if (!row) return null;
  const { id, expiresAt, revokedAt: revoked, allowedOrigins, createdAt } = toApiKey(row);
  return { id, expiresAt, revokedAt: revoked, allowedOrigins, createdAt, documentId, signerId: row.signer_id, builder: row.builder ?? undefined };
}

/**
 * Revokes every session and builder session key of a document still usable (a void: docs/lifecycle.md); the ids of
 * those it revoked, so that the caller can drop them from its read cache.
 */
export async function revokeDocumentKeys(db: Db, documentId: string, revokedAt: IsoTime): Promise<string[]> {
  const rows = await db.selectFrom('api_keys').select('id').where('document_id', '=', documentId).where('revoked_at', 'is', null).execute();
  if (rows.length === 0) return [];
  await db
    .updateTable('api_keys')
    .set({ revoked_at: toMillis(revokedAt) })
    .where('document_id', '=', documentId)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.map((row) => row.id);
}
