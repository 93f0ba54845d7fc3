import { createDocument, expect, fillRequired, openDocument, storedSubmission, test } from './fixtures.js';

test('submit stays blocked while required fields are empty; Next jumps to each in turn', async ({ page }) => {
  await openDocument(page, await createDocument(page));
  const submit = page.getByRole('button', { name: 'Finish and submit' });
  const next = page.getByRole('button', { name: 'Next field' });
  await expect(submit).toBeDisabled();
  await expect(page.getByText('0 of 5 required fields complete')).toBeVisible();

  const order = ['Full legal name', 'Initials', 'I have read and agree to the terms of this Agreement', 'Signature', 'Date'];
  for (const name of order) {
    await next.click();
    await expect(page.getByLabel(name, { exact: true })).toBeFocused();
    await expect(page.getByLabel(name, { exact: true })).toBeInViewport();
  }
  // Back to the first incomplete one.
  await next.click();
  await expect(page.getByLabel('Full legal name', { exact: true })).toBeFocused();

  await page.getByLabel('Full legal name', { exact: true }).fill('Ada');
  await expect(page.getByText('1 of 5 required fields complete')).toBeVisible();
  await next.click();
  await expect(page.getByLabel('Initials', { exact: true })).toBeFocused();
  await expect(submit).toBeDisabled();
});

test('the first submit fails at the network: the viewer retries and one submission exists', async ({ page }) => {
  const documentId = await createDocument(page);
  await openDocument(page, documentId);
  let posts = 0;
  const keys: string[] = [];
  await page.route('**/sdk/documents/submit', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    posts += 1;
    keys.push((await route.request().headerValue('idempotency-key')) ?? '');
    return posts === 1 ? route.abort('failed') : route.continue();
  });

  await fillRequired(page, 'Grace Hopper', '2026-11-21');
  await page.getByRole('button', { name: 'Finish and submit' }).click();

  await expect(page.getByText('Document signed')).toBeVisible();
  expect(posts).toBe(2);
  expect(keys[1]).toBe(keys[0]);
  const stored = await storedSubmission(page, documentId);
  const shown = await page.getByRole('region', { name: 'Submission result' }).locator('code').textContent();
  expect(stored?.id).toBe(shown);
});
