import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createDocument, expect, openDocument, test } from './fixtures.js';

/** Serious and critical accessibility violations inside the viewer. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('.signet-viewer').analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

async function signAll(page: Page) {
  await page.getByLabel('Full legal name', { exact: true }).fill('Dorothy Vaughan');
  for (const [field, text] of [['Initials', 'DV'], ['Signature', 'Dorothy Vaughan']] as const) {
    await page.getByRole('button', { name: field, exact: true }).click();
    await page.getByRole('dialog').getByRole('tab', { name: 'Type' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Your name' }).fill(text);
    await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
  }
  await page.getByRole('checkbox', { name: /agree to the terms/ }).check();
  await page.getByLabel('Date', { exact: true }).fill('2026-11-20');
}

test('no serious or critical accessibility violations: viewer, signature dialog, completed state', async ({ page }) => {
  await openDocument(page, await createDocument(page));
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Signature', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await signAll(page);
  await page.getByRole('button', { name: 'Finish and submit' }).click();
  await expect(page.getByText('Document signed')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('a completed document reopened is read-only', async ({ page }) => {
  const documentId = await createDocument(page);
  await openDocument(page, documentId);
  await signAll(page);
  await page.getByRole('button', { name: 'Finish and submit' }).click();
  await expect(page.getByText('Document signed')).toBeVisible();

  await page.reload();
  await expect(page.getByText('Already signed')).toBeVisible();
  await expect(page.getByLabel('Full legal name', { exact: true })).not.toBeEditable();
  await expect(page.getByRole('checkbox', { name: /agree to the terms/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Signature', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Finish and submit' })).toHaveCount(0);
});
