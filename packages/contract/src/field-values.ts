import { isIsoDate } from './field-rules.js';
import type { FieldValue } from './schemas/field.js';
import { SUBMISSION_LIMITS } from './submission-limits.js';

/**
 * What a text or date value breaks of the rules every entered value keeps (SPEC §6): more characters than
 * `SUBMISSION_LIMITS.maxTextLength` (code points, not UTF-16 units), or a non-blank date that is not a real
 * `YYYY-MM-DD`. Null when it keeps them, and for the other types (their images and boxes have rules of their own).
 * The server and the client's submission builder both check values with it, so they cannot disagree.
 * @example textValueIssue({ type: 'date', content: '2026-02-30' }) // 'must be a real date written YYYY-MM-DD'
 */
export function textValueIssue(value: FieldValue): string | null {
  if (value.type !== 'text' && value.type !== 'date') return null;
  if (isTooLong(value.content)) return `must be at most ${SUBMISSION_LIMITS.maxTextLength} characters`;
  if (value.type === 'date' && value.content.trim() !== '' && !isIsoDate(value.content)) {
    return 'must be a real date written YYYY-MM-DD';
  }
  return null;
}

/**
 * Whether two field values are the same. Values are flat objects of primitives, so comparing their members one
 * level deep is a deep equality; member order does not matter.
 * @example sameFieldValue({ type: 'text', content: 'a' }, { content: 'a', type: 'text' }) // true
 */
export function sameFieldValue(a: FieldValue, b: FieldValue | undefined): boolean {
  if (!b) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && left[key] === right[key]);
}

/**
 * How many bytes the base64 payload of a data URL decodes to: what `SUBMISSION_LIMITS.maxImageBytes` counts.
 * @example dataUrlByteLength('data:image/png;base64,iVBORw0KGgo=') // 8
 */
export function dataUrlByteLength(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/**
 * How many characters `text` has, counted as every text limit of Signet counts them: in code points, so an emoji
 * is one character (its two UTF-16 units are not two) and a lone surrogate is one too. Stops counting once past
 * `upTo` (returning `upTo + 1`), so that a limit costs no more than the limit.
 * @example codePointCount('A😀') // 2, where 'A😀'.length is 3
 */
export function codePointCount(text: string, upTo = Infinity): number {
  let count = 0;
  for (const _ of text) if (++count > upTo) break;
  return count;
}

/** Over the limit in characters (code points); only counted when the UTF-16 length already exceeds it. */
function isTooLong(content: string): boolean {
  const limit = SUBMISSION_LIMITS.maxTextLength;
  return content.length > limit && codePointCount(content, limit) > limit;
}
