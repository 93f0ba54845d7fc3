import type { ApiKeyKind, DocumentStatus, Scope } from '@signet/contract';
import type {
  ApiKeyRecord,
  AuthenticatedKey,
  DocumentPreview,
  DocumentRecord,
  IdempotencyClaim,
  IsoTime,
  NewDocument,
  Organization,
  StoredSubmission,
} from './types.js';

/*
 * The rows of the tables (`migrations/`) and how a row becomes a record, on both engines. Times are stored as epoch
 * milliseconds and become ISO strings only at this edge.
 */

/** Size of the pieces a document's file is stored in, so that a range read loads only the pieces it covers. */
export const CHUNK_SIZE = 256 * 1024;

/** Epoch milliseconds as a row holds them: a number from SQLite, a string from PostgreSQL's BIGINT. */
type Millis = number | string;

/** Epoch milliseconds of an ISO time; throws on a string that is not a time. */
export function toMillis(time: IsoTime): number {
  const ms = Date.parse(time);
  if (!Number.isFinite(ms)) throw new Error(`Not a valid time: ${JSON.stringify(time)}`);
  return ms;
}

function toMillisOrNull(time: IsoTime | null): number | null {
  return time === null ? null : toMillis(time);
}

function toIso(ms: Millis): IsoTime {
  return new Date(Number(ms)).toISOString();
}

function toIsoOrNull(ms: Millis | null): IsoTime | null {
  return ms === null ? null : toIso(ms);
}

export const ORGANIZATION_COLUMNS = 'id, slug, name, created_at';

export interface OrganizationRow {
  id: string;
  slug: string;
  name: string;
  created_at: Millis;
}

export function toOrganization(row: OrganizationRow): Organization {
  return { id: row.id, slug: row.slug, name: row.name, createdAt: toIso(row.created_at) };
}

/** An API key joined with its organization (`k` and `o`), as `findApiKeyByHash` reads it. */
export const AUTHENTICATED_KEY_SELECT = `
  SELECT k.id, k.organization_id, k.kind, k.hash, k.display_prefix, k.scopes, k.expires_at, k.revoked_at,
         k.allowed_origins, k.rate_limit, k.created_at, k.document_id, k.signer_id,
         o.slug AS organization_slug, o.name AS organization_name, o.created_at AS organization_created_at
  FROM api_keys k JOIN organizations o ON o.id = k.organization_id`;

export interface AuthenticatedKeyRow {
  id: string;
  organization_id: string;
  kind: string;
  hash: string;
  display_prefix: string;
  scopes: string;
  expires_at: Millis | null;
  revoked_at: Millis | null;
  allowed_origins: string;
  rate_limit: number;
  created_at: Millis;
  document_id: string | null;
  signer_id: string | null;
  organization_slug: string;
  organization_name: string;
  organization_created_at: Millis;
}

/** The values of an `api_keys` row, in the order of `API_KEY_INSERT_COLUMNS`. */
export const API_KEY_INSERT_COLUMNS = `id, organization_id, kind, hash, display_prefix, scopes, expires_at, revoked_at,
  allowed_origins, rate_limit, created_at, document_id, signer_id`;

export function apiKeyValues(key: ApiKeyRecord): unknown[] {
  return [
    key.id,
    key.organizationId,
    key.kind,
    key.hash,
    key.displayPrefix,
    JSON.stringify(key.scopes),
    toMillisOrNull(key.expiresAt),
    toMillisOrNull(key.revokedAt),
    JSON.stringify(key.allowedOrigins),
    key.rateLimit,
    toMillis(key.createdAt),
    key.documentId ?? null,
    key.signerId ?? null,
  ];
}

export function toAuthenticatedKey(row: AuthenticatedKeyRow): AuthenticatedKey {
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
    organization: {
      id: row.organization_id,
      slug: row.organization_slug,
      name: row.organization_name,
      createdAt: toIso(row.organization_created_at),
    },
  };
}

export const DOCUMENT_COLUMNS = `id, organization_id, filename, mime_type, page_count, file_size, sha256, fields,
  status, version, created_at, updated_at, signers, signing_order, declined_at, decline_reason, declined_by, declined_ip,
  declined_user_agent`;

export interface DocumentRow {
  id: string;
  organization_id: string;
  filename: string;
  mime_type: string;
  page_count: number;
  file_size: Millis;
  sha256: string;
  fields: string;
  status: string;
  version: number;
  created_at: Millis;
  updated_at: Millis;
  signers: string | null;
  signing_order: string | null;
  declined_at: Millis | null;
  decline_reason: string | null;
  declined_by: string | null;
  declined_ip: string | null;
  declined_user_agent: string | null;
}

/** The values of a `documents` row, in the order of `DOCUMENT_COLUMNS`. */
export function documentValues(document: DocumentRecord): unknown[] {
  return [
    document.id,
    document.organizationId,
    document.filename,
    document.mimeType,
    document.pageCount,
    document.fileSize,
    document.sha256,
    JSON.stringify(document.fields),
    document.status,
    document.version,
    toMillis(document.createdAt),
    toMillis(document.updatedAt),
    document.signers ? JSON.stringify(document.signers) : null,
    document.signers ? (document.signingOrder ?? 'parallel') : null,
    document.declined ? toMillis(document.declined.at) : null,
    document.declined?.reason ?? null,
    document.declined?.signerId ?? null,
    document.declined?.ip ?? null,
    document.declined?.userAgent ?? null,
  ];
}

export function toDocument(row: DocumentRow): DocumentRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    filename: row.filename,
    mimeType: row.mime_type,
    pageCount: row.page_count,
    fileSize: Number(row.file_size),
    sha256: row.sha256,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    version: row.version,
    status: row.declined_at === null ? (row.status as DocumentStatus) : 'declined',
    fields: JSON.parse(row.fields) as DocumentRecord['fields'],
    ...(row.signers === null
      ? {}
      : {
          signers: JSON.parse(row.signers) as NonNullable<DocumentRecord['signers']>,
          signingOrder: row.signing_order as NonNullable<DocumentRecord['signingOrder']>,
        }),
    ...(row.declined_at === null
      ? {}
      : {
          declined: {
            reason: row.decline_reason ?? '',
            at: toIso(row.declined_at),
            signerId: row.declined_by,
            ip: row.declined_ip,
            userAgent: row.declined_user_agent,
          },
        }),
  };
}

export const SUBMISSION_COLUMNS =
  'id, document_id, signer_id, organization_id, key_id, checksum, payload, result, client_ip, user_agent, received_at, seal_images';

/** The implicit signer's `signer_id` (a document without signers): never a signer id, which is never empty. */
export const IMPLICIT_SIGNER = '';

export interface SubmissionRow {
  id: string;
  document_id: string;
  signer_id: string;
  organization_id: string;
  key_id: string;
  checksum: string;
  payload: string;
  result: string;
  client_ip: string | null;
  user_agent: string | null;
  received_at: Millis;
  seal_images: string | null;
}

/** The values of a `submissions` row, in the order of `SUBMISSION_COLUMNS`. */
export function submissionValues(submission: StoredSubmission): unknown[] {
  return [
    submission.id,
    submission.documentId,
    submission.signerId ?? IMPLICIT_SIGNER,
    submission.organizationId,
    submission.keyId,
    submission.checksum,
    submission.payload,
    JSON.stringify(submission.result),
    submission.clientIp,
    submission.userAgent,
    toMillis(submission.receivedAt),
    submission.sealImages ? JSON.stringify(submission.sealImages) : null,
  ];
}

export function toSubmission(row: SubmissionRow): StoredSubmission {
  return {
    id: row.id,
    documentId: row.document_id,
    ...(row.signer_id === IMPLICIT_SIGNER ? {} : { signerId: row.signer_id }),
    organizationId: row.organization_id,
    keyId: row.key_id,
    checksum: row.checksum,
    payload: row.payload,
    result: JSON.parse(row.result) as StoredSubmission['result'],
    clientIp: row.client_ip,
    userAgent: row.user_agent,
    receivedAt: toIso(row.received_at),
    ...(row.seal_images ? { sealImages: JSON.parse(row.seal_images) as Record<string, string> } : {}),
  };
}

export const PREVIEW_COLUMNS = 'media_type, width, height, content';

export interface PreviewRow {
  media_type: string;
  width: number;
  height: number;
  content: Uint8Array;
}

/** The values of a `document_previews` row: document id, then `PREVIEW_COLUMNS`, then the time it was stored. */
export function previewValues(documentId: string, preview: DocumentPreview): unknown[] {
  return [documentId, preview.mediaType, preview.width, preview.height, preview.content, Date.now()];
}

export function toPreview(row: PreviewRow): DocumentPreview {
  return { mediaType: row.media_type, width: row.width, height: row.height, content: row.content };
}

/** Range reads trust `fileSize`; a record that disagrees with its bytes is a bug of the caller. */
export function assertFileSize(document: NewDocument, content: Uint8Array): void {
  if (document.fileSize !== content.length) {
    throw new Error(`Document ${document.id}: fileSize ${document.fileSize} differs from its ${content.length} bytes`);
  }
}

/** Which chunks hold bytes `start` to `end` (inclusive), and where the range begins in the first of them. */
export function chunkSpan(start: number, end: number): { first: number; last: number; offset: number } {
  const first = Math.floor(start / CHUNK_SIZE);
  return { first, last: Math.floor(end / CHUNK_SIZE), offset: start - first * CHUNK_SIZE };
}

/** Bytes `offset` to `offset + length` of the concatenated `chunks`, copying only when the range spans several. */
export function sliceChunks(chunks: Uint8Array[], offset: number, length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!.subarray(offset, offset + length);
  return Buffer.concat(chunks).subarray(offset, offset + length);
}

export interface IdempotencyRow {
  fingerprint: string;
  status: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Millis;
}

/**
 * What a claim of an idempotency key finds, given its current row: the answer, and whether the caller must rewrite
 * the row as a fresh in-flight claim of `fingerprint` — when expired, or in flight but stale.
 */
export function decideIdempotencyClaim(
  row: IdempotencyRow,
  fingerprint: string,
  options: { now: Date; expiresAfterMs: number; staleAfterMs: number },
): { claim: IdempotencyClaim; write: boolean } {
  const age = options.now.getTime() - Number(row.created_at);
  if (age > options.expiresAfterMs) return { claim: { state: 'claimed' }, write: true };
  if (row.fingerprint !== fingerprint) return { claim: { state: 'mismatch' }, write: false };
  if (row.status === 'completed') {
    return { claim: { state: 'completed', status: row.response_status!, body: row.response_body! }, write: false };
  }
  if (age > options.staleAfterMs) return { claim: { state: 'claimed' }, write: true };
  return { claim: { state: 'in_flight' }, write: false };
}
