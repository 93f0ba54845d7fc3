import { describe, expect, it } from 'vitest';
import { dataUrlByteLength, sameFieldValue, textValueIssue } from './field-values.js';
import { SUBMISSION_LIMITS } from './schemas/submission.js';

describe('textValueIssue', () => {
  it('counts characters, not UTF-16 units', () => {
    const emoji = '😀'.repeat(SUBMISSION_LIMITS.maxTextLength);
    expect(textValueIssue({ type: 'text', content: emoji })).toBeNull();
    expect(textValueIssue({ type: 'text', content: `${emoji}😀` })).toMatch(/at most/);
  });

  it('wants a real YYYY-MM-DD for a non-blank date', () => {
    expect(textValueIssue({ type: 'date', content: '2024-02-29' })).toBeNull();
    expect(textValueIssue({ type: 'date', content: '' })).toBeNull();
    expect(textValueIssue({ type: 'date', content: '2023-02-29' })).toBe('must be a real date written YYYY-MM-DD');
    expect(textValueIssue({ type: 'checkbox', checked: false })).toBeNull();
  });
});

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
