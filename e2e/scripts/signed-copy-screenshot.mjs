// The completed state with its signed copy: node e2e/scripts/signed-copy-screenshot.mjs [demo url] [out.png]
// [preparing.png] (with `pnpm start` running). Signs a fresh sample contract, submits it and, once the server has
// sealed it, takes the viewer offering "Download signed PDF" (and, if asked, the moment before: "Preparing…").
import { openSampleContract } from './demo-page.mjs';

const [demoUrl = 'http://127.0.0.1:5173', out = 'docs/screenshots/signed-copy.png', preparing] = process.argv.slice(2);
const { browser, page } = await openSampleContract(demoUrl);

const typeInto = async (field, text) => {
  await page.getByRole('button', { name: field, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Type' }).click();
  await dialog.getByRole('textbox', { name: 'Your name' }).fill(text);
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await dialog.waitFor({ state: 'hidden' });
};
await page.getByLabel('Full legal name', { exact: true }).fill('Ada Lovelace');
await page.getByLabel('Company', { exact: true }).fill('Analytical Engines Ltd');
await typeInto('Initials', 'AL');
await page.getByRole('checkbox', { name: /agree to the terms/ }).check();
await typeInto('Signature', 'Ada Lovelace');
await page.getByLabel('Date', { exact: true }).fill('2026-11-22');
await page.getByRole('button', { name: 'Finish and submit' }).click();
await page.getByText('Document signed').waitFor();
await page.locator('.signet-pages').evaluate((element) => element.scrollTo(0, 0));
if (preparing) {
  await page.getByText('Preparing your signed copy…').waitFor();
  // The spinner shows only once a wait has lasted 400 ms.
  await page.waitForTimeout(500);
  await page.screenshot({ path: preparing });
}
const link = page.getByRole('link', { name: 'Download signed PDF' });
await link.waitFor({ timeout: 60_000 });
// As a keyboard user reaches it (Tab from the toolbar's last button): the focus ring shows.
await page.getByRole('button', { name: 'Fit to width' }).focus();
await page.keyboard.press('Tab');
await page.waitForTimeout(300);
await page.screenshot({ path: out });
await browser.close();
