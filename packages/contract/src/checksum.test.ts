import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { canonicalPayload, sha256Hex, submissionChecksum } from './checksum.js';

describe('canonical checksum', () => {
  it('serializes per RFC 8785: sorted keys, no whitespace, ES number forms, checksum left out', () => {
    const text = canonicalPayload({ b: [1, 2.5, 1e21, -0], a: { z: 'é\u2028', y: null }, checksum: 'ignored' });
    expect(text).toBe('{"a":{"y":null,"z":"é\u2028"},"b":[1,2.5,1e+21,0]}');
  });

  it('is the lowercase hex SHA-256 of the canonical UTF-8 text', async () => {
    const payload = { documentId: 'doc_x', fields: [{ id: 'ä', value: { content: '✓' } }], checksum: 'old' };
    const expected = createHash('sha256').update(canonicalPayload(payload), 'utf8').digest('hex');
    expect(await submissionChecksum(payload)).toBe(expected);
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('does not depend on key order, and changes when any value changes', async () => {
    const a = await submissionChecksum({ x: 1, y: { p: true, q: 'v' } });
    expect(await submissionChecksum({ y: { q: 'v', p: true }, x: 1 })).toBe(a);
    expect(await submissionChecksum({ x: 1, y: { p: true, q: 'w' } })).not.toBe(a);
  });
});
