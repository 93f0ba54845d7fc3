import { SUPPORTED_LOCALES } from '@signet/viewer';

/** Each shipped language under its own name, as a signer would look for it. */
const NAMES: Record<(typeof SUPPORTED_LOCALES)[number], string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
  pl: 'Polski',
  ja: '日本語',
  ar: 'العربية',
};

/**
 * The viewer's language: the browser's by default, or one of the ten the viewer ships; the page
 * keeps it in its URL (`?locale=ar`).
 */
export function LanguageSwitch({ value, onChange }: { value: string; onChange(locale: string): void }) {
  const shipped = SUPPORTED_LOCALES.find((language) => value.toLowerCase().split('-')[0] === language);
  return (
    <label className="language-switch">
      <span className="language-switch-label">Language</span>
      <select value={shipped ?? ''} onChange={(event) => onChange(event.target.value)}>
        {!shipped && <option value="">{value} (English)</option>}
        {SUPPORTED_LOCALES.map((language) => (
          <option key={language} value={language} lang={language}>
            {NAMES[language]}
          </option>
        ))}
      </select>
    </label>
  );
}
