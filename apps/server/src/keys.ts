import { hash } from 'node:crypto';
import type { ApiKeyKind } from '@signet/contract';
import { newSecretBody } from './ids.js';

/** SHA-256 hex of a key secret: the only form in which a key is stored. Runs on every request (one-shot hash). */
export function hashApiKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** The short prefix shown to people to recognise a key (`pk_AbCd…`); never enough to use it. */
export function displayPrefix(secret: string): string {
  return `${secret.slice(0, 7)}…`;
}

/**
 * A new key secret of the given kind, with its hash and display prefix.
 * @example const { secret, hash } = generateApiKey('pk')
 */
export function generateApiKey(kind: ApiKeyKind): { secret: string; hash: string; prefix: string } {
  const secret = `${kind}_${newSecretBody()}`;
  return { secret, hash: hashApiKey(secret), prefix: displayPrefix(secret) };
}
