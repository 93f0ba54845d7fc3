import { codePointCount } from '@signet/contract';

/**
 * `next`, the text an edit of `previous` made, held to `limit` characters counted in code points as the server
 * counts them (an input's `maxLength` counts UTF-16 units, so it would stop a signer at half the emoji the server
 * takes). Like `maxLength`, only what the edit inserted is cut to the room left: typing at the limit changes
 * nothing, a paste is shortened, and a deletion always goes through.
 * @example fitText('😀😀', '😀😀😀', 3) // '😀😀😀' (6 UTF-16 units); fitText('😀😀😀', '😀😀x😀', 3) // '😀😀😀'
 */
export function fitText(previous: string, next: string, limit: number): string {
  if (next.length <= limit || codePointCount(next, limit) <= limit) return next;
  let start = 0;
  while (start < previous.length && start < next.length && previous[start] === next[start]) start++;
  // A code point is kept or inserted whole: the common part must not end inside a surrogate pair.
  if (isHighSurrogate(previous.charCodeAt(start - 1))) start--;
  let end = 0;
  const shorter = Math.min(previous.length, next.length) - start;
  while (end < shorter && previous[previous.length - 1 - end] === next[next.length - 1 - end]) end++;
  if (isLowSurrogate(previous.charCodeAt(previous.length - end))) end--;

  const head = previous.slice(0, start);
  const tail = previous.slice(previous.length - end);
  const room = Math.max(0, limit - codePointCount(head) - codePointCount(tail));
  const inserted = Array.from(next.slice(start, next.length - end)).slice(0, room).join('');
  return head + inserted + tail;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
