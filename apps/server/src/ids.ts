import { customAlphabet } from 'nanoid';
import type { IdPrefix } from '@signet/contract';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const idBody = customAlphabet(ALPHANUMERIC, 24);
const secretBody = customAlphabet(ALPHANUMERIC, 40);

/**
 * A new random id such as `doc_3fK9…` (24 characters of [A-Za-z0-9], about 143 bits).
 * @example newId('sub')
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${idBody()}`;
}

/** A new random key secret body (40 characters of [A-Za-z0-9], about 238 bits). */
export function newSecretBody(): string {
  return secretBody();
}
