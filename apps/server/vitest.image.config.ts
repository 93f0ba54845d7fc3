import { defineConfig } from 'vitest/config';

/**
 * The container image's check (`pnpm test:image`, test/image/image.check.ts): builds the image with podman and runs
 * it. Not part of `pnpm test`: docs/releases.md says when it runs.
 */
export default defineConfig({
  test: {
    include: ['test/image/*.check.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    // The closing `N passed, N failed` line that `pnpm test`'s table adds up (scripts/test-all.mjs).
    reporters: ['default', '../../scripts/summary-reporter.mjs'],
  },
});
