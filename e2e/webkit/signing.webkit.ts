/**
 * The main signing flow in WebKit (Debian's WebKitGTK MiniBrowser through WebKitWebDriver, see webkit-driver.ts),
 * driven by webdriverio against the product as playwright.config.ts starts it: the demo page built and served with
 * the API, on free ports and a fresh store. Playwright's WebKit is a build of its own that nothing may download here,
 * so this flow is a script rather than a Playwright test; it follows tests/signing.spec.ts.
 *
 * `pnpm test:webkit` at the root runs it (after the viewer's suite in WebKit). It prints one `N passed, N failed` line.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remote } from 'webdriverio';
import { demoServerCommand } from '../demo-server.js';
import { startWebKitDriver, webkitCapabilities } from './webkit-driver.js';

const e2eDir = fileURLToPath(new URL('..', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const result = await check();
      if (result) return result;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

function check(condition: unknown, message: string): void {
  if (!condition) throw new Error(message);
}

/** The product as `pnpm start` runs it, like playwright.config.ts's webServer. */
async function startProduct(): Promise<{ demoUrl: string; dir: string; stop(): void }> {
  const [apiPort, demoPort] = [await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'signet-e2e-webkit-'));
  const demoUrl = `http://127.0.0.1:${demoPort}`;
  const server: ChildProcess = spawn('sh', ['-c', demoServerCommand], {
    cwd: e2eDir,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(apiPort),
      DEMO_PORT: String(demoPort),
      DATABASE_URL: `file:${join(dir, 'signet.db')}`,
      SIGNET_STATE_FILE: join(dir, 'state.json'),
      LOG_LEVEL: 'warn',
    },
  });
  const stop = () => {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.once('exit', stop);
  await until('the demo page', async () => (await fetch(`${demoUrl}/demo-api/config`)).ok, 120_000);
  return { demoUrl, dir, stop };
}

const xpathText = (text: string) => `normalize-space()=${JSON.stringify(text)}`;
const byLabel = (label: string) => `//*[@aria-label=${JSON.stringify(label)} or @id=//label[${xpathText(label)}]/@for]`;
const button = (name: string) => `//button[@aria-label=${JSON.stringify(name)} or (not(@aria-label) and ${xpathText(name)})]`;

async function signingFlow(browser: WebdriverIO.Browser, demoUrl: string, dir: string): Promise<void> {
  const created = await fetch(`${demoUrl}/demo-api/documents?size=short`, { method: 'POST' });
  check(created.status === 201, `creating a document answered ${created.status}`);
  const { documentId } = (await created.json()) as { documentId: string };

  await browser.url(`${demoUrl}/?documentId=${documentId}`);
  await browser.$('[data-page-number="1"] canvas[data-rendered="true"]').waitForDisplayed({ timeout: 30_000 });
  const name = browser.$(byLabel('Full legal name'));
  await name.waitForDisplayed({ timeout: 15_000 });

  // WebDriver's Element Send Keys: real key events, one by one.
  await name.setValue('Ada Lovelace');
  await browser.$(byLabel('Company')).setValue('Analytical Engines Ltd');
  for (const [field, text] of [
    ['Initials', 'AL'],
    ['Signature', 'Ada Lovelace'],
  ] as const) {
    await browser.$(button(field)).click();
    const dialog = browser.$('dialog[open]');
    await dialog.waitForDisplayed({ timeout: 15_000 });
    await dialog.$(`.//*[@role="tab" and ${xpathText('Type')}]`).click();
    await dialog.$(`.//*[@aria-label="Your name" or @id=//label[${xpathText('Your name')}]/@for]`).setValue(text);
    await dialog.$(`.//button[${xpathText('Apply')}]`).click();
    await dialog.waitForDisplayed({ reverse: true, timeout: 15_000 });
    if (field === 'Initials') await browser.$('//input[@type="checkbox"][contains(@aria-label, "agree to the terms") or @id=//label[contains(., "agree to the terms")]/@for]').click();
  }
  // Typed into the date field's segments in the browser's en-US order; a separator moves to the next segment, which
  // WebKitGTK does not do by itself once one is full.
  await browser.$(byLabel('Date')).setValue('11/22/2026');

  await browser.$(`//*[${xpathText('All required fields are complete')}]`).waitForDisplayed({ timeout: 15_000 });
  await browser.$(`//button[${xpathText('Finish and submit')}]`).click();
  const result = browser.$('//*[@aria-label="Submission result"]');
  await result.waitForDisplayed({ timeout: 30_000 });
  await until('"Signed." in the submission result', async () => (await result.getText()).includes('Signed.'));
  const submissionId = await result.$('code').getText();

  const stored = (await (await fetch(`${demoUrl}/demo-api/documents/${documentId}/submission`)).json()) as {
    id: string;
    fields: { id: string; value: Record<string, unknown> }[];
    pages: unknown[];
    renderContext: { devicePixelRatio: number; scale: number };
  };
  check(stored.id === submissionId, `stored submission ${stored.id} is not the one shown, ${submissionId}`);
  const values = Object.fromEntries(stored.fields.map((field) => [field.id, field.value]));
  const expected: Record<string, Record<string, unknown>> = {
    signer_name: { type: 'text', content: 'Ada Lovelace' },
    signer_company: { type: 'text', content: 'Analytical Engines Ltd' },
    accept_terms: { type: 'checkbox', checked: true },
    signed_date: { type: 'date', content: '2026-11-22' },
    agreement_number: { type: 'text', content: 'AGR-2025-0042' },
  };
  for (const [id, value] of Object.entries(expected)) {
    for (const [key, want] of Object.entries(value)) {
      check(values[id]?.[key] === want, `${id}.${key} is ${JSON.stringify(values[id]?.[key])}, not ${JSON.stringify(want)}`);
    }
  }
  for (const id of ['signature', 'signer_initials']) {
    check(String(values[id]?.['imageData']).startsWith('data:image/png;base64,'), `${id} holds no PNG`);
  }
  check(stored.pages.length === 3 && stored.renderContext.scale > 0, 'the stored pages or render context are off');

  // The sealed PDF, once the server has signed it, as the completed state links it.
  const link = browser.$(`//a[${xpathText('Download signed PDF')}]`);
  await link.waitForDisplayed({ timeout: 30_000 });
  const href = new URL((await link.getAttribute('href')) ?? '', demoUrl).href;
  const pdf = Buffer.from(await (await fetch(href)).arrayBuffer());
  check(pdf.subarray(0, 5).toString('latin1') === '%PDF-', 'the signed copy is not a PDF');
  const path = join(dir, 'signed.pdf');
  writeFileSync(path, pdf);
  const pdfsig = spawnSync('pdfsig', [path], { encoding: 'utf8' });
  check(`${pdfsig.stdout}${pdfsig.stderr}`.includes('Signature is Valid.'), `pdfsig: ${pdfsig.stdout}${pdfsig.stderr}`);
}

const started = Date.now();
const product = await startProduct();
const driver = await startWebKitDriver();
let failed = 0;
const browser = await remote({ hostname: driver.hostname, port: driver.port, logLevel: 'warn', capabilities: webkitCapabilities });
try {
  await browser.setWindowSize(1280, 900);
  await signingFlow(browser, product.demoUrl, product.dir);
  console.log(`  ✓ WebKit ${browser.capabilities.browserVersion}: the full signing flow (${((Date.now() - started) / 1000).toFixed(1)} s)`);
} catch (error) {
  failed = 1;
  console.error('  ✗ WebKit: the full signing flow');
  console.error(error);
  const shot = join(e2eDir, 'test-results', 'webkit-signing-failed.png');
  await browser.saveScreenshot(shot).then(() => console.error(`screenshot: ${shot}`), () => {});
} finally {
  await browser.deleteSession().catch(() => {});
  driver.stop();
  product.stop();
}
console.log(`${1 - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
