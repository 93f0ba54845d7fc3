import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { signetCommands } from './src/test-support/commands.js';

/** Debian's Chromium (Playwright cannot download its own here), with the flags this machine's closed network needs. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  plugins: [react()],
  optimizeDeps: { include: ['react', 'react-dom', 'react-dom/client', '@tanstack/react-query', 'pdfjs-dist', 'signature_pad', 'axe-core'] },
  test: {
    include: ['src/**/*.test.tsx', 'src/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['./src/test-support/global-setup.ts'],
    // The first test of a file also waits for Vite to transform the viewer, pdf.js and the server commands: past 30 s
    // on a 2-core CI machine running the e2e stage beside it.
    testTimeout: 60_000,
    // The React major the suite runs on (vitest.react18.config.ts runs it on 18).
    // `SIGNET_UPDATE_SCREENSHOTS=1` lets the tests that take the docs' pictures write them into docs/screenshots;
    // otherwise they go to test-results/ (tests write no tracked file: docs/decisions.md, "Continuous integration").
    provide: { reactMajor: 19, updateScreenshots: process.env.SIGNET_UPDATE_SCREENSHOTS === '1' },
    hookTimeout: 60_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } }),
      instances: [{ browser: 'chromium', viewport: { width: 1024, height: 800 } }],
      commands: signetCommands,
    },
  },
});
