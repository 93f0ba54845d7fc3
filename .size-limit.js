// `pnpm size`: the gzipped JavaScript a host page downloads for Signet's viewer, bundled by esbuild
// (minified, ESM, production React paths) and compressed with gzip -9. Fails when a budget is exceeded.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const fromViewer = createRequire(new URL('./packages/viewer/package.json', import.meta.url));
/** pdf.js's own main module as its authors ship it (its worker is a file of its own, fetched apart). */
const pdfjsMain = fromViewer.resolve('pdfjs-dist/build/pdf.min.mjs');

/** What a browser build sees: ESM, production React, the worker and font left as URLs (`new URL(…, import.meta.url)`). */
const browser = (config) => ({
  ...config,
  format: 'esm',
  platform: 'browser',
  define: { 'process.env.NODE_ENV': '"production"' },
});

/**
 * Keeps in esbuild's answer only the files a page downloads before the viewer can render: the entry chunk and the
 * chunks it imports statically. What the viewer loads with `import()` (a language other than English, the signature
 * dialog) is split off and not counted, as a browser does not fetch it until it is needed.
 */
const startupChunksOnly = {
  name: 'signet-startup-chunks-only',
  setup(build) {
    // esbuild marks each `import()` target as an entry point too: the build's own entry is the one it was given.
    const entryPoints = [build.initialOptions.entryPoints ?? []].flat().map((entry) => resolve(entry.in ?? entry));
    build.onEnd((result) => {
      const outputs = result.metafile?.outputs;
      if (!outputs) return;
      const isEntry = (file) => outputs[file].entryPoint && entryPoints.includes(resolve(outputs[file].entryPoint));
      // Iterating a Set visits what is added meanwhile: the static imports of static imports too.
      const keep = new Set(Object.keys(outputs).filter(isEntry));
      for (const file of keep) {
        for (const imported of outputs[file].imports) {
          if (imported.kind === 'import-statement' && !imported.external) keep.add(imported.path);
        }
      }
      for (const file of Object.keys(outputs)) if (!keep.has(file)) delete outputs[file];
    });
  },
};

/** The browser build split into chunks at `import()`, of which the startup chunks are measured. */
const browserStartup = (config) => ({
  ...browser(config),
  splitting: true,
  plugins: [...(config.plugins ?? []), startupChunksOnly],
});
/** A host that already has React owns these copies. */
const REACT = ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'];
/** The viewer's peer dependencies: the host installs them, and shares them with its own code. */
const PEERS = [...REACT, '@tanstack/react-query'];

const checks = [
  {
    name: 'pdf.js main module (reference: pdfjs-dist/build/pdf.min.mjs)',
    path: pdfjsMain,
    gzip: true,
  },
  {
    // The budget (docs/decisions.md, "Lighter viewer"): at most pdf.js's own main module + 40 KB (peers external, pdf.js worker apart):
    // 133.27 kB (the reference above, pdfjs-dist 6.5) + 40.96 kB. Revisit it with the reference when pdf.js changes.
    // +0.3 kB for the SDK client's answer checks and error codes of signer verification (docs/signer-auth.md); the
    // code prompt, its texts and styles are a chunk of their own, and the signed copy moved to one: 174.16 kB measured.
    name: '@signet/viewer, peers (React, TanStack Query) external, without the pdf.js worker',
    path: 'packages/viewer/src/index.ts',
    import: { 'packages/viewer/src/index.ts': '{ SigningViewer }' },
    ignore: PEERS,
    gzip: true,
    modifyEsbuildConfig: browserStartup,
    limit: '174.3 kB',
  },
  {
    // For a host without TanStack Query of its own: the same plus its copy (~10 KB). Held near what it measures (+0.3 kB as above: 184.53 kB measured).
    name: '@signet/viewer, React external, TanStack Query inside, without the pdf.js worker',
    path: 'packages/viewer/src/index.ts',
    import: { 'packages/viewer/src/index.ts': '{ SigningViewer }' },
    ignore: REACT,
    gzip: true,
    modifyEsbuildConfig: browserStartup,
    limit: '184.8 kB',
  },
  {
    // The builder's own entry (docs/decisions.md, "The builder"): what an authoring page downloads. Held near what it
    // measures; the signing viewer's checks above do not include it. +2.3 kB for several fields, copy and paste
    // (docs/decisions.md, "Builder: several fields, copy and paste, touch").
    name: '@signet/viewer/builder, peers (React, TanStack Query) external, without the pdf.js worker',
    path: 'packages/viewer/src/builder/index.ts',
    import: { 'packages/viewer/src/builder/index.ts': '{ SigningBuilder }' },
    ignore: PEERS,
    gzip: true,
    modifyEsbuildConfig: browserStartup,
    // +1.4 kB for the English texts of the property editors and signers section, and their wiring (docs/decisions.md,
    // "Builder: field properties and signers"); the editors themselves are chunks loaded when shown. Both additions
    // together measured 173.78 kB. +0.6 kB for page 1's preview image, on which fields can be placed before pdf.js is
    // ready, and +0.2 kB for the long press and the font size's texts (docs/decisions.md, "Builder: page 1's
    // preview", "Builder: font size"): 174.7 kB measured. +0.3 kB when the selection's actions moved into a hook
    // (`useSelectionActions`, whose options and result are named properties a minifier keeps): 174.97 kB measured.
    // +0.3 kB for the contract's statuses, error codes and answer checks of voiding, expiry and erasure
    // (docs/lifecycle.md): 175.35 kB measured. +0.2 kB for drags drawn in their frame and the draft asked for while
    // rendering (docs/decisions.md, "Builder: drags on the compositor…") and the viewer's words for an ended
    // document, which the builder's shared modules carry: 175.55 kB measured. Templates (docs/templates.md) and a
    // client of the builder's own endpoints (`createBuilderClient`: the checks of the SDK's, the drafts' and the
    // templates' answers, none of the management endpoints'): 173.42 kB measured. +0.4 kB for the signers' `auth` and
    // the drafts' `delivery` in the answer checks it shares with the viewer (docs/signer-auth.md, docs/email.md):
    // 173.86 kB measured.
    limit: '174 kB',
  },
];

// The script-tag build of @signet/embed (its own runtime inside), once it has been built.
const embedScript = new URL('./packages/embed/dist/script/embed.js', import.meta.url);
if (existsSync(embedScript)) {
  checks.push({
    name: 'embed.js (script tag, its own React-compatible runtime inside, without the pdf.js worker)',
    path: 'packages/embed/dist/script/embed.js',
    gzip: true,
    modifyEsbuildConfig: browser,
    // The budget (docs/decisions.md, "Lighter viewer"): 230 KB, React's API inside. The script build runs the viewer on Preact's React
    // compatibility layer (packages/embed/vite.config.ts): ~190 kB, of which pdf.js 133 kB.
    limit: '230 kB',
  });
}

// The builder's script-tag build (`vite build --mode builder`): its own script, so embed.js above does not carry it.
const builderScript = new URL('./packages/embed/dist/script/builder.js', import.meta.url);
if (existsSync(builderScript)) {
  checks.push({
    name: 'builder.js (script tag, the builder with its own React-compatible runtime, without the pdf.js worker)',
    path: 'packages/embed/dist/script/builder.js',
    gzip: true,
    modifyEsbuildConfig: browser,
    // docs/decisions.md, "<signet-builder>": ~196 kB measured, of which pdf.js 133 kB. The property editors, the signers
    // section and the selection's actions took it to 212.3 kB: size-limit counts the chunks the script loads when they
    // are shown (the editors, the signers section) with it. 215 kB leaves the next steps little room on purpose.
    // +0.3 kB for the signers' `auth` and the drafts' `delivery` (as the builder above): 215.3 kB measured.
    limit: '215.5 kB',
  });
}

export default checks;
