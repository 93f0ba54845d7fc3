import { defineConfig } from '@playwright/test';

/**
 * The host-app tests: global-setup.ts packs Signet, installs the tarballs with npm into scratch apps
 * outside the workspace, builds and serves them beside one Signet server; hosts.spec.ts signs in each.
 */
export default defineConfig({
  testDir: '.',
  testMatch: 'hosts.spec.ts',
  outputDir: '../test-results/hosts',
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium: Playwright cannot download its own browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
