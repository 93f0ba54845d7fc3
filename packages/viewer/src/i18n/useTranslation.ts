import { useEffect, useState } from 'react';
import { loadedTranslation, loadTranslation, type SupportedLocale, type Translation } from './locales.js';

/**
 * The texts of `language`: at once when they are loaded already (English always), else `undefined` until their
 * chunk has arrived (or failed: then English). The chunk is asked for during the render, beside the document's
 * request, not after the first paint.
 * @example const translation = useTranslation(matchLocale(locale));
 */
export function useTranslation(language: SupportedLocale): Translation | undefined {
  const ready = loadedTranslation(language);
  const [arrived, setArrived] = useState<{ asked: SupportedLocale; translation: Translation } | null>(null);
  if (!ready) void loadTranslation(language);
  useEffect(() => {
    if (ready) return;
    let current = true;
    void loadTranslation(language).then((translation) => current && setArrived({ asked: language, translation }));
    return () => {
      current = false;
    };
  }, [language, ready]);
  return ready ?? (arrived?.asked === language ? arrived.translation : undefined);
}
