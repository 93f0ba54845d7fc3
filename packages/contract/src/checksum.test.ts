import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { canonicalPayload, sha256Hex, submissionChecksum } from './checksum.js';

describe('canonical checksum', () => {
  it('serializes per RFC 8785: sorted keys, no whitespace, ES number forms, checksum left out', () => {
    const text = canonicalPayload({ b: [1, 2.5, 1e21, -0], a: { z: 'é\u2028', y: null }, checksum: 'ignored' });
    expect(text).toBe('{"a":{"y":null,"z":"é\u2028"},"b":[1,2.5,1e+21,0]}');
  });

  it('is the lowercase hex SHA-256 of the canonical UTF-8 text', async () => {
    const payload = { fields: [{ value: { content: '✓' }, id: 'ä' }], documentId: 'doc_x', checksum: 'old' };
    // Written by hand, and its digest computed apart (`printf '%s' '…' | sha256sum`), not by the code under test.
    const canonical = '{"documentId":"doc_x","fields":[{"id":"ä","value":{"content":"✓"}}]}';
    expect(canonicalPayload(payload)).toBe(canonical);
    expect(createHash('sha256').update(canonical, 'utf8').digest('hex')).toBe('9ff0263deab52a3fffc0ac873bfd164bf115549933f8ab98158ec7cb176a9b9c');
    expect(await submissionChecksum(payload)).toBe('9ff0263deab52a3fffc0ac873bfd164bf115549933f8ab98158ec7cb176a9b9c');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('does not depend on key order, and changes when any value changes', async () => {
    const a = await submissionChecksum({ x: 1, y: { p: true, q: 'v' } });
    expect(await submissionChecksum({ y: { q: 'v', p: true }, x: 1 })).toBe(a);
    expect(await submissionChecksum({ x: 1, y: { p: true, q: 'w' } })).not.toBe(a);
  });
});
