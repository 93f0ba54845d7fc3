import { cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { LocaleProvider } from '../i18n/LocaleContext.js';
import { loadTranslation, type SupportedLocale } from '../i18n/locales.js';
import { createTranslator } from '../i18n/translate.js';
import { typedDate } from '../test-support/fill-fields.js';
import { DateInput } from './DateInput.js';
import { formatIsoDate, isoDateToUtc } from './iso-date.js';

afterEach(() => cleanup());

async function renderDate(locale: string, language: SupportedLocale, initial = '') {
  const emitted: string[] = [];
  const translator = createTranslator(locale, language, (await loadTranslation(language)).messages);
  function Field() {
    const [value, setValue] = useState(initial);
    return (
      <LocaleProvider translator={translator}>
        <button type="button">before</button>
        <DateInput
          aria-label="Date"
          aria-describedby="hint"
          className="signet-input"
          value={value}
          onChange={(next) => {
            emitted.push(next);
            setValue(next);
          }}
        />
        <span id="hint">Required</span>
        <button type="button">elsewhere</button>
      </LocaleProvider>
    );
  }
  render(<Field />);
  return { input: screen.getByLabelText('Date') as HTMLInputElement, emitted };
}

const shownText = () => document.querySelector('.signet-date[data-covered] > .signet-date-display')?.textContent ?? null;

describe('DateInput', () => {
  it('shows an ISO date in the viewer’s locale and keeps ISO as its value', async () => {
    const { input } = await renderDate('de-DE', 'de', '2026-11-22');
    expect(input.type).toBe('date');
    expect(input.value).toBe('2026-11-22');
    expect(shownText()).toBe('22.11.2026');
    // Screen readers hear the field's own description, then the date as the locale writes it.
    const [hint, shown] = input.getAttribute('aria-describedby')!.split(' ');
    expect(hint).toBe('hint');
    expect(document.getElementById(shown!)!.textContent).toBe('22.11.2026');
  });

  it('emits ISO 8601 from keyboard entry; the browser’s segments show while it has the focus', async () => {
    const { input, emitted } = await renderDate('fr-FR', 'fr');
    expect(shownText()).toBeNull();
    await tabInto(input);
    await userEvent.keyboard(typedDate('2027-01-05'));
    expect(emitted.at(-1)).toBe('2027-01-05');
    expect(document.activeElement).toBe(input);
    expect(shownText()).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(shownText()).toBe('5 janv. 2027');
  });

  it('cleared, it emits an empty value and shows nothing over the input', async () => {
    const { input, emitted } = await renderDate('ja', 'ja', '2026-03-09');
    expect(shownText()).toBe('2026/03/09');
    await tabInto(input);
    // Clearing one segment leaves an incomplete date, which the input's value reports as ''.
    await userEvent.keyboard('{Backspace}');
    expect(emitted.at(-1)).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(shownText()).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBe('hint');
  });
});

/** Tab from the button before `input`: a click would land on whichever of its segments is under the pointer. */
async function tabInto(input: HTMLInputElement) {
  screen.getByRole('button', { name: 'before' }).focus();
  await userEvent.tab();
  expect(document.activeElement).toBe(input);
}

describe('ISO dates', () => {
  it('formats a calendar day in any time zone, as the locale writes it', () => {
    expect(formatIsoDate('2026-01-01', 'en-US')).toBe('Jan 1, 2026');
    expect(formatIsoDate('2026-11-22', 'ar-EG')).toBe('٢٢‏/١١‏/٢٠٢٦');
    expect(formatIsoDate('2026-11-22', 'pl')).toBe('22 lis 2026');
  });

  it('refuses what is not a whole date', () => {
    expect(['2026-02-30', '2026-13-01', '2026-1-01', '', '22.11.2026'].map(isoDateToUtc)).toEqual([null, null, null, null, null]);
    // Years before 100 stay themselves (Date.UTC would read 99 as 1999).
    expect(new Date(isoDateToUtc('0099-12-31')!).toISOString()).toBe('0099-12-31T00:00:00.000Z');
  });
});
