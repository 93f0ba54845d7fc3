import type { Context } from 'hono';
import { ApiError, validationError } from '../errors.js';
import { requestHeader } from './request-header.js';

/** What an `If-Match` header asks for: any current version (`*`), or one of the listed entity tags. */
export type IfMatch = { any: true } | { any: false; tags: readonly string[] };

/** One entity tag (RFC 9110, 8.8.3): optionally weak, then a quoted string of visible characters without `"`. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/**
 * The `ETag` of a document's version: its `version`, quoted (a strong tag: the version names one content exactly).
 * @example versionTag(3) // '"3"'
 */
export function versionTag(version: number): string {
  return `"${version}"`;
}

/**
 * The request's `If-Match`, required on a write to a draft: 428 `PRECONDITION_REQUIRED` without it, 400 naming
 * `If-Match` when it is not `*` or a comma-separated list of entity tags.
 * @example const expected = requireIfMatch(c)
 */
export function requireIfMatch(c: Context): IfMatch {
  const header = requestHeader(c, 'if-match');
  if (header === undefined || header.trim() === '') {
    throw new ApiError('PRECONDITION_REQUIRED', 'A change to a draft must send If-Match with the ETag of the version it was made on', {
      details: { field: 'If-Match', reason: 'is required: the ETag of the version the change was made on, such as "3"' },
    });
  }
  if (header.length > 256) throw validationError('If-Match', 'is longer than 256 characters');
  if (header.trim() === '*') return { any: true };
  const tags = header.split(',').map((tag) => tag.trim());
  const bad = tags.find((tag) => !ENTITY_TAG.test(tag));
  if (bad !== undefined) throw validationError('If-Match', `must be "*" or entity tags such as "3" (quoted); received ${JSON.stringify(bad)}`);
  return { any: false, tags };
}

/**
 * The 412 `PRECONDITION_FAILED` when `expected` does not name `version` (strong comparison: a weak tag never
 * matches), with the current version in `details.currentVersion`.
 */
export function assertVersion(expected: IfMatch, version: number): void {
  if (expected.any || expected.tags.includes(versionTag(version))) return;
  throw new ApiError('PRECONDITION_FAILED', `The document has changed: its current version is ${version}`, {
    details: {
      currentVersion: version,
      field: 'If-Match',
      reason: `names ${expected.tags.join(', ')}, not the current version ${versionTag(version)}: reload the document, then make the change again`,
    },
  });
}
