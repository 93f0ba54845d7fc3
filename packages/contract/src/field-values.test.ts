import { describe, expect, it } from 'vitest';
import { codePointCount, dataUrlByteLength, sameFieldValue } from './field-values.js';

describe('sameFieldValue', () => {
  it('compares members, whatever their order', () => {
    expect(sameFieldValue({ type: 'text', content: 'a' }, { content: 'a', type: 'text' } as never)).toBe(true);
    expect(sameFieldValue({ type: 'text', content: 'a' }, { type: 'text', content: 'b' })).toBe(false);
    expect(sameFieldValue({ type: 'checkbox', checked: true }, undefined)).toBe(false);
  });
});

describe('dataUrlByteLength', () => {
  it('counts base64 padding', () => {
    expect(dataUrlByteLength(`data:image/png;base64,${btoa('a')}`)).toBe(1);
    expect(dataUrlByteLength(`data:image/png;base64,${btoa('ab')}`)).toBe(2);
    expect(dataUrlByteLength(`data:image/png;base64,${btoa('abc')}`)).toBe(3);
  });
});

describe('codePointCount', () => {
  it('counts code points: a surrogate pair once, a lone surrogate once, a grapheme of several as several', () => {
    expect(codePointCount('')).toBe(0);
    expect(codePointCount('A😀')).toBe(2);
    expect(codePointCount('\ud83d\ud83d')).toBe(2);
    expect(codePointCount('e\u0301')).toBe(2);
    expect(codePointCount('👨‍👩‍👧')).toBe(5);
  });

  it('stops once past upTo', () => {
    expect(codePointCount('😀'.repeat(50), 10)).toBe(11);
    expect(codePointCount('abc', 3)).toBe(3);
  });
});
