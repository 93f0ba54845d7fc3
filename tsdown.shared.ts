import type { UserConfig } from 'tsdown';

/**
 * What every published Signet package builds the same way: ESM for browsers and Node (`platform: 'neutral'`),
 * declarations and source maps, one output file per source module (`unbundle`), so that `sideEffects` can name
 * files and a host's bundler drops what it does not import. Dependencies and peers stay imports (tsdown's default).
 */
export const libraryDefaults = {
  entry: ['src/index.ts'],
  platform: 'neutral',
  target: 'es2022',
  format: 'esm',
  dts: true,
  sourcemap: true,
  unbundle: true,
  clean: true,
} satisfies UserConfig;
