import { defineConfig } from '@playwright/test';
import hosts from './playwright.config.js';

/**
 * The registry test (docs/releases.md): registry-setup.ts publishes Signet to a local registry with `pnpm release`
 * and installs it from there by name into a Vite host app; registry.spec.ts checks what was published and installed,
 * and the host tests tagged @registry (hosts.spec.ts) sign in that app.
 */
export default defineConfig({
  ...hosts,
  testMatch: ['registry.spec.ts', 'hosts.spec.ts'],
  grep: /@registry/,
  outputDir: '../test-results/registry',
  globalSetup: './registry-setup.ts',
});
