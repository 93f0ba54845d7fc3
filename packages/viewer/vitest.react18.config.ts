import { defineConfig, mergeConfig } from 'vitest/config';
import viewer from './vitest.config.js';

/**
 * The viewer's whole browser suite once more on React 18 (the peer range is ^18.2 || ^19): `react` and `react-dom`
 * resolve to the `react18` and `react-dom18` aliases installed for this run.
 */
export default mergeConfig(
  viewer,
  defineConfig({
    resolve: {
      alias: [
        { find: /^react$/, replacement: 'react18' },
        { find: /^react\/(.*)$/, replacement: 'react18/$1' },
        { find: /^react-dom$/, replacement: 'react-dom18' },
        { find: /^react-dom\/(.*)$/, replacement: 'react-dom18/$1' },
      ],
    },
    optimizeDeps: { include: ['react18', 'react18/jsx-runtime', 'react18/jsx-dev-runtime', 'react-dom18', 'react-dom18/client'] },
    // A cache of its own: the pre-bundled React differs from the default project's.
    cacheDir: 'node_modules/.vite-react18',
    test: {
      name: '@signet/viewer (React 18)',
      provide: { reactMajor: 18 },
    },
  }),
);
