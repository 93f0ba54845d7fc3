import { defineConfig } from 'vitest/config';

// One run over every package; each package's own vitest.config.ts (if any) applies to its files.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    reporters: ['default', './scripts/summary-reporter.mjs'],
  },
});
