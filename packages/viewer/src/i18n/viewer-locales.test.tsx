import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { enterText } from '../test-support/fill-fields.js';
import { renderViewer, untilReady } from '../test-support/render-viewer.js';

/* The viewer in ten languages, right to left included; host overrides; English as the fallback. */

afterEach(() => cleanup());

const root = () => document.querySelector<HTMLElement>('.signet-viewer')!;
const guidance = () => document.querySelector('.signet-guidance-text')!.textContent;

describe('the viewer’s language', () => {
  it('loads French for fr-CA: texts, plural forms, numbers and the root’s lang', async () => {
    await renderViewer({ pages: 1, props: { locale: 'fr-CA' } });
    await untilReady();
    expect([root().lang, root().dir]).toEqual(['fr-CA', 'ltr']);
    expect(guidance()).toMatch(/^0 sur \d+ champs obligatoires remplis$/);
    expect(screen.getByRole('button', { name: 'Champ suivant' })).toBeTruthy();
    expect(document.querySelector('.signet-zoom-value')!.textContent).toBe('100\u00a0%');
  });

  it('lays Arabic out right to left: progress on the right, the buttons on the left, Arabic-Indic digits in Egypt', async () => {
    await renderViewer({ pages: 1, props: { locale: 'ar-EG' } });
    await untilReady();
    expect([root().lang, root().dir]).toEqual(['ar-EG', 'rtl']);
    const bar = document.querySelector('.signet-guidance')!.getBoundingClientRect();
    const status = document.querySelector('.signet-guidance-status')!.getBoundingClientRect();
    const next = screen.getByRole('button', { name: 'الحقل التالي' }).getBoundingClientRect();
    const submit = screen.getByRole('button', { name: 'إنهاء وإرسال' }).getBoundingClientRect();
    expect(next.right).toBeLessThan(bar.left + bar.width / 2);
    expect(status.left).toBeGreaterThan(next.right);
    // Mirrored order: Submit, the last action, is at the far (left) end.
    expect(submit.right).toBeLessThanOrEqual(next.left);
    expect(document.querySelector('.signet-zoom-value')!.textContent).toBe('١٠٠٪');
    expect(guidance()).toMatch(/^اكتمل ٠ من أصل [٠-٩]+ /);
    // The PDF is not mirrored: its pages scroll left to right; a field's text starts at its right edge.
    expect(getComputedStyle(document.querySelector('.signet-pages')!).direction).toBe('ltr');
    const name = screen.getByRole('textbox', { name: 'Full legal name' });
    expect(getComputedStyle(name).direction).toBe('rtl');
  });

  it('falls back to English for a language it does not ship', async () => {
    await renderViewer({ pages: 1, props: { locale: 'sv-SE' } });
    await untilReady();
    expect([root().lang, root().dir]).toEqual(['en', 'ltr']);
    expect(guidance()).toMatch(/required fields complete$/);
  });

  it('lets the host override any text, over any language', async () => {
    await renderViewer({ pages: 1, props: { locale: 'de', messages: { next: 'Weiter', progress: '{done}/{total}' } } });
    await untilReady();
    expect(screen.getByRole('button', { name: 'Weiter' })).toBeTruthy();
    expect(guidance()).toMatch(/^0\/\d+$/);
    expect(screen.getByRole('button', { name: 'Abschließen und senden' })).toBeTruthy();
  });

  it('shows the date in the locale over the ISO 8601 value it holds', async () => {
    await renderViewer({ pages: 1, props: { locale: 'de-DE' } });
    await untilReady();
    const date = screen.getByLabelText('Date') as HTMLInputElement;
    await enterText(date, '2026-11-22');
    await userEvent.click(screen.getByRole('textbox', { name: 'Full legal name' }));
    const shown = document.querySelector('.signet-date[data-covered] > .signet-date-display');
    expect(shown?.textContent).toBe('22.11.2026');
    // The browser's own text is under it, hidden.
    expect(getComputedStyle(date).color).toBe('rgba(0, 0, 0, 0)');
    expect(date.value).toBe('2026-11-22');
  });
});
