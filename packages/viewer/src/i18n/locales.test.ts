import { describe, expect, it } from 'vitest';
import { SIGNER_LOCALES } from '@signet/contract';
import { intlLocale, loadedTranslation, loadMessages, loadTranslation, matchLocale, SUPPORTED_LOCALES, textDirection } from './locales.js';
import { en, PLURAL_BY, type Message, type VerificationMessages, type ViewerMessages } from './messages.js';
import { verificationEn } from './verification-en.js';

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
const forms = (message: Message) => (typeof message === 'string' ? { other: message } : message);
/** English, the code prompt's texts included (they load with the prompt). */
const reference: ViewerMessages & VerificationMessages = { ...en, ...verificationEn };
const keys = Object.keys(reference) as (keyof typeof reference)[];

/** Each shipped language's own module, as written (before English fills any gap). */
async function ownTexts(language: string): Promise<Partial<ViewerMessages & VerificationMessages>> {
  const modules = import.meta.glob<{ default: ViewerMessages & VerificationMessages }>('./locales/*.ts');
  return (await modules[`./locales/${language}.ts`]!()).default;
}

describe.each(SUPPORTED_LOCALES.filter((language) => language !== 'en'))('the %s translation', (language) => {
  it('has every text, none empty, with the placeholders of English', async () => {
    const texts = await ownTexts(language);
    expect(Object.keys(texts).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      const english = placeholders(forms(reference[key]).other);
      for (const [category, template] of Object.entries(forms(texts[key]!))) {
        expect(template.trim(), `${language}.${key}.${category}`).not.toBe('');
        // A form may leave out a number its words already say (Arabic "two characters"), never add one.
        expect(english, `${language}.${key}.${category}`).toEqual(expect.arrayContaining(placeholders(template)));
      }
      expect(placeholders(forms(texts[key]!).other), `${language}.${key}.other`).toEqual(english);
    }
  });

  it("has a form for each of the language's plural categories in its plural texts (or one string for all)", async () => {
    const texts = await ownTexts(language);
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    // A string where every count reads alike (German "Zeichen", Japanese); else one form per category.
    for (const key of Object.keys(PLURAL_BY) as (keyof ViewerMessages)[]) {
      const message = texts[key]!;
      if (typeof message !== 'string') expect(Object.keys(message).sort(), `${language}.${key}`).toEqual([...categories].sort());
    }
    const plural = (Object.keys(PLURAL_BY) as (keyof ViewerMessages)[]).filter((key) => typeof texts[key] !== 'string');
    // Languages whose nouns change with the count say so in every counted text.
    if (!['de', 'ja'].includes(language)) expect(plural, language).toEqual(Object.keys(PLURAL_BY));
  });
});

describe('matching a host’s locale', () => {
  it('takes the primary language subtag of a BCP 47 tag, English for a missing or unknown one', () => {
    expect(['pt-BR', 'ar-EG', 'DE-at', 'fr_CA', 'ja', 'zh-Hans', 'sv', '', undefined].map(matchLocale)).toEqual([
      'pt', 'ar', 'de', 'fr', 'ja', 'en', 'en', 'en', 'en',
    ]);
  });

  it('formats with the host’s own tag when it is of the language shown, else with the language', () => {
    expect(intlLocale('pt_br', 'pt')).toBe('pt-BR');
    expect(intlLocale('ar-EG', 'ar')).toBe('ar-EG');
    expect(intlLocale('sv-SE', 'en')).toBe('en');
    expect(intlLocale('de-u-nu-bad-', 'de')).toBe('de');
    expect(intlLocale(undefined, 'en')).toBe('en');
  });

  it("ships the contract's signer languages, which the server's e-mails and hosted page speak too", () => {
    expect(SUPPORTED_LOCALES).toEqual(SIGNER_LOCALES);
  });

  it('writes Arabic right to left, the others left to right', () => {
    expect(SUPPORTED_LOCALES.filter((language) => textDirection(language) === 'rtl')).toEqual(['ar']);
  });
});

describe('loading a language', () => {
  it('has English at once; loads another once, then has it at once too', async () => {
    expect(loadedTranslation('en')?.messages).toBe(en);
    const first = loadTranslation('nl');
    expect(loadTranslation('nl')).toBe(first);
    const dutch = await first;
    expect(dutch.language).toBe('nl');
    expect(dutch.messages.submit).toBe('Afronden en verzenden');
    expect(loadedTranslation('nl')).toBe(dutch);
  });

  it('a chunk that cannot be downloaded gives English, and is asked for again next time', async () => {
    const offline = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    expect(await loadTranslation('ja', offline)).toEqual({ language: 'en', messages: en });
    expect(loadedTranslation('ja')).toBeUndefined();
    expect((await loadTranslation('ja')).messages.next).toBe('次の項目');
  });

  it('loadMessages gives a host the texts of its locale with its overrides on top', async () => {
    const messages = await loadMessages('es-MX', { submit: 'Firmar' });
    expect([messages.submit, messages.next]).toEqual(['Firmar', 'Campo siguiente']);
    expect((await loadMessages('xx')).next).toBe(en.next);
  });
});
