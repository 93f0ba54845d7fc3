import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // A minute, as the server's tests (docs/decisions.md, "Continuous integration").
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
