import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Encrypts and decrypts small values kept in the database under a key derived from `SIGNET_SECRET`. */
export interface SecretBox {
  /** `iv (12) ‖ tag (16) ‖ ciphertext`, AES-256-GCM. */
  seal(plaintext: Uint8Array): Uint8Array;
  /** The plaintext of `seal`'s output; throws when it was sealed under another secret or altered. */
  open(sealed: Uint8Array): Uint8Array;
}

/**
 * A key derived from the server's secret for one purpose (HKDF-SHA256, salt "signet", `purpose` as its info), so
 * that values of different purposes never share a key.
 * @example const box = secretBox(secret, 'signet webhook secrets'); box.open(box.seal(bytes));
 */
export function secretBox(secret: string, purpose: string): SecretBox {
  const key = deriveKey(secret, purpose);
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), ciphertext]));
    },
    open(sealed) {
      const bytes = Buffer.from(sealed);
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]));
    },
  };
}

/**
 * 32 bytes derived from the server's secret for `purpose`.
 * @example deriveKey(secret, 'signet signing-p12 password').toString('base64url')
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'signet', purpose, 32));
}
