import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../test/support/harness.js';
import { checkDocumentToken, signDocumentToken } from './token.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const secret = 's'.repeat(32);
const grant = { documentId: 'doc_abcdefghijklmnopqrstuvwx', version: 1 };
const keyId = 'key_ABCDEFGHIJKLMNOPQRSTUVWX';
const otherKeyId = 'key_BCDEFGHIJKLMNOPQRSTUVWXY';
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
  const token = signDocumentToken(secret, { ...grant, expires, keyId });
  const check = (text: string | undefined, at = now) => checkDocumentToken(secret, text, { ...grant, now: at }).status;

  it('writes <expiry>.<key id>.<mac> in URL-safe characters', () => {
    expect(token).toMatch(new RegExp(`^${expires}\\.${keyId}\\.[A-Za-z0-9_-]{43}$`));
    expect(encodeURIComponent(token)).toBe(token);
  });

  it('accepts the token as signed until it expires, naming its key, then reports it expired', () => {
    expect(checkDocumentToken(secret, token, { ...grant, now })).toEqual({ status: 'valid', keyId });
    expect(check(token, new Date(expires * 1000))).toBe('expired');
  });

  it("refuses the token with its key id changed to another key's: the MAC binds the key", () => {
    expect(check(token.replace(keyId, otherKeyId))).toBe('invalid');
    expect(check(signDocumentToken(secret, { ...grant, expires, keyId: otherKeyId }))).toBe('valid');
  });

  it('refuses the form before the key id (<expiry>.<mac>), even with a MAC of that form', () => {
    const [expiry, , tag] = token.split('.');
    expect(check(`${expiry}.${tag}`)).toBe('invalid');
  });

  it('refuses a leading zero on the expiry, however many', () => {
    expect(check(`0${token}`)).toBe('invalid');
    expect(check(`000${token}`)).toBe('invalid');
  });

  it('refuses each of the 3 non-canonical last characters that decode to the same MAC', () => {
    const variants = sameBytesOtherText(token);
    expect(variants).toHaveLength(3);
    for (const variant of variants) {
      expect(Buffer.from(variant.split('.')[2]!, 'base64url')).toEqual(Buffer.from(token.split('.')[2]!, 'base64url'));
      expect(check(variant), variant).toBe('invalid');
    }
  });

  it('refuses other documents, versions, secrets and malformed texts', () => {
    expect(checkDocumentToken(secret, token, { ...grant, version: 2, now })).toEqual({ status: 'invalid' });
    expect(checkDocumentToken(secret, token, { documentId: 'doc_bcdefghijklmnopqrstuvwxy', version: 1, now })).toEqual({ status: 'invalid' });
    expect(checkDocumentToken('t'.repeat(32), token, { ...grant, now })).toEqual({ status: 'invalid' });
    const [expiry, , tag] = token.split('.');
    for (const text of [
      undefined,
      '',
      token.slice(0, -1),
      `${token}A`,
      `+${token}`,
      token.replace('.', '..'),
      `${expiry}.${keyId}.${'='.repeat(43)}`,
      `${expiry}.${keyId.toUpperCase()}.${tag}`,
      `${expiry}.key_.${tag}`,
      `${expiry}.${keyId}-.${tag}`,
      `${expiry}.sk_${keyId.slice(4)}.${tag}`,
    ]) {
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
