import { defineConfig } from 'tsdown';
import { libraryDefaults } from '../../tsdown.shared.js';
import { packageAssets } from '../../scripts/tsdown-assets.js';

/**
 * pdf.js's worker and Caveat's woff2 files are copied to dist/assets/ and loaded from there by relative URLs
 * (scripts/tsdown-assets.ts); Caveat's licence (SIL OFL 1.1) travels with its files.
 */
export default defineConfig({
  ...libraryDefaults,
  // The builder is an entry of its own (`@signet/viewer/builder`): a signing page never downloads it.
  entry: ['src/index.ts', 'src/builder/index.ts'],
  plugins: [packageAssets()],
  copy: [{ from: 'node_modules/@fontsource/caveat/LICENSE', to: 'dist/assets', rename: 'caveat-LICENSE.txt' }],
});
