/**
 * The command that serves the product as `pnpm start` runs it (built demo page, API on the embedded store), from
 * `e2e/`. `pnpm test` builds the demo page once for every suite that serves it and says so with SIGNET_DEMO_BUILT;
 * a suite run alone builds it first.
 */
export const demoServerCommand = `${process.env.SIGNET_DEMO_BUILT ? '' : 'pnpm --filter @signet/demo build && '}tsx ../apps/demo/server/start.ts`;
