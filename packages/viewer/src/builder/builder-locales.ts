import { useEffect, useState } from 'react';
import type { SupportedLocale } from '../i18n/locales.js';
import { en, type BuilderMessages } from './messages.js';

// One literal `import()` per language, so that bundlers make each a chunk of its own, fetched only when asked for.
const LOADERS: Record<Exclude<SupportedLocale, 'en'>, () => Promise<{ default: BuilderMessages }>> = {
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

const loaded = new Map<SupportedLocale, BuilderMessages>([['en', en]]);

/** The builder's texts in `language` (English where a chunk fails to load), once per page. */
export async function loadBuilderMessages(language: SupportedLocale): Promise<BuilderMessages> {
  const done = loaded.get(language);
  if (done) return done;
  try {
    const messages = { ...en, ...(await LOADERS[language as Exclude<SupportedLocale, 'en'>]()).default };
    loaded.set(language, messages);
    return messages;
  } catch {
    return en;
  }
}

/**
 * The builder's texts in `language`: at once for English or a language loaded before, else `undefined` until its
 * chunk has arrived.
 * @example const messages = useBuilderMessages(matchLocale(locale));
 */
export function useBuilderMessages(language: SupportedLocale): BuilderMessages | undefined {
  const ready = loaded.get(language);
  const [arrived, setArrived] = useState<{ language: SupportedLocale; messages: BuilderMessages } | null>(null);
  useEffect(() => {
    if (ready) return;
    let current = true;
    void loadBuilderMessages(language).then((messages) => current && setArrived({ language, messages }));
    return () => {
      current = false;
    };
  }, [language, ready]);
  return ready ?? (arrived?.language === language ? arrived.messages : undefined);
}
