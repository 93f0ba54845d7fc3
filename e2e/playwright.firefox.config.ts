import { createRequire, register } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The main signing flow in Debian's Firefox ESR (`firefox-esr`), over WebDriver BiDi: `pnpm test:firefox` at the
 * root runs it as `playwright-bidi test -c playwright.firefox.config.ts` (see package.json), against the same server
 * and demo page as playwright.config.ts.
 *
 * Playwright 1.65 sends `emulation.setMediaFeaturesOverride` on every new page, which Firefox ESR 153 does not know;
 * this run uses Playwright 1.64.1, installed beside 1.65 as the `playwright-test-bidi` alias. Its runner loads this
 * config (in the runner and in each worker) before any test: the resolve hook below sends every `@playwright/test`
 * import, the tests' and playwright.config.ts's, to 1.64.1, so one Playwright runs the whole process.
 */
const require = createRequire(import.meta.url);
const playwrightTest164 = pathToFileURL(join(dirname(require.resolve('playwright-test-bidi/package.json')), 'index.mjs')).href;
/**
 * What `@playwright/test` is in this run: 1.64.1, with `locator.fill` on a text box made to type. Playwright's BiDi
 * fill assigns `input.value` and dispatches a synthetic input event; React, which tracks the value through that same
 * setter, then sees no change and never calls `onChange` (the Apply button of the signature dialog stays disabled).
 * Emptying the box and typing the text key by key is what a person does, and works. Date inputs keep fill.
 */
const wrapper = `import * as playwright from ${JSON.stringify(playwrightTest164)};
export * from ${JSON.stringify(playwrightTest164)};
export const test = playwright.test.extend({
  page: async ({ page }, use) => {
    const locator = Object.getPrototypeOf(page.locator('body'));
    if (!locator.signetFill) {
      const fill = locator.fill;
      locator.signetFill = fill;
      locator.fill = async function (value, options) {
        const type = await this.evaluate((element) => (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.type : ''), undefined, options);
        if (!value || !type || type === 'date') return fill.call(this, value, options);
        await fill.call(this, '', options);
        await this.pressSequentially(value, options);
      };
    }
    await use(page);
  },
});
export default test;`;
const hook = `export async function resolve(specifier, context, next) {
  if (specifier === '@playwright/test') return { url: ${JSON.stringify(`data:text/javascript,${encodeURIComponent(wrapper)}`)}, shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const { default: base } = await import('./playwright.config.js');
const { defineConfig } = await import('@playwright/test');

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export default defineConfig({
  ...base,
  testMatch: ['signing.spec.ts'],
  // The whole flow, seal included, in a second browser engine that runs while the other lane's suites load both
  // cores: a landing run once took over a minute here. Two minutes.
  timeout: 120_000,
  outputDir: './test-results/firefox',
  reporter: [['list'], ['html', { open: 'never', outputFolder: './playwright-report/firefox' }]],
  use: {
    ...base.use,
    browserName: 'firefox',
    launchOptions: { channel: 'moz-firefox', executablePath: FIREFOX_PATH },
  },
});
