import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = 'dist/script';
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
