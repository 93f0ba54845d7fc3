import { expect, screenshotPath, test } from './fixtures.js';

// `pnpm start` without SIGNET_SMTP_URL catches Signet's mail itself (docs/email.md, "Trying it"): a lease sent by
// e-mail shows the tenant's invitation in the page's Mail panel, and its link opens Signet's hosted signing page.
test('a lease by e-mail shows the invitation in the demo’s Mail panel, and its link opens the hosted page', async ({ page, context }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Lease by e-mail' }).click();
  const panel = page.getByRole('region', { name: 'Mail' });
  const invitation = panel.getByRole('listitem').filter({ hasText: 'To tina@example.com' }).first();
  await expect(invitation).toBeVisible({ timeout: 30_000 });
  await expect(invitation).toContainText('residential-lease.pdf');
  // Sequential order: the landlord's turn has not come, so nothing was sent to him.
  await expect(panel.getByRole('listitem').filter({ hasText: 'lars@example.com' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'residential-lease.pdf' })).toBeVisible();
  await expect(page.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: screenshotPath('demo-mail-panel.png'), fullPage: true });

  const popup = context.waitForEvent('page');
  await invitation.getByRole('link', { name: 'Open the signing link' }).click();
  const hosted = await popup;
  await expect(hosted.getByText('Signing as Tina Tenant')).toBeVisible();
  await expect(hosted.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible({ timeout: 30_000 });
  await expect(hosted.getByRole('button', { name: 'Finish and submit' })).toBeVisible();
});
