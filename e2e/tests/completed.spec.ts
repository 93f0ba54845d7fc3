import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createDocument, expect, fillRequired, openDocument, test } from './fixtures.js';

/** Accessibility violations inside the viewer, of any impact (minor and moderate ones included). */
async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).include('.signet-viewer').analyze();
  return results.violations.map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test('no accessibility violations of any impact: viewer, signature dialog, completed state', async ({ page }) => {
  await openDocument(page, await createDocument(page));
  expect(await violations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Signature', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await fillRequired(page, 'Dorothy Vaughan', '2026-11-20');
  await page.getByRole('button', { name: 'Finish and submit' }).click();
  await expect(page.getByText('Document signed')).toBeVisible();
  expect(await violations(page)).toEqual([]);
  // And once the signed copy is offered.
  await expect(page.getByRole('link', { name: 'Download signed PDF' })).toBeVisible({ timeout: 30_000 });
  expect(await violations(page)).toEqual([]);
});

test('a completed document reopened is read-only', async ({ page }) => {
  const documentId = await createDocument(page);
  await openDocument(page, documentId);
  await fillRequired(page, 'Dorothy Vaughan', '2026-11-20');
  await page.getByRole('button', { name: 'Finish and submit' }).click();
  await expect(page.getByText('Document signed')).toBeVisible();

  await page.reload();
  await expect(page.getByText('Already signed')).toBeVisible();
  await expect(page.getByLabel('Full legal name', { exact: true })).not.toBeEditable();
  await expect(page.getByRole('checkbox', { name: /agree to the terms/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Signature', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Finish and submit' })).toHaveCount(0);
  // Its signed copy is offered here too (at once when sealed already, else once the seal lands).
  await expect(page.getByRole('link', { name: 'Download signed PDF' })).toHaveAttribute('href', new RegExp(`/sdk/documents/${documentId}/signed\\.pdf\\?token=`), {
    timeout: 30_000,
  });
});
