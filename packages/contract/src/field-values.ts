import type { FieldValue } from './schemas/field.js';

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
