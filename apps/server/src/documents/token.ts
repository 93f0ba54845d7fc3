import { createHmac, timingSafeEqual } from 'node:crypto';

function mac(secret: string, documentId: string, version: number, expires: number): Buffer {
  return createHmac('sha256', secret).update(`${documentId}\n${version}\n${expires}`).digest();
}

/**
 * A document token: the capability in `documentUrl` (SPEC §4). HMAC-SHA256 over document id, version and expiry,
 * written `<expiry unix seconds>.<base64url mac>`.
 * @example signDocumentToken(secret, { documentId: 'doc_…', version: 1, expires: 1764000000 })
 */
export function signDocumentToken(
  secret: string,
  { documentId, version, expires }: { documentId: string; version: number; expires: number },
): string {
  return `${expires}.${mac(secret, documentId, version, expires).toString('base64url')}`;
}

export type TokenCheck = 'valid' | 'expired' | 'invalid';

/** `<expiry>.<mac>`: the expiry in decimal without leading zeros, the MAC as 43 characters of base64url. */
const TOKEN = /^(0|[1-9]\d{0,11})\.([A-Za-z0-9_-]{43})$/;

/**
 * Whether `token` grants the file of this version of this document at `now`. Only the form `signDocumentToken`
 * writes is accepted: base64url leaves 2 bits of the MAC's last character unused, so 4 texts decode to the same
 * bytes, and `0` pads the expiry; comparing the canonical texts (in constant time) refuses the other forms.
 */
export function checkDocumentToken(
  secret: string,
  token: string | undefined,
  { documentId, version, now }: { documentId: string; version: number; now: Date },
): TokenCheck {
  const match = token ? TOKEN.exec(token) : null;
  if (!match) return 'invalid';
  const expires = Number(match[1]);
  const given = Buffer.from(match[2]!, 'latin1');
  const expected = Buffer.from(mac(secret, documentId, version, expires).toString('base64url'), 'latin1');
  if (!timingSafeEqual(given, expected)) return 'invalid';
  return expires * 1000 <= now.getTime() ? 'expired' : 'valid';
}
