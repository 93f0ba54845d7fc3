import { createHmac, timingSafeEqual } from 'node:crypto';

function mac(secret: string, documentId: string, version: number, expires: number, keyId: string): Buffer {
  return createHmac('sha256', secret).update(`${documentId}\n${version}\n${expires}\n${keyId}`).digest();
}

/**
 * The version a document token binds: its file's, and a document's file never changes once uploaded. A draft's edits
 * raise the document's `version` (its ETag) but leave its file as it was, so the `documentUrl` a builder holds keeps
 * working while it saves (docs/decisions.md, "Drafts and builder sessions"). Every document's `version` was 1 until
 * drafts, so the tokens signed before are the same.
 */
export const FILE_VERSION = 1;

/** What a document token grants: this version of this document, until `expires`, while the key `keyId` is usable. */
export interface DocumentGrant {
  documentId: string;
  version: number;
  /** Unix seconds. */
  expires: number;
  /** The API key (or session key) that obtained the token: revoking or expiring it ends the token. */
  keyId: string;
}

/**
 * A document token: the capability in `documentUrl` and `signedDocumentUrl`. HMAC-SHA256 over document id, version,
 * expiry and the id of the key that obtained it, written `<expiry unix seconds>.<key id>.<base64url mac>` (URL-safe
 * as it stands). The key id is in clear so that the check can ask whether that key is still usable; the MAC binds
 * it, so that it cannot be swapped for another key's (see docs/decisions.md).
 * @example signDocumentToken(secret, { documentId: 'doc_…', version: 1, expires: 1764000000, keyId: 'key_…' })
 */
export function signDocumentToken(secret: string, { documentId, version, expires, keyId }: DocumentGrant): string {
  return `${expires}.${keyId}.${mac(secret, documentId, version, expires, keyId).toString('base64url')}`;
}

/** A token's MAC and expiry checked; when valid, the key whose state the caller checks next. */
export type TokenCheck = { status: 'valid'; keyId: string } | { status: 'expired' | 'invalid' };

/**
 * `<expiry>.<key id>.<mac>`: the expiry in decimal without leading zeros, the key id as the server writes it
 * (`key_` and letters and digits), the MAC as 43 characters of base64url.
 */
const TOKEN = /^(0|[1-9]\d{0,11})\.(key_[A-Za-z0-9]{1,64})\.([A-Za-z0-9_-]{43})$/;

/**
 * Whether `token` grants the file of this version of this document at `now`, and for which key. Only the form
 * `signDocumentToken` writes is accepted: base64url leaves 2 bits of the MAC's last character unused, so 4 texts
 * decode to the same bytes, and `0` pads the expiry; comparing the canonical texts (in constant time) refuses the
 * other forms. Tokens of the form before the key id (`<expiry>.<mac>`) are invalid.
 */
export function checkDocumentToken(
  secret: string,
  token: string | undefined,
  { documentId, version, now }: { documentId: string; version: number; now: Date },
): TokenCheck {
  const match = token ? TOKEN.exec(token) : null;
  if (!match) return { status: 'invalid' };
  const expires = Number(match[1]);
  const keyId = match[2]!;
  const given = Buffer.from(match[3]!, 'latin1');
  const expected = Buffer.from(mac(secret, documentId, version, expires, keyId).toString('base64url'), 'latin1');
  if (!timingSafeEqual(given, expected)) return { status: 'invalid' };
  return expires * 1000 <= now.getTime() ? { status: 'expired' } : { status: 'valid', keyId };
}
