import { createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { EMAIL_CODE_LENGTH } from '@signet/contract';
import type { StoredSigner } from '../storage/types.js';

/*
 * The secrets of signer verification (docs/signer-auth.md, "What is stored"): an access code is kept as a salted
 * scrypt hash (the sender chose it, so it may be guessable: a slow hash), an e-mailed code as an HMAC under the
 * server's secret (six digits are too few for any hash alone; it lives ten minutes and five tries).
 */

/** scrypt's cost: N = 2^14, r = 8, p = 1 (about 16 MiB and 30–50 ms), a 32-byte hash. */
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

export type { StoredSigner };

function scryptHash(code: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(code, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * `scrypt$N$r$p$salt$hash` (base64url) of an access code, with a fresh 16-byte salt.
 * @example const stored = await hashAccessCode('blue-harbour-42')
 */
export async function hashAccessCode(code: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptHash(code, salt);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Whether `code` is the access code `stored` hashes, compared in constant time. */
export async function accessCodeMatches(code: string, stored: string): Promise<boolean> {
  const [scheme, , , , salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptHash(code, Buffer.from(salt, 'base64url'));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Signers with each `accessCode` replaced by its hash: what is stored, so no code is ever at rest.
 * @example record.signers = await protectAccessCodes(signers)
 */
export async function protectAccessCodes(signers: readonly StoredSigner[]): Promise<StoredSigner[]> {
  return Promise.all(
    signers.map(async ({ accessCode, ...signer }) => (accessCode === undefined ? signer : { ...signer, accessCodeHash: await hashAccessCode(accessCode) })),
  );
}

/** Six digits from the CSPRNG, leading zeros kept. */
export function newEmailCode(): string {
  return String(randomInt(0, 10 ** EMAIL_CODE_LENGTH)).padStart(EMAIL_CODE_LENGTH, '0');
}

/** The HMAC-SHA-256 (hex) of an e-mailed code, bound to its document and signer. */
export function emailCodeHash(secret: string, documentId: string, signerId: string, code: string): string {
  return createHmac('sha256', secret).update(`signer-code\0${documentId}\0${signerId}\0${code}`).digest('hex');
}

/** Whether two hex hashes are equal, in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
