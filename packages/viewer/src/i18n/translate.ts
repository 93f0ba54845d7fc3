import { textDirection, type SupportedLocale } from './locales.js';
import { PLURAL_BY, type Message, type ViewerMessages } from './messages.js';

/** The viewer's texts in one locale, with what fills them in: plural forms, numbers and lists in the locale's way. */
export interface Translator {
  /** The BCP 47 tag of the texts and of `Intl`'s formats, such as `pt-BR` (`en` when the host's language is not shipped). */
  locale: string;
  dir: 'ltr' | 'rtl';
  messages: ViewerMessages;
  /** A message with its plural form chosen and its `{placeholders}` filled in; numbers are formatted for the locale. */
  text(key: keyof ViewerMessages, values?: Readonly<Record<string, string | number>>): string;
  /** A number as the locale writes it (Arabic: ١٢٣). */
  number(value: number): string;
  /** Names joined as the locale joins them ("A, B and C", "A、B、C"). */
  list(items: readonly string[]): string;
}

// Building an Intl formatter loads the locale's data (tens of milliseconds the first time): one of each per locale.
const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();
const listFormats = new Map<string, Intl.ListFormat>();

function cached<T>(cache: Map<string, T>, locale: string, create: () => T): T {
  let value = cache.get(locale);
  if (!value) cache.set(locale, (value = create()));
  return value;
}

const numberFormat = (locale: string) => cached(numberFormats, locale, () => new Intl.NumberFormat(locale));
const pluralRule = (locale: string) => cached(pluralRules, locale, () => new Intl.PluralRules(locale));

/**
 * English needs no locale data for what the viewer's first screen says (a few whole numbers and their plural):
 * the page's first Intl formatter costs 12–17 ms of main thread on the bench's desktop (four times that on its
 * phone), which would otherwise fall between the document's metadata and the first paint.
 */
const isEnglish = (locale: string) => locale === 'en' || locale.startsWith('en-');
const isSmallWhole = (value: number) => Number.isInteger(value) && Math.abs(value) < 1000;
const listFormat = (locale: string) => cached(listFormats, locale, () => new Intl.ListFormat(locale, { type: 'conjunction' }));

/**
 * Builds the number and plural formatters of `locale` now, so that the first render that needs them does not wait
 * for the locale's data. The viewer calls it while the document's metadata is on its way.
 * @example prepareFormatters('ar-EG')
 */
export function prepareFormatters(locale: string): void {
  if (isEnglish(locale)) return;
  numberFormat(locale);
  pluralRule(locale);
}

/**
 * The template of `message` for `count`: its plural form for the locale (`other` when the form is missing), or the
 * string itself.
 * @example pluralForm({ one: '{count} character', other: '{count} characters' }, 1, 'en') // '{count} character'
 */
export function pluralForm(message: Message, count: number, locale: string): string {
  if (typeof message === 'string') return message;
  // English's rule (CLDR): "one" for 1 (and -1), "other" for everything else.
  const form = isEnglish(locale) && (isSmallWhole(count) || Number.isNaN(count)) ? (Math.abs(count) === 1 ? 'one' : 'other') : pluralRule(locale).select(count);
  return message[form] ?? message.other;
}

/**
 * The translator of `messages` in `locale`, whose language is `language`.
 * @example
 * const t = createTranslator('pl', 'pl', messages);
 * t.text('tooShort', { count: 5 }) // 'Wpisz co najmniej 5 znaków'
 */
export function createTranslator(locale: string, language: SupportedLocale, messages: ViewerMessages): Translator {
  const number = (value: number) => (isEnglish(locale) && isSmallWhole(value) ? String(value) : numberFormat(locale).format(value));
  return {
    locale,
    dir: textDirection(language),
    messages,
    number,
    list: (items) => listFormat(locale).format(items),
    text(key, values = {}) {
      const selector = PLURAL_BY[key];
      const count = selector === undefined ? undefined : values[selector];
      const template = pluralForm(messages[key], typeof count === 'number' ? count : NaN, locale);
      return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
        const value = values[name];
        if (value === undefined) return whole;
        return typeof value === 'number' ? number(value) : value;
      });
    },
  };
}
