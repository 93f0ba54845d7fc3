import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'tsdown';

/** The API reference page's browser bundle, served by `routes/reference.ts` from beside it (it ships in dist/). */
const scalarMain = createRequire(import.meta.url).resolve('@scalar/api-reference');
const SCALAR_STANDALONE = join(dirname(scalarMain), 'browser', 'standalone.js');

/**
 * The server built to run with plain node (docs/decisions.md, "The server runs built"): the `signet` command line,
 * `pnpm start:api`'s entry and the PDF worker's, one output file per source module, so that `dist/` mirrors `src/`
 * (the pool finds `dist/pdf-worker/entry.js` beside `dist/pdf-worker/index.js`, and the embed script's folder is as
 * far from `dist/routes/` as from `src/routes/`). Dependencies stay imports, resolved from this package's
 * node_modules; `@signet/contract` is bundled in, since its workspace export is TypeScript source.
 */
export default defineConfig({
  entry: ['src/cli/main.ts', 'src/cli/start.ts', 'src/pdf-worker/entry.ts'],
  root: 'src',
  platform: 'node',
  target: 'node20',
  format: 'esm',
  fixedExtension: false,
  unbundle: true,
  sourcemap: true,
  clean: true,
  deps: { alwaysBundle: ['@signet/contract'] },
  copy: (config) => [{ from: SCALAR_STANDALONE, to: join(config.outDir, 'routes'), rename: 'scalar-standalone.js' }],
});
