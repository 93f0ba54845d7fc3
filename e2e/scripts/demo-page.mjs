// What the screenshot scripts share: Debian's Chromium at the README's viewport, and a fresh sample contract of
// the demo (`pnpm start` running) opened with its first page drawn.
import { chromium } from '@playwright/test';

/**
 * @param {string} demoUrl the demo page, e.g. http://127.0.0.1:5173
 * @returns {Promise<{ browser: import('@playwright/test').Browser, page: import('@playwright/test').Page, documentId: string }>}
 */
export async function openSampleContract(demoUrl) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
  const created = await page.request.post(`${demoUrl}/demo-api/documents?size=short`);
  const { documentId } = await created.json();
  await page.goto(`${demoUrl}/?documentId=${documentId}`);
  await page.locator('[data-page-number="1"] canvas[data-rendered="true"]').waitFor();
  return { browser, page, documentId };
}
