// The README's pictures: node e2e/scripts/readme-screenshot.mjs [demo url] [docs/images] (with `pnpm start`
// running). Opens a fresh sample contract, fills in the name and initials (viewer.png), then opens the signature
// dialog on its Type tab (signature-dialog.png).
import { openSampleContract } from './demo-page.mjs';

const [demoUrl = 'http://127.0.0.1:5173', dir = 'docs/images'] = process.argv.slice(2);
const { browser, page } = await openSampleContract(demoUrl);
await page.getByLabel('Full legal name', { exact: true }).fill('Ada Lovelace');
await page.getByRole('button', { name: 'Initials', exact: true }).click();
await page.getByRole('dialog').getByRole('tab', { name: 'Type' }).click();
await page.getByRole('dialog').getByRole('textbox', { name: 'Your name' }).fill('AL');
await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
await page.getByLabel('Company', { exact: true }).fill('Analytical Engines Ltd');
await page.locator('.signet-pages').evaluate((element) => element.scrollTo(0, 0));
await page.waitForTimeout(300);
await page.screenshot({ path: `${dir}/viewer.png` });
await page.getByRole('button', { name: 'Signature', exact: true }).click();
await page.getByRole('dialog').getByRole('tab', { name: 'Type' }).click();
await page.getByRole('dialog').getByRole('textbox', { name: 'Your name' }).fill('Ada Lovelace');
await page.waitForTimeout(300);
await page.screenshot({ path: `${dir}/signature-dialog.png` });
await browser.close();
