import { createDocument, expect, productState, signetCli, test } from './fixtures.js';

test('an expired key says the link has expired', async ({ page }) => {
  const documentId = await createDocument(page);
  const key = JSON.parse(signetCli('keys', 'create', '--org', 'demo', '--kind', 'pk', '--expires-at', '2020-01-01T00:00:00Z', '--json')) as {
    key: string;
  };
  await page.goto(`/?${new URLSearchParams({ documentId, apiKey: key.key })}`);
  await expect(page.getByRole('alert')).toContainText('The signing link has expired');
});

test('a revoked key says the link is not valid', async ({ page }) => {
  const documentId = await createDocument(page);
  const key = JSON.parse(signetCli('keys', 'create', '--org', 'demo', '--kind', 'pk', '--json')) as { id: string; key: string };
  signetCli('keys', 'revoke', key.id);
  await page.goto(`/?${new URLSearchParams({ documentId, apiKey: key.key })}`);
  await expect(page.getByRole('alert')).toContainText('The signing link is not valid');
});

test('an unknown document says it was not found', async ({ page }) => {
  await page.goto(`/?${new URLSearchParams({ documentId: 'doc_0000000000000000000000', apiKey: productState().pk })}`);
  await expect(page.getByRole('alert')).toContainText('The document was not found');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
});
