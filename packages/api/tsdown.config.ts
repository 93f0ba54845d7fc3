import { defineConfig } from 'tsdown';
import { libraryDefaults } from '../../tsdown.shared.js';

// `@signet/api/webhooks` is an entry of its own: it parses events with zod, which the browser client leaves out.
export default defineConfig({ ...libraryDefaults, entry: [...libraryDefaults.entry, 'src/webhooks.ts'] });
