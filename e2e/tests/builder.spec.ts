import AxeBuilder from '@axe-core/playwright';
import { expect, screenshotPath, signByTyping, test } from './fixtures.js';

/*
 * The demo's "New document": a draft of the sample agreement, fields placed in the builder with the keyboard, sent,
 * then signed in the viewer with the signer's session key; the server ends with a completed document.
 */

interface ListedDocument {
  id: string;
  status: string;
}

test('New document: place fields with the keyboard, send, sign, and the document is completed', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 960 });
  await page.goto('/');
  await page.getByRole('button', { name: 'New document', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'New document' })).toBeVisible();
  await page.getByRole('button', { name: 'Use the sample' }).click();

  const builder = page.locator('.signet-builder');
  await expect(builder.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
  const palette = builder.locator('.signet-builder-palette');

  // A signature and a text field, each added by focusing its palette item and pressing Enter.
  await palette.getByRole('button', { name: 'Signature', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(builder.locator('[data-field-id="signature-1"] button').first()).toBeFocused();
  await palette.getByRole('button', { name: 'Text', exact: true }).focus();
  await page.keyboard.press('Enter');
  const text = builder.locator('[data-field-id="text-1"]');
  await expect(text.locator('button').first()).toBeFocused();
  // Both land centred in view; moved with the arrow keys (Shift: 10 pt) into the blank space above the page's foot.
  const signature = builder.locator('[data-field-id="signature-1"]');
  const before = { text: (await text.boundingBox())!, signature: (await signature.boundingBox())! };
  const press = async (key: string, times: number) => {
    for (let step = 0; step < times; step += 1) await page.keyboard.press(key);
  };
  await press('Shift+ArrowDown', 27);
  await press('Shift+ArrowRight', 20);
  await signature.locator('button').first().focus();
  await press('Shift+ArrowDown', 27);
  await expect.poll(async () => (await text.boundingBox())!.y - before.text.y).toBeGreaterThan(200);
  await expect.poll(async () => (await signature.boundingBox())!.y - before.signature.y).toBeGreaterThan(180);
  expect((await text.boundingBox())!.x - before.text.x).toBeGreaterThan(150);
  await expect(builder.getByText('All changes saved')).toBeVisible();

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.screenshot({ path: screenshotPath('demo-builder.png') });

  await builder.getByRole('button', { name: 'Send', exact: true }).click();
  // Sent: the page opens the document for signing, as its first signer.
  const viewer = page.locator('.signet-viewer:not(.signet-builder)');
  await expect(viewer.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible({ timeout: 20_000 });
  const documentId = new URL(page.url()).searchParams.get('documentId')!;
  expect(documentId).toMatch(/^doc_/);

  await viewer.getByRole('textbox', { name: 'Text' }).fill('Casey Client, Northwind Leasing');
  await signByTyping(page, 'Signature', 'Casey Client', viewer);
  await viewer.getByRole('button', { name: /finish and submit/i }).click();
  await expect(page.getByText('Signed by Casey Client.')).toBeVisible({ timeout: 20_000 });

  await expect
    .poll(async () => {
      const listed = (await (await page.request.get('/demo-api/documents')).json()) as { documents: ListedDocument[] };
      return listed.documents.find((document) => document.id === documentId)?.status;
    })
    .toBe('completed');
});
