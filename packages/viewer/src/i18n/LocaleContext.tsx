import { createContext, useContext, type ReactNode } from 'react';
import { en } from './messages.js';
import { createTranslator, type Translator } from './translate.js';

const LocaleContext = createContext<Translator>(createTranslator('en', 'en', en));

/**
 * Gives the viewer's components below it their translator (texts, locale, direction, formats), so that a field's
 * input can format a date without the locale being passed through every layer.
 * @example <LocaleProvider translator={translator}><DocumentView … /></LocaleProvider>
 */
export function LocaleProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return <LocaleContext.Provider value={translator}>{children}</LocaleContext.Provider>;
}

/**
 * The translator of the viewer around the caller (English outside a viewer).
 * @example const t = useTranslator(); t.text('progress', { done: 1, total: 3 })
 */
export function useTranslator(): Translator {
  return useContext(LocaleContext);
}
