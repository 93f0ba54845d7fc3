import { playwright } from '@vitest/browser-playwright';
import { createRequire, register } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame, Page } from 'playwright';
import { defineConfig, mergeConfig } from 'vitest/config';
import viewer from './vitest.config.js';

/**
 * The viewer's whole browser suite in Debian's Firefox ESR (`firefox-esr`), driven over WebDriver BiDi by Playwright.
 * Run on its own (`pnpm test:firefox` at the root), never among the root projects: see below.
 *
 * Playwright 1.65 sends `emulation.setMediaFeaturesOverride` on every new page, which Firefox ESR 153 does not know, so
 * this run uses Playwright 1.64.1, installed beside 1.65 as the `playwright-bidi` alias. `@vitest/browser-playwright`
 * loads `import('playwright')` when it opens the browser; a Node resolve hook sends that one specifier to the alias.
 * The hook is process-wide, which is why this config must not share a process with the Chromium projects.
 *
 * The drawing tests (DrawPad, the step panel's drawn signature) run here too: their strokes are Playwright's mouse, and
 * touch as WebDriver BiDi actions on Playwright's own session (`src/test-support/pointer-commands.ts`). Firefox's
 * WebDriver has no pen pointer, which the tests check rather than skip (`src/signature/test-input.ts`).
 */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

const require = createRequire(import.meta.url);
const playwright164 = pathToFileURL(join(dirname(require.resolve('playwright-bidi/package.json')), 'index.mjs')).href;
const hook = `export async function resolve(specifier, context, next) {
  if (specifier === 'playwright') return { url: ${JSON.stringify(playwright164)}, shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const viewport = { width: 1024, height: 800 };

const base = playwright({
  launchOptions: { channel: 'moz-firefox', executablePath: FIREFOX_PATH },
  // A page as large as the test iframe, so that Vitest never needs to scale the iframe down.
  contextOptions: { viewport },
});

/**
 * The provider's keyboard commands find the test frame by its name, `page.frame('vitest-iframe')`, and over BiDi
 * Playwright does not always know a frame's name ("Cannot find \"vitest-iframe\" on the page"): here the frame is
 * the content of the iframe element instead.
 */
const provider: typeof base = {
  ...base,
  providerFactory(project) {
    const created = base.providerFactory(project);
    type CommandsContext = { page: Page; frame(): Promise<Frame> };
    const commandsContext = created.getCommandsContext.bind(created) as (sessionId: string) => CommandsContext;
    created.getCommandsContext = (sessionId) => {
      const context = commandsContext(sessionId);
      const byName = context.frame;
      context.frame = async () => {
        const frame = await (await context.page.$('iframe[data-vitest="true"]'))?.contentFrame();
        return frame ?? byName();
      };
      return context;
    };
    return created;
  },
};

const firefox = mergeConfig(
  viewer,
  defineConfig({
    // A cache of its own keeps this run independent of the Chromium projects'.
    cacheDir: 'node_modules/.vite-firefox',
    test: {
      name: '@signet/viewer (Firefox)',
      browser: {
        provider,
        // Vitest wraps the test iframe in a box with `transform: scale(…)`, even at scale(1), and Playwright's Firefox
        // cannot see through a transformed ancestor of a frame: every click times out with "element is not visible".
        // The page is as large as the iframe (above), so the scale is 1 and the transform can go.
        orchestratorScripts: [
          {
            id: 'signet-no-iframe-transform',
            content: `document.head.append(Object.assign(document.createElement('style'), { textContent: '[data-scale] { transform: none !important; }' }));`,
          },
        ],
      },
    },
  }),
);
// mergeConfig concatenates arrays: the Chromium instance is replaced, not joined.
firefox.test!.browser!.instances = [{ browser: 'firefox', viewport }];

export default firefox;
