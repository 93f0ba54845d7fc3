import { defineConfig } from 'vitest/config';

// One run over every package; each package's own vitest.config.ts (if any) applies to its files.
export default defineConfig({
  test: {
    // The viewer's suite runs twice: on React 19 (its own config) and on React 18.
    projects: ['packages/*', 'apps/*', 'packages/viewer/vitest.react18.config.ts'],
    reporters: ['default', './scripts/summary-reporter.mjs'],
  },
});
