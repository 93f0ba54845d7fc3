import { describe, expect, it } from 'vitest';
import { SIGNER_LOCALES } from '@signet/contract';
import { readableTime, signerTexts, textDirection, type SignerTexts } from './signer-texts.js';

/*
 * The ten languages of the e-mails and the hosted page (docs/email.md, "Languages"): each says everything English
 * does, in words of its own, and keeps every name, file name, time and code it is given.
 */

const ARGS = { org: 'ORG-Ω', doc: 'DOC-Ω.pdf', until: 'UNTIL-Ω', name: 'NAME-Ω', code: '042917' };

/** Every text of `texts` by its path, functions called with the arguments their parameters name. */
function leaves(texts: SignerTexts): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') found.set(path, value);
    else if (typeof value === 'function') {
      const params = /^\(?([^)=]*)\)?\s*=>/.exec(value.toString())![1]!.split(',').map((param) => param.trim());
      const args = params.map((param) => (param === 'minutes' ? 10 : ARGS[param as keyof typeof ARGS]));
      expect(args, `${path}(${params.join(', ')})`).not.toContain(undefined);
      const text = (value as (...args: unknown[]) => string)(...args);
      for (const arg of args) expect(text, `${path} keeps ${arg}`).toContain(String(arg));
      found.set(path, text);
    } else for (const [key, inner] of Object.entries(value as object)) walk(inner, path ? `${path}.${key}` : key);
  };
  walk(texts, '');
  return found;
}

describe('signer texts', () => {
  const english = leaves(signerTexts('en'));

  it.each(SIGNER_LOCALES.filter((locale) => locale !== 'en'))('%s says everything English says, in its own words, keeping every name', (locale) => {
    const texts = leaves(signerTexts(locale));
    expect([...texts.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [path, text] of texts) {
      expect(text.trim(), path).not.toBe('');
      expect(text, `${path} is translated`).not.toBe(english.get(path));
    }
  });

  it('speaks English to a signer without a language, right to left only in Arabic', () => {
    expect(signerTexts(undefined)).toBe(signerTexts('en'));
    expect(SIGNER_LOCALES.filter((locale) => textDirection(locale) === 'rtl')).toEqual(['ar']);
    expect(textDirection(undefined)).toBe('ltr');
  });

  it('writes a time in the UTC of each language', () => {
    const at = new Date('2027-03-01T12:00:00Z');
    expect(readableTime(at)).toMatch(/^1 March 2027,? (at )?12:00 UTC$/);
    expect(readableTime(at, 'de')).toMatch(/^1\. März 2027,? (um )?12:00 UTC$/);
    expect(readableTime(at, 'ja')).toBe('2027年3月1日 12:00 UTC');
    expect(readableTime(new Date('2027-03-01T23:30:00+01:00'), 'fr')).toMatch(/^1 mars 2027,? (à )?22:30 UTC$/);
  });
});
