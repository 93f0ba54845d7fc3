import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../test-support/harness.js';
import { checkDocumentToken, signDocumentToken } from './token.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const secret = 's'.repeat(32);
const grant = { documentId: 'doc_abcdefghijklmnopqrstuvwx', version: 1 };
const now = new Date('2026-11-22T10:00:00Z');
const expires = Math.floor(now.getTime() / 1000) + 3600;

/**
 * The 3 other last characters whose 6 bits differ only in the 2 that a 32-byte MAC leaves unused: base64url
 * decoders ignore those bits, so each decodes to the same bytes as `token`.
 */
function sameBytesOtherText(token: string): string[] {
  const last = BASE64URL.indexOf(token.at(-1)!);
  const others = [0, 1, 2, 3].map((low) => BASE64URL[(last & ~3) | low]!).filter((c) => c !== token.at(-1));
  return others.map((c) => token.slice(0, -1) + c);
}

describe('checkDocumentToken', () => {
  const token = signDocumentToken(secret, { ...grant, expires });
  const check = (text: string | undefined, at = now) => checkDocumentToken(secret, text, { ...grant, now: at });

  it('accepts the token as signed until it expires, then reports it expired', () => {
    expect(check(token)).toBe('valid');
    expect(check(token, new Date(expires * 1000))).toBe('expired');
  });

  it('refuses a leading zero on the expiry, however many', () => {
    expect(check(`0${token}`)).toBe('invalid');
    expect(check(`000${token}`)).toBe('invalid');
  });

  it('refuses each of the 3 non-canonical last characters that decode to the same MAC', () => {
    const variants = sameBytesOtherText(token);
    expect(variants).toHaveLength(3);
    for (const variant of variants) {
      expect(Buffer.from(variant.split('.')[1]!, 'base64url')).toEqual(Buffer.from(token.split('.')[1]!, 'base64url'));
      expect(check(variant), variant).toBe('invalid');
    }
  });

  it('refuses other documents, versions, secrets and malformed texts', () => {
    expect(checkDocumentToken(secret, token, { ...grant, version: 2, now })).toBe('invalid');
    expect(checkDocumentToken(secret, token, { documentId: 'doc_bcdefghijklmnopqrstuvwxy', version: 1, now })).toBe('invalid');
    expect(checkDocumentToken('t'.repeat(32), token, { ...grant, now })).toBe('invalid');
    for (const text of [undefined, '', token.slice(0, -1), `${token}A`, `+${token}`, token.replace('.', '..'), `${token.split('.')[0]}.${'='.repeat(43)}`]) {
      expect(check(text), String(text)).toBe('invalid');
    }
  });
});

describe('the document file refuses non-canonical tokens', () => {
  let t: TestApp;
  let fileUrl: URL;
  beforeAll(async () => {
    t = await createTestApp();
    const document = await t.createDocument({ pages: 1 });
    const { secret: key } = await t.createKey();
    const res = await call(t, 'GET', `/sdk/documents/${document.id}`, { key });
    fileUrl = new URL(((await res.json()) as { documentUrl: string }).documentUrl);
  });
  afterAll(() => t.close());

  const withToken = (token: string) => t.app.request(`${fileUrl.pathname}?token=${token}`);

  it('200 for the token of documentUrl; 403 INSUFFICIENT_PERMISSIONS for a leading zero or another last character', async () => {
    const token = fileUrl.searchParams.get('token')!;
    expect((await withToken(token)).status).toBe(200);
    for (const variant of [`0${token}`, ...sameBytesOtherText(token)]) {
      const res = await withToken(variant);
      expect(res.status, variant).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_PERMISSIONS' } });
    }
  });
});
