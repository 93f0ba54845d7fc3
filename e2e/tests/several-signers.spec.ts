import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, pdfsig, signByTyping, test } from './fixtures.js';

// A lease for two signers, the tenant then the landlord, each in a browser of their own with a session key
// the demo's backend mints for them.

const painted = (page: Page) => expect(page.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();

test('two signers in two browsers: the landlord waits, then sees the tenant’s signature read-only; the sealed PDF carries both', async ({
  browser,
  page,
}) => {
  const created = await page.request.post('/demo-api/leases');
  expect(created.status()).toBe(201);
  const { documentId } = (await created.json()) as { documentId: string };

  const landlordContext = await browser.newContext();
  const tenantContext = await browser.newContext();
  try {
    // The landlord opens it first: the viewer says whom it waits for, and nothing can be filled in yet.
    const landlord = await landlordContext.newPage();
    await landlord.goto(`/?documentId=${documentId}&signer=landlord`);
    await painted(landlord);
    await expect(landlord.getByRole('group', { name: 'Sign as' }).getByRole('button', { name: /Lars Landlord/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(landlord.getByText('Waiting for Tina Tenant to sign first.', { exact: false })).toBeVisible();
    await expect(landlord.getByRole('button', { name: 'Finish and submit' })).toHaveCount(0);

    // The tenant signs their fields; the landlord's are marked as theirs.
    const tenant = await tenantContext.newPage();
    await tenant.goto(`/?documentId=${documentId}&signer=tenant`);
    await painted(tenant);
    await expect(tenant.getByText('0 of 5 required fields complete')).toBeVisible();
    await expect(tenant.getByRole('note', { name: 'Landlord signature: To be signed by Lars Landlord' })).toBeAttached();
    await tenant.getByLabel('Full legal name', { exact: true }).fill('Tina Tenant');
    await signByTyping(tenant, 'Initials', 'TT');
    await tenant.getByRole('checkbox', { name: /agree to the terms/ }).check();
    await signByTyping(tenant, 'Signature', 'Tina Tenant');
    await tenant.getByLabel('Date', { exact: true }).fill('2026-11-24');
    await tenant.getByRole('button', { name: 'Finish and submit' }).click();
    await expect(tenant.getByText('Signed by Tina Tenant.')).toBeVisible();
    await expect(tenant.getByText('The document is complete once the others have signed: Lars Landlord.')).toBeVisible();

    // The landlord reloads: the tenant's values are on the page, read-only, and it is their turn.
    await landlord.reload();
    await painted(landlord);
    await expect(landlord.getByText('0 of 2 required fields complete')).toBeVisible();
    const tenantName = landlord.getByRole('textbox', { name: 'Full legal name' });
    await expect(tenantName).toHaveValue('Tina Tenant');
    await expect(tenantName).toHaveAttribute('readonly', '');
    const tenantSignature = landlord.getByRole('button', { name: 'Signature', exact: true });
    await tenantSignature.scrollIntoViewIfNeeded();
    await expect(tenantSignature).toBeDisabled();
    await expect(tenantSignature.locator('canvas')).toBeVisible();
    await expect(landlord.getByRole('checkbox', { name: /agree to the terms/ })).toBeChecked();
    await expect(landlord.getByRole('checkbox', { name: /agree to the terms/ })).toBeDisabled();
    await landlord.screenshot({ path: test.info().outputPath('landlord-sees-tenant.png') });

    await signByTyping(landlord, 'Landlord signature', 'Lars Landlord');
    await landlord.getByLabel('Date', { exact: true }).and(landlord.locator(':not([readonly])')).fill('2026-11-25');
    await landlord.getByRole('button', { name: 'Finish and submit' }).click();
    await expect(landlord.getByText('Signed by Lars Landlord.')).toBeVisible();

    // Sealed once, with both signers' values and both on its audit pages.
    const signedCopy = landlord.getByRole('link', { name: 'Download signed PDF' });
    await expect(signedCopy).toBeVisible({ timeout: 30_000 });
    const [download] = await Promise.all([landlord.waitForEvent('download'), signedCopy.click()]);
    const path = test.info().outputPath('lease-signed.pdf');
    await download.saveAs(path);
    expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfsig(path)).toContain('Signature is Valid.');
    const text = spawnSync('pdftotext', [path, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    for (const expected of ['Signer: Tina Tenant', 'Signer: Lars Landlord', 'Signed by Tina Tenant', 'Signed by Lars Landlord', 'Tina Tenant']) {
      expect(text).toContain(expected);
    }
  } finally {
    await landlordContext.close();
    await tenantContext.close();
  }
});
