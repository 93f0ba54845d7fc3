import type { Page } from '@playwright/test';
import { createDocument, expect, openDocument, storedSubmission, test } from './fixtures.js';

/** Presses Tab until the element named `name` has focus (at most 60 times). */
async function tabTo(page: Page, name: string) {
  for (let presses = 0; presses < 60; presses++) {
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
    if (focused === name) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached "${name}"`);
}

/** Opens the dialog from the focused signature button and signs by typing, keys only. */
async function signByTyping(page: Page, text: string) {
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await tabTo(page, 'Draw');
  await page.keyboard.press('ArrowRight');
  await expect(dialog.getByRole('tab', { name: 'Type' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('textbox', { name: 'Your name' })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

test('keyboard only: every field in reading order, signed by typing, submitted', async ({ page }) => {
  const documentId = await createDocument(page);
  await openDocument(page, documentId);
  await page.locator('body').focus();

  await tabTo(page, 'Agreement number');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Full legal name', { exact: true })).toBeFocused();
  await page.keyboard.type('Katherine Johnson');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Company', { exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Initials', exact: true })).toBeFocused();
  await signByTyping(page, 'KJ');
  // Focus returns to the field that opened the dialog.
  await expect(page.getByRole('button', { name: 'Initials', exact: true })).toBeFocused();

  await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: /agree to the terms/ })).toBeFocused();
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Signature', exact: true })).toBeFocused();
  await signByTyping(page, 'Katherine Johnson');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Date', { exact: true })).toBeFocused();
  await page.keyboard.type('11222026');
  await expect(page.getByLabel('Date', { exact: true })).toHaveValue('2026-11-22');

  await expect(page.getByText('All required fields are complete')).toBeVisible();
  await tabTo(page, 'Finish and submit');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Document signed')).toBeVisible();
  const stored = await storedSubmission(page, documentId);
  expect(stored?.fields.find((field) => field.id === 'signer_name')?.value).toEqual({ type: 'text', content: 'Katherine Johnson' });
});
