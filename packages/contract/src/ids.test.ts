import { describe, expect, it } from 'vitest';
import { apiKeyKind, idSchema, isId } from './ids.js';

describe('ids and keys', () => {
  it('recognise prefixed ids of 20+ alphanumerics', () => {
    expect(isId('doc', 'doc_' + 'a'.repeat(20))).toBe(true);
    expect(isId('doc', 'doc_' + 'a'.repeat(19))).toBe(false);
    expect(isId('doc', 'sub_' + 'a'.repeat(24))).toBe(false);
    expect(isId('doc', 'doc_' + 'a'.repeat(23) + '-')).toBe(false);
    expect(idSchema('sub').safeParse('sub_' + 'Z9'.repeat(12)).success).toBe(true);
  });

  it('tell pk from sk keys, and malformed keys from both', () => {
    expect(apiKeyKind('pk_' + 'a'.repeat(32))).toBe('pk');
    expect(apiKeyKind('sk_' + 'a'.repeat(40))).toBe('sk');
    expect(apiKeyKind('sk_' + 'a'.repeat(31))).toBeNull();
    expect(apiKeyKind('xk_' + 'a'.repeat(40))).toBeNull();
  });
});
