import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Tests of one module sit beside it; tests of the server as a whole (fuzzing, hostile inputs, durability) in test/.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A minute: CI runs these beside the browser suites on two cores, where a test that takes 3 s alone has taken
    // over 20 (docs/decisions.md, "Continuous integration"). A test that hangs still fails.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Files share one PostgreSQL and Redis; each uses its own schema and key prefix, so files may run in parallel.
    pool: 'forks',
    // dist/ built once, for the processes tests start (test/support/build-once.ts).
    globalSetup: ['test/support/build-once.ts'],
  },
});
