import { describe, expect, it } from 'vitest';
import { fitText } from './text-limit.js';

describe('fitText', () => {
  it('lets any edit within the limit through', () => {
    expect(fitText('abc', 'abcd', 4)).toBe('abcd');
    expect(fitText('', 'a'.repeat(10), 10)).toBe('a'.repeat(10));
  });

  it('counts code points: an emoji is one character, not two UTF-16 units', () => {
    expect(fitText('😀😀', '😀😀😀', 3)).toBe('😀😀😀');
    expect(fitText('😀😀😀', '😀😀😀😀', 3)).toBe('😀😀😀');
    expect(fitText('', '👍🏽'.repeat(3), 3)).toBe('👍🏽👍');
  });

  it('changes nothing when a character is typed at the limit, wherever the caret is', () => {
    expect(fitText('abc', 'abcd', 3)).toBe('abc');
    expect(fitText('abc', 'axbc', 3)).toBe('abc');
    expect(fitText('😀😀😀', '😀😀x😀', 3)).toBe('😀😀😀');
  });

  it('shortens a paste to the room left, keeping the text around it', () => {
    expect(fitText('ad', 'a12345d', 5)).toBe('a123d');
    expect(fitText('a😀', 'a😀😁😂😃', 4)).toBe('a😀😁😂');
  });

  it('never splits a surrogate pair, even where two emoji share their first unit', () => {
    // '😀' is \uD83D\uDE00 and '😁' is \uD83D\uDE01: replacing one with the other shares the high surrogate.
    expect(fitText('a😀', 'a😁😁', 2)).toBe('a😁');
    expect(fitText('😀b', '😁😁b', 2)).toBe('😁b');
  });

  it('lets a deletion through even when the text stays over the limit', () => {
    expect(fitText('abcdef', 'abcde', 3)).toBe('abcde');
  });
});
