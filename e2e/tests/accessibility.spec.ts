import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createDocument, expect, openDocument, test } from './fixtures.js';

// No axe violation of any impact in the viewer's states, in English and German; the
// signature dialog named once; Windows high contrast keeps field boundaries and focus; the chrome reflows at 320 px.

/** Every axe violation inside the viewer, whatever its impact. */
async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).include('.signet-viewer').analyze();
  return results.violations.map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

for (const locale of ['en-US', 'de-DE']) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test('no axe violation of any impact: the viewer, the signature dialog, declining, declined', async ({ page }) => {
      const german = locale.startsWith('de');
      await page.goto(`/?${new URLSearchParams({ documentId: await createDocument(page) })}`);
      await expect(page.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
      expect(await violations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Initials', exact: true }).click();
      // Named by its title alone, once.
      await expect(page.getByRole('dialog', { name: german ? 'Initialen hinzufügen' : 'Add your initials', exact: true })).toBeVisible();
      expect(await violations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: german ? 'Ablehnen' : 'Decline', exact: true }).click();
      expect(await violations(page)).toEqual([]);
      await page.getByRole('textbox', { name: german ? 'Teilen Sie dem Absender den Grund mit' : 'Tell the sender why' }).fill('Wrong address');
      await page.getByRole('button', { name: german ? 'Unterschrift ablehnen' : 'Decline to sign' }).click();
      // In the viewer: the demo's list beside it shows "Declined" badges of other tests' documents too.
      const viewer = page.locator('.signet-viewer');
      await expect(viewer.getByText(german ? 'Abgelehnt' : 'Declined', { exact: true })).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });
  });
}

test('a signer waiting for their turn: no axe violation', async ({ page }) => {
  const created = await page.request.post('/demo-api/leases');
  const { documentId } = (await created.json()) as { documentId: string };
  await page.goto(`/?documentId=${documentId}&signer=landlord`);
  await expect(page.getByText('Not your turn yet')).toBeVisible();
  await expect(page.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test('Windows high contrast (forced-colors: active) keeps every field’s boundary and the focus visible', async ({ page }) => {
  await page.emulateMedia({ forcedColors: 'active' });
  await openDocument(page, await createDocument(page));
  const name = page.getByRole('textbox', { name: 'Full legal name' });
  const border = await name.evaluate((element) => {
    const style = getComputedStyle(element);
    return { width: style.borderTopWidth, style: style.borderTopStyle };
  });
  expect(border).toEqual({ width: '2px', style: 'solid' });
  const signature = page.getByRole('button', { name: 'Signature', exact: true });
  expect(await signature.evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('solid');
  await name.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const outline = await name.evaluate((element) => {
    const style = getComputedStyle(element);
    return { width: style.outlineWidth, style: style.outlineStyle };
  });
  expect(outline).toEqual({ width: '3px', style: 'solid' });
});

test('at 320 CSS px the viewer’s toolbar and guidance bar fit without scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await openDocument(page, await createDocument(page));
  for (const selector of ['.signet-toolbar', '.signet-guidance']) {
    const overflow = await page.locator(selector).evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow, selector).toBeLessThanOrEqual(0);
  }
});

test.describe('at 400 % zoom (a 1280 × 1024 window shows 320 × 256 CSS px)', () => {
  test.use({ viewport: { width: 320, height: 256 }, deviceScaleFactor: 4 });

  test('the chrome reflows: nothing of the viewer, its toolbar or its guidance bar scrolls sideways', async ({ page }) => {
    await openDocument(page, await createDocument(page));
    const sideways = (selector: string) => page.locator(selector).first().evaluate((element) => element.scrollWidth - element.clientWidth);
    for (const selector of ['.signet-viewer', '.signet-toolbar', '.signet-guidance']) {
      expect(await sideways(selector), selector).toBeLessThanOrEqual(0);
    }
    // Every control of the chrome is within the window's width, where the signer can reach it.
    for (const control of await page.locator('.signet-toolbar button, .signet-guidance button').all()) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(320);
    }
    await page.screenshot({ path: test.info().outputPath('zoom-400.png') });
  });
});
