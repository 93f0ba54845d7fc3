import { en, type ViewerMessages } from './messages.js';

/**
 * The languages the viewer ships, as BCP 47 primary language subtags: the contract's `SIGNER_LOCALES`, which the
 * server's e-mails and hosted page speak too (written out here: importing the contract's index would bring its
 * schemas into the bundle; `locales.test.ts` checks the two lists are one). English is built in; the others load on
 * demand.
 */
export const SUPPORTED_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ja', 'ar'] as const;

export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

/** The texts of one shipped language. */
export interface Translation {
  /** The language they are in: the one asked for, or `en` when it could not be loaded. */
  language: SupportedLocale;
  messages: ViewerMessages;
}

// One literal `import()` per language, so that bundlers make each a chunk of its own, fetched only when asked for.
const LOADERS: Record<Exclude<SupportedLocale, 'en'>, () => Promise<{ default: ViewerMessages }>> = {
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
  it: () => import('./locales/it.js'),
  pt: () => import('./locales/pt.js'),
  nl: () => import('./locales/nl.js'),
  pl: () => import('./locales/pl.js'),
  ja: () => import('./locales/ja.js'),
  ar: () => import('./locales/ar.js'),
};

const loaded = new Map<SupportedLocale, Translation>([['en', { language: 'en', messages: en }]]);
const loading = new Map<SupportedLocale, Promise<Translation>>();

/**
 * The shipped language of a BCP 47 tag, by its primary language subtag; English for a missing or unknown one.
 * @example matchLocale('pt-BR') // 'pt'
 * @example matchLocale('sv-SE') // 'en'
 */
export function matchLocale(tag: string | undefined): SupportedLocale {
  return SUPPORTED_LOCALES.find((language) => language === primarySubtag(tag)) ?? 'en';
}

const primarySubtag = (tag: string | undefined) => (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];

/**
 * The tag to give `Intl` for a host's `locale` shown in `language`: the host's own tag (canonical) when it is of
 * that language, so that `pt-PT` or `de-CH` format numbers and dates their way; otherwise the language alone.
 * @example intlLocale('pt_br', 'pt') // 'pt-BR'
 * @example intlLocale('sv-SE', 'en') // 'en'
 */
export function intlLocale(tag: string | undefined, language: SupportedLocale): string {
  if (!tag || primarySubtag(tag) !== language) return language;
  try {
    return Intl.getCanonicalLocales(tag.trim().replace(/_/g, '-'))[0] ?? language;
  } catch {
    return language;
  }
}

/**
 * The writing direction of a shipped language.
 * @example textDirection('ar') // 'rtl'
 */
export function textDirection(language: SupportedLocale): 'ltr' | 'rtl' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

/**
 * The texts of `language` if they are here already (English always is), without waiting.
 * @example loadedTranslation('en')?.messages.submit // 'Finish and submit'
 */
export function loadedTranslation(language: SupportedLocale): Translation | undefined {
  return loaded.get(language);
}

/**
 * Loads the texts of `language` (once per page; English is built in). A language whose chunk cannot be loaded
 * comes back as English, and is asked for again next time. Every text a translation lacks is English's.
 * `load` is the chunk's loader (the language's own by default).
 * @example const { language, messages } = await loadTranslation(matchLocale(navigator.language));
 */
export function loadTranslation(
  language: SupportedLocale,
  load: () => Promise<{ default: ViewerMessages }> = () => LOADERS[language as Exclude<SupportedLocale, 'en'>](),
): Promise<Translation> {
  const done = loaded.get(language);
  if (done) return Promise.resolve(done);
  let pending = loading.get(language);
  if (!pending) {
    pending = load()
      .then((module) => {
        const translation: Translation = { language, messages: { ...en, ...module.default } };
        loaded.set(language, translation);
        return translation;
      })
      .catch(() => ({ language: 'en' as const, messages: en }));
    void pending.finally(() => loading.delete(language));
    loading.set(language, pending);
  }
  return pending;
}

/**
 * The viewer's texts for a host's `locale` (any BCP 47 tag; English when its language is not shipped), with the
 * host's overrides on top.
 * @example const messages = await loadMessages('de-AT', { submit: 'Unterschreiben' });
 */
export async function loadMessages(locale: string | undefined, overrides?: Partial<ViewerMessages>): Promise<ViewerMessages> {
  const { messages } = await loadTranslation(matchLocale(locale));
  return { ...messages, ...overrides };
}
