import { z } from './zod.js';

/**
 * Prefixes of Signet's identifiers: organizations, documents, submissions, key records, requests, webhook endpoints,
 * webhook events (the `webhook-id` header), webhook deliveries, templates and bulk jobs.
 */
export const ID_PREFIXES = ['org', 'doc', 'sub', 'key', 'req', 'wh', 'msg', 'dlv', 'tpl', 'blk'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** Characters after the prefix: at least 20 of `[A-Za-z0-9]` (docs/api.md, "Identifiers"). */
export const ID_BODY_MIN_LENGTH = 20;

const patterns = Object.fromEntries(
  ID_PREFIXES.map((prefix) => [prefix, new RegExp(`^${prefix}_[A-Za-z0-9]{${ID_BODY_MIN_LENGTH},64}$`)]),
) as Record<IdPrefix, RegExp>;

/**
 * Whether `value` is a well-formed id of the given kind.
 * @example isId('doc', 'doc_V1StGXR8Z5jdHi6BmyTaQ') // true
 */
export function isId(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && patterns[prefix].test(value);
}

/** A zod schema for an id of the given kind; its error message is the `reason` of a 400. */
export function idSchema(prefix: IdPrefix) {
  return z
    .string()
    .regex(patterns[prefix], `must be "${prefix}_" followed by ${ID_BODY_MIN_LENGTH} or more letters and digits`);
}

/** API key secrets: `pk_` (public, browsers) or `sk_` (secret, servers) + at least 32 of `[A-Za-z0-9]`. */
export const API_KEY_PATTERN = /^(pk|sk)_[A-Za-z0-9]{32,128}$/;
export type ApiKeyKind = 'pk' | 'sk';

/** The kind of a well-formed API key secret, or `null` when it is malformed. */
export function apiKeyKind(key: string): ApiKeyKind | null {
  return API_KEY_PATTERN.test(key) ? (key.slice(0, 2) as ApiKeyKind) : null;
}
