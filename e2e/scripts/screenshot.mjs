// Screenshots of a URL in Debian's Chromium: node e2e/scripts/screenshot.mjs <url> <out.png> [width] [height] [--touch]
import { chromium } from '@playwright/test';

const [url, out, width = '1280', height = '900'] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) }, deviceScaleFactor: 1 });
await page.goto(url);
await page.waitForSelector('canvas[data-rendered="true"]', { timeout: 15000 }).catch(() => {});
await page.waitForTimeout(500);
await page.screenshot({ path: out });
await browser.close();
