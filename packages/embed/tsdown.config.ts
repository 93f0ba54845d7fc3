import { defineConfig } from 'tsdown';
import { libraryDefaults } from '../../tsdown.shared.js';

// The package's ESM build (`import { mount } from '@signet/embed'`). The script-tag build in dist/script/ is Vite's
// (vite.config.ts) and runs after this one, which empties dist/ first.
export default defineConfig(libraryDefaults);
