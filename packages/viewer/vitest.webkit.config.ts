import { defineBrowserProvider } from '@vitest/browser';
import { WebdriverBrowserProvider } from '@vitest/browser-webdriverio';
import { defineConfig, mergeConfig } from 'vitest/config';
import { startWebKitDriver, webkitCapabilities } from '../../e2e/webkit/webkit-driver.js';
import viewer from './vitest.config.js';

/**
 * The viewer's browser suite in WebKit: Debian's WebKitGTK (`webkit2gtk-driver`, MiniBrowser in automation mode, on
 * Xvfb when there is no display) through WebDriver classic and webdriverio. Run on its own (`pnpm test:webkit`).
 *
 * Vitest's webdriverio provider knows Chrome, Firefox, Edge and Safari only, so the instance is "safari" and the
 * provider's capabilities are rewritten to MiniBrowser's. `@vitest/browser-webdriverio` has no 4.1.12 on the registry
 * (its last 4.x is 4.1.11): its provider class is used with this Vitest's own `@vitest/browser` server (4.1.12).
 */
const driver = await startWebKitDriver();
const options = { hostname: driver.hostname, port: driver.port, logLevel: (process.env.WDIO_LOG_LEVEL ?? 'silent') as 'silent', capabilities: webkitCapabilities };

const webkit = defineBrowserProvider({
  name: 'webdriverio',
  supportedBrowser: ['safari'],
  options,
  providerFactory(project) {
    const provider = new WebdriverBrowserProvider(project, options);
    // buildCapabilities is private in the typings, and the one place the provider sets browserName.
    const open = provider as unknown as { buildCapabilities(): Record<string, unknown> };
    const build = open.buildCapabilities.bind(provider);
    open.buildCapabilities = () => ({ ...build(), ...webkitCapabilities });
    return provider;
  },
});

/**
 * A subset, by name: the files that pass in WebKitGTK 2.50 through this provider (PDF loading and rendering with
 * pdf.js, the pages and their scrolling, page layout, the zoom, page 1's preview, declining, the signed copy, the
 * phone's step panel, the field geometry, ink trimming, typed scripts, the locales list). Left out, with what they
 * hit there (docs/decisions.md, "Three engines"): SigningViewer, keyboard and signers (one or more of their tests
 * each: a field named by a 422, keyboard-only signing, the second signer's flow), the dialog's keyboard tests
 * (SignatureDialog, focus-trap), where the provider's Shift+Tab moves forward; ImageUpload (the provider cannot
 * upload File objects); DrawPad and the panel's drawing (CDP input, Chromium only); DateInput, translate,
 * viewer-locales and handwriting-font (WebKit's own date field, number formats and font loading differ from what
 * they expect). The main flow runs in WebKit end to end as well: e2e/webkit/signing.webkit.ts.
 */
const WEBKIT_FILES = [
  'bench/median-interval.test.ts',
  'src/Page/PdfPages.test.tsx',
  'src/Page/PreviewPage.test.tsx',
  'src/Page/ZoomControls.test.tsx',
  'src/Page/page-layout.test.ts',
  'src/Page/render-page.test.ts',
  'src/Page/render-queue.test.ts',
  'src/adopt-styles.test.ts',
  'src/decline.test.tsx',
  'src/fields/field-geometry.test.ts',
  'src/fields/text-limit.test.ts',
  'src/i18n/locales.test.ts',
  'src/pdf/load-pdf.test.ts',
  'src/react-version.test.ts',
  'src/signature/image-ink.test.ts',
  'src/signature/trim-ink.test.ts',
  'src/signature/typed-scripts.test.ts',
  'src/signed-copy/SignedCopy.test.tsx',
  'src/signed-copy/poll-schedule.test.ts',
  'src/steps/StepPanel.test.tsx',
];

const config = mergeConfig(
  viewer,
  defineConfig({
    cacheDir: 'node_modules/.vite-webkit',
    test: {
      name: '@signet/viewer (WebKit)',
      // No orchestrator UI: its test tree and header put the test's iframe at (348, 92) in a 1024 × 730 window, so
      // the iframe's lower and right parts were off screen, where WebKitWebDriver's clicks (at an element's centre,
      // in the window's coordinates, without scrolling the iframe) landed on nothing.
      browser: { provider: webkit, headless: false, ui: false },
    },
  }),
);
// mergeConfig concatenates arrays: the Chromium instance is replaced, not joined.
config.test!.browser!.instances = [{ browser: 'safari', viewport: { width: 1024, height: 800 } }];
config.test!.include = WEBKIT_FILES;

export default config;
