import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = 'dist/script';
/** A Preact entry's ES module file, resolved from this package (the viewer's sources import `react`, not `preact`). */
const preact = (specifier: string) => fileURLToPath(import.meta.resolve(specifier));
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Writes `<name>.sri.json` (`embed.sri.json`, `builder.sri.json`): the version and the Subresource Integrity hash of
 * `<name>.js`, for the server and the README.
 */
function subresourceIntegrity(name: string): Plugin {
  return {
    name: 'signet-embed-sri',
    apply: 'build',
    closeBundle() {
      const file = `${name}.js`;
      const script = readFileSync(join(outDir, file));
      const integrity = `sha384-${createHash('sha384').update(script).digest('base64')}`;
      writeFileSync(join(outDir, `${name}.sri.json`), `${JSON.stringify({ version, file, integrity }, null, 2)}\n`);
    },
  };
}

/**
 * The script-tag builds, one ES module each: `vite build` makes `dist/script/embed.js` (the signing viewer) and
 * empties the folder first; `vite build --mode builder` adds `builder.js` (the builder, its own script so that
 * `embed.js` does not carry it) beside it, sharing the worker. The signing build: one ES module with React, the
 * viewer and pdf.js's main module, and beside it (flat, under their own names, so that `worker-src`/`font-base` can
 * point at a copy) pdf.js's worker and Caveat's font files. `base: './'` makes the bundle find them relative to `import.meta.url`.
 */
export default defineConfig(({ mode }) => {
  const name = mode === 'builder' ? 'builder' : 'embed';
  return {
    plugins: [react(), subresourceIntegrity(name)],
    base: './',
    resolve: {
      // The script tag brings its own runtime: Preact's React compatibility layer is ~50 KB gzipped lighter than
      // React DOM. The npm packages keep React (the host's copy); docs/decisions.md, "Lighter viewer", says why.
      alias: [
        { find: /^react$/, replacement: preact('preact/compat') },
        { find: /^react-dom$/, replacement: preact('preact/compat') },
        { find: /^react-dom\/client$/, replacement: preact('preact/compat/client') },
        { find: /^react\/jsx-runtime$/, replacement: preact('preact/jsx-runtime') },
        { find: /^react\/jsx-dev-runtime$/, replacement: preact('preact/jsx-dev-runtime') },
      ],
    },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: name === 'embed',
      target: 'es2022',
      // Fonts as data: URLs would need `font-src data:` in the host's CSP.
      assetsInlineLimit: 0,
      modulePreload: false,
      sourcemap: true,
      copyPublicDir: false,
      rollupOptions: {
        input: name === 'builder' ? 'src/builder-script.ts' : 'src/script.ts',
        preserveEntrySignatures: 'exports-only',
        output: {
          format: 'es',
          entryFileNames: `${name}.js`,
          assetFileNames: '[name][extname]',
          codeSplitting: false,
        },
      },
    },
  };
});
