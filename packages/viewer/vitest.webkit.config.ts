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
 * pdf.js, page layout, the zoom, page 1's preview, the field geometry, ink trimming, typed scripts, the locales list).
 * Left out, with what they hit there (docs/decisions.md, "Three engines"): the flows that sign and submit (SigningViewer,
 * keyboard, signers, decline, SignedCopy, StepPanel) and the dialog's keyboard tests (SignatureDialog, focus-trap),
 * where the webdriverio provider's typing and Shift+Tab do not act as in the other engines; ImageUpload (the provider
 * cannot upload File objects); DrawPad (CDP input, Chromium only); DateInput, translate, viewer-locales and
 * handwriting-font (WebKit's own date field, number formats and font loading differ from what they expect);
 * PdfPages (its 300-page scroll outlasts the test's 30 s on Xvfb). The main flow runs in WebKit end to end instead:
 * e2e/webkit/signing.webkit.ts.
 */
const WEBKIT_FILES = [
  'bench/median-interval.test.ts',
  'src/Page/PreviewPage.test.tsx',
  'src/Page/ZoomControls.test.tsx',
  'src/Page/page-layout.test.ts',
  'src/Page/render-page.test.ts',
  'src/Page/render-queue.test.ts',
  'src/adopt-styles.test.ts',
  'src/fields/field-geometry.test.ts',
  'src/fields/text-limit.test.ts',
  'src/i18n/locales.test.ts',
  'src/pdf/load-pdf.test.ts',
  'src/react-version.test.ts',
  'src/signature/image-ink.test.ts',
  'src/signature/trim-ink.test.ts',
  'src/signature/typed-scripts.test.ts',
  'src/signed-copy/poll-schedule.test.ts',
];

const config = mergeConfig(
  viewer,
  defineConfig({
    cacheDir: 'node_modules/.vite-webkit',
    test: {
      name: '@signet/viewer (WebKit)',
      browser: { provider: webkit, headless: false },
    },
  }),
);
// mergeConfig concatenates arrays: the Chromium instance is replaced, not joined.
config.test!.browser!.instances = [{ browser: 'safari', viewport: { width: 1024, height: 800 } }];
config.test!.include = WEBKIT_FILES;

export default config;
