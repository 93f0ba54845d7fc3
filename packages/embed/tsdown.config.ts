import { defineConfig } from 'tsdown';
import { libraryDefaults } from '../../tsdown.shared.js';

// The package's ESM build (`import { mount } from '@signet/embed'`, `import { mountBuilder } from
// '@signet/embed/builder'`). The script-tag builds in dist/script/ are Vite's (vite.config.ts) and run after this
// one, which empties dist/ first.
export default defineConfig({ ...libraryDefaults, entry: ['src/index.ts', 'src/builder.ts'] });
