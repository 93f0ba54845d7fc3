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

/** Writes `embed.sri.json`: the version and the Subresource Integrity hash of `embed.js`, for the server and the README. */
function subresourceIntegrity(): Plugin {
  return {
    name: 'signet-embed-sri',
    apply: 'build',
    closeBundle() {
      const script = readFileSync(join(outDir, 'embed.js'));
      const integrity = `sha384-${createHash('sha384').update(script).digest('base64')}`;
      writeFileSync(join(outDir, 'embed.sri.json'), `${JSON.stringify({ version, file: 'embed.js', integrity }, null, 2)}\n`);
    },
  };
}

/**
 * The script-tag build: `dist/script/embed.js`, one ES module with React, the viewer and pdf.js's main module, and
 * beside it (flat, under their own names, so that `worker-src`/`font-base` can point at a copy) pdf.js's worker and
 * Caveat's font files. `base: './'` makes the bundle find them relative to `import.meta.url`.
 */
export default defineConfig({
  plugins: [react(), subresourceIntegrity()],
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
    emptyOutDir: true,
    target: 'es2022',
    // Fonts as data: URLs would need `font-src data:` in the host's CSP.
    assetsInlineLimit: 0,
    modulePreload: false,
    sourcemap: true,
    copyPublicDir: false,
    rollupOptions: {
      input: 'src/script.ts',
      preserveEntrySignatures: 'exports-only',
      output: {
        format: 'es',
        entryFileNames: 'embed.js',
        assetFileNames: '[name][extname]',
        codeSplitting: false,
      },
    },
  },
});
