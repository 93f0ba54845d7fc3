import { describe, expect, it } from 'vitest';
import { loadTranslation } from './locales.js';
import { en } from './messages.js';
import { createTranslator, pluralForm } from './translate.js';

async function translator(locale: string, language: Parameters<typeof loadTranslation>[0]) {
  return createTranslator(locale, language, (await loadTranslation(language)).messages);
}

describe('plural forms, by Intl.PluralRules', () => {
  it('English: one and other, chosen by the total', async () => {
    const t = createTranslator('en', 'en', en);
    expect(t.text('progress', { done: 0, total: 1 })).toBe('0 of 1 required field complete');
    expect(t.text('progress', { done: 1, total: 3 })).toBe('1 of 3 required fields complete');
    expect(t.text('tooShort', { count: 1 })).toBe('Enter at least 1 character');
    expect(t.text('tooLong', { count: 1200 })).toBe('Enter at most 1,200 characters');
  });

  it('Polish: one, few, many', async () => {
    const t = await translator('pl', 'pl');
    expect([1, 2, 4, 5, 12, 22, 25].map((count) => t.text('tooShort', { count }))).toEqual([
      'Wpisz co najmniej 1 znak',
      'Wpisz co najmniej 2 znaki',
      'Wpisz co najmniej 4 znaki',
      'Wpisz co najmniej 5 znaków',
      'Wpisz co najmniej 12 znaków',
      'Wpisz co najmniej 22 znaki',
      'Wpisz co najmniej 25 znaków',
    ]);
    expect(t.text('progress', { done: 1, total: 1 })).toBe('Wypełniono 1 z 1 wymaganego pola');
    expect(t.text('progress', { done: 2, total: 5 })).toBe('Wypełniono 2 z 5 wymaganych pól');
  });

  it('Arabic: all six, with the digits of the region (Arabic-Indic in Egypt)', async () => {
    const t = await translator('ar-EG', 'ar');
    expect([1, 2, 3, 11, 100].map((count) => t.text('tooShort', { count }))).toEqual([
      'أدخل حرفًا واحدًا على الأقل',
      'أدخل حرفين على الأقل',
      'أدخل ٣ أحرف على الأقل',
      'أدخل ١١ حرفًا على الأقل',
      'أدخل ١٠٠ حرف على الأقل',
    ]);
    expect(t.text('progress', { done: 1, total: 4 })).toBe('اكتمل ١ من أصل ٤ حقول مطلوبة');
  });

  it('a string (Japanese, or a host’s override) is every form', async () => {
    const t = await translator('ja', 'ja');
    expect(t.text('progress', { done: 2, total: 5 })).toBe('必須項目 5 件中 2 件が入力済み');
    const overridden = createTranslator('en', 'en', { ...en, progress: 'Done: {done}/{total}' });
    expect(overridden.text('progress', { done: 1, total: 1 })).toBe('Done: 1/1');
    expect(pluralForm({ one: 'a', other: 'b' }, 2, 'en')).toBe('b');
    expect(pluralForm({ few: 'a', other: 'b' }, 1, 'pl')).toBe('b');
  });
});

describe('numbers and lists in the locale’s way', () => {
  it('formats numbers in messages and alone', async () => {
    expect((await translator('de-DE', 'de')).text('numberMin', { min: 1234.5 })).toBe('Geben Sie 1.234,5 oder mehr ein');
    expect((await translator('fr', 'fr')).text('numberMax', { max: 10000 })).toBe('Saisissez 10\u202f000 ou moins');
    expect((await translator('ar-EG', 'ar')).number(150)).toBe('١٥٠');
    expect((await translator('ar-MA', 'ar')).number(150)).toBe('150');
    // Plain `ar` is the engine's CLDR's to decide: Western digits in Chromium's, Arabic-Indic in WebKitGTK's ICU.
    const plainArabic = (await translator('ar', 'ar')).number(150);
    expect(plainArabic).toBe(new Intl.NumberFormat('ar').format(150));
    expect(['150', '١٥٠']).toContain(plainArabic);
    expect(createTranslator('en', 'en', en).text('stepCount', { n: 2, m: 10 })).toBe('2 of 10');
  });

  it('joins names', async () => {
    expect(createTranslator('en', 'en', en).list(['Ada', 'Grace', 'Katherine'])).toBe('Ada, Grace, and Katherine');
    expect((await translator('de', 'de')).list(['Ada', 'Grace'])).toBe('Ada und Grace');
    expect((await translator('ja', 'ja')).list(['佐藤', '鈴木', '高橋'])).toBe('佐藤、鈴木、高橋');
  });

  it('leaves a placeholder without a value as it is, and strings unformatted', () => {
    expect(createTranslator('en', 'en', en).text('toBeSignedBy', {})).toBe('To be signed by {name}');
    expect(createTranslator('en', 'en', en).text('imageTooLarge', { size: '1 MB' })).toBe('The image must be at most 1 MB');
  });
});

describe('English without locale data', () => {
  it('writes whole numbers and picks plural forms exactly as Intl does for English', () => {
    const message = { one: '{count} one', other: '{count} other' };
    for (const tag of ['en', 'en-GB', 'en-US']) {
      const t = createTranslator(tag, 'en', en);
      const rules = new Intl.PluralRules(tag);
      const numbers = new Intl.NumberFormat(tag);
      for (const value of [-999, -1, 0, 1, 2, 11, 21, 101, 999, 1000, 1234.5]) {
        expect(t.number(value)).toBe(numbers.format(value));
        expect(pluralForm(message, value, tag)).toBe(message[rules.select(value) as 'one' | 'other']);
      }
    }
  });
});
