import { createDocument, expect, openDocument, signByTyping, storedSubmission, test } from './fixtures.js';

test('a 300-page document scrolls to its last page, whose fields work', async ({ page }) => {
  // Three hundred pages scrolled a screenful at a time, filled, submitted and read back: about a minute alone, and
  // more on a CI machine whose two cores also run the Node and the other browsers' suites.
  test.setTimeout(240_000);
  const documentId = await createDocument(page, 'long');
  await openDocument(page, documentId);
  // Boxes only near the viewport and on the pages with fields: the DOM does not grow with the document.
  await expect(page.locator('[data-page-number="300"]')).toHaveCount(1);
  expect(await page.locator('[data-page-number]').count()).toBeLessThanOrEqual(16);

  // Scroll to the end a screenful at a time, as a reader flicking through would, counting the live canvases and
  // the page boxes.
  const scroller = page.locator('.signet-pages');
  const last = page.locator('[data-page-number="300"]');
  let maxCanvases = 0;
  let maxBoxes = 0;
  for (let atEnd = false; !atEnd; ) {
    const step = await scroller.evaluate(async (element) => {
      element.scrollBy(0, element.clientHeight * 3);
      // Two frames: the viewer sees the scroll and mounts or releases canvases.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return {
        atEnd: element.scrollTop + element.clientHeight >= element.scrollHeight - 1,
        canvases: element.querySelectorAll('canvas').length,
        boxes: element.querySelectorAll('[data-page-number]').length,
      };
    });
    maxCanvases = Math.max(maxCanvases, step.canvases);
    maxBoxes = Math.max(maxBoxes, step.boxes);
    atEnd = step.atEnd;
  }
  await expect(last.locator('canvas[data-rendered="true"]')).toBeVisible();
  expect(maxCanvases).toBeLessThanOrEqual(10);
  expect(maxBoxes).toBeLessThanOrEqual(16);

  await page.getByLabel('Full legal name', { exact: true }).fill('Alan Turing');
  await signByTyping(page, 'Initials', 'AT');

  const terms = last.getByRole('checkbox', { name: /agree to the terms/ });
  await terms.check();
  await signByTyping(page, 'Signature', 'Alan Turing', last);
  await last.getByLabel('Date', { exact: true }).fill('2026-11-22');
  await page.getByRole('button', { name: 'Finish and submit' }).click();
  await expect(page.getByText('Document signed')).toBeVisible();
  const stored = await storedSubmission(page, documentId);
  expect(stored?.pages).toHaveLength(300);
  expect(stored?.fields.find((field) => field.id === 'accept_terms')?.value).toEqual({ type: 'checkbox', checked: true });
});
