import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createDocument, expect, openForm, screenshotPath, test } from './fixtures.js';

// The demo's viewer in each of the ten languages,
// with no axe violation of any impact on the viewer, the signature dialog, a value breaking its rule, the decline
// form, the declined state, the completed state, waiting for an earlier signer and a document that cannot be opened;
// Arabic laid out right to left.

/** Every axe violation inside the viewer, whatever its impact. */
async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).include('.signet-viewer').analyze();
  return results.violations.map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** The viewer's own words for what the test clicks, per language (the fields' labels are the PDF's, in English). */
const WORDS = {
  en: { initials: 'Add your initials', next: 'Next field' },
  de: { initials: 'Initialen hinzufügen', next: 'Nächstes Feld' },
  fr: { initials: 'Ajouter vos initiales', next: 'Champ suivant' },
  es: { initials: 'Añadir sus iniciales', next: 'Campo siguiente' },
  it: { initials: 'Aggiungi la tua sigla', next: 'Campo successivo' },
  pt: { initials: 'Adicionar sua rubrica', next: 'Próximo campo' },
  nl: { initials: 'Uw paraaf toevoegen', next: 'Volgend veld' },
  pl: { initials: 'Dodaj parafę', next: 'Następne pole' },
  ja: { initials: 'イニシャルを追加', next: '次の項目' },
  ar: { initials: 'أضف الأحرف الأولى من اسمك', next: 'الحقل التالي' },
} as const;

async function openIn(page: Page, locale: string) {
  await page.goto(`/?${new URLSearchParams({ documentId: await createDocument(page), locale })}`);
  await expect(page.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
}

for (const [language, words] of Object.entries(WORDS)) {
  test(`${language}: the viewer and the signature dialog in its words, with no axe violation of any impact`, async ({ page }) => {
    await openIn(page, language);
    const viewer = page.locator('.signet-viewer');
    await expect(viewer).toHaveAttribute('lang', language);
    await expect(viewer).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
    await expect(viewer.getByRole('button', { name: words.next, exact: true })).toBeVisible();
    expect(await violations(page)).toEqual([]);

    await viewer.getByRole('button', { name: 'Initials', exact: true }).click();
    await expect(page.getByRole('dialog', { name: words.initials, exact: true })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

test('Arabic: right to left chrome over an unmirrored PDF; screenshots for the README', async ({ page }) => {
  await page.setViewportSize({ width: 1100, height: 760 });
  await openIn(page, 'ar-EG');
  const viewer = page.locator('.signet-viewer');
  const bar = (await viewer.locator('.signet-guidance').boundingBox())!;
  const next = (await viewer.getByRole('button', { name: 'الحقل التالي' }).boundingBox())!;
  const progress = (await viewer.locator('.signet-guidance-text').boundingBox())!;
  // The guidance bar's buttons on the left, its progress on the right.
  expect(next.x + next.width).toBeLessThan(bar.x + bar.width / 2);
  expect(progress.x + progress.width).toBeGreaterThan(bar.x + bar.width / 2);
  expect(progress.x).toBeGreaterThan(next.x + next.width);
  await viewer.getByRole('textbox', { name: 'Full legal name' }).fill('ليلى حداد');
  await viewer.getByLabel('Date', { exact: true }).fill('2026-11-22');
  await viewer.getByRole('textbox', { name: 'Full legal name' }).click();
  await expect(viewer.locator('.signet-date-display')).toHaveText('٢٢‏/١١‏/٢٠٢٦');
  await viewer.screenshot({ path: screenshotPath('viewer-ar.png') });

  await viewer.getByRole('button', { name: 'Signature', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'أضف توقيعك' });
  await dialog.getByRole('tab', { name: 'كتابة' }).click();
  await expect(dialog.getByRole('textbox', { name: 'اسمك' })).toHaveValue('ليلى حداد');
  await dialog.screenshot({ path: screenshotPath('dialog-ar.png') });
  expect(await violations(page)).toEqual([]);
});

/** The viewer's words the tests below click and read. */
type Words = Record<
  | 'invalidEmail'
  | 'decline'
  | 'declineReason'
  | 'declineConfirm'
  | 'declinedBody'
  | 'type'
  | 'typeLabel'
  | 'apply'
  | 'submit'
  | 'completedTitle'
  | 'waitingTitle'
  | 'errorTitle',
  string
>;

/**
 * The viewer's own messages in `language`, read from its translation module (English from the viewer's messages)
 * by a path computed at run time, so that this package's typecheck does not compile the viewer's sources.
 */
async function messagesOf(language: string): Promise<Words> {
  const i18n = new URL('../../packages/viewer/src/i18n/', import.meta.url);
  if (language === 'en') return (await import(new URL('messages.ts', i18n).href)).en as Words;
  return (await import(new URL(`locales/${language}.ts`, i18n).href)).default as Words;
}

for (const language of Object.keys(WORDS)) {
  test(`${language}: a value breaking its rule, declining and the declined state, with no axe violation of any impact`, async ({ page }) => {
    const words = await messagesOf(language);
    await openForm(page, { locale: language });
    const viewer = page.locator('.signet-viewer');

    await viewer.getByRole('textbox', { name: 'Email' }).fill('ada@example');
    await viewer.getByRole('textbox', { name: 'Phone' }).focus();
    await expect(viewer.locator('.signet-guidance-problem button')).toHaveText(`Email: ${words.invalidEmail}`);
    expect(await violations(page)).toEqual([]);

    await viewer.getByRole('button', { name: words.decline, exact: true }).click();
    await viewer.getByRole('textbox', { name: words.declineReason }).fill('—');
    expect(await violations(page)).toEqual([]);
    await viewer.getByRole('button', { name: words.declineConfirm, exact: true }).click();
    await expect(viewer.getByText(words.declinedBody)).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

for (const language of Object.keys(WORDS)) {
  test(`${language}: signed and completed, with no axe violation of any impact`, async ({ page }) => {
    const words = await messagesOf(language);
    await openIn(page, language);
    const viewer = page.locator('.signet-viewer');
    const sign = async (field: string, text: string) => {
      await viewer.getByRole('button', { name: field, exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('tab', { name: words.type, exact: true }).click();
      await dialog.getByRole('textbox', { name: words.typeLabel }).fill(text);
      await dialog.getByRole('button', { name: words.apply, exact: true }).click();
      await expect(dialog).toBeHidden();
    };
    await viewer.getByLabel('Full legal name', { exact: true }).fill('Ada Lovelace');
    await sign('Initials', 'AL');
    await viewer.getByRole('checkbox', { name: /agree to the terms/ }).check();
    await sign('Signature', 'Ada Lovelace');
    await viewer.getByLabel('Date', { exact: true }).fill('2026-11-25');
    await viewer.getByRole('button', { name: words.submit, exact: true }).click();
    await expect(viewer.getByText(words.completedTitle, { exact: true })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

for (const language of Object.keys(WORDS)) {
  test(`${language}: waiting for an earlier signer, and a document that cannot be opened, with no axe violation of any impact`, async ({ page }) => {
    const words = await messagesOf(language);
    const created = await page.request.post('/demo-api/leases');
    const { documentId } = (await created.json()) as { documentId: string };
    await page.goto(`/?${new URLSearchParams({ documentId, signer: 'landlord', locale: language })}`);
    const viewer = page.locator('.signet-viewer');
    await expect(viewer.getByText(words.waitingTitle, { exact: true })).toBeVisible();
    await expect(page.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
    expect(await violations(page)).toEqual([]);

    await page.goto(`/?${new URLSearchParams({ documentId: 'doc_AAAAAAAAAAAAAAAAAAAAAAAA', locale: language })}`);
    await expect(viewer.getByText(words.errorTitle, { exact: true })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}
