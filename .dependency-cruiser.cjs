// `pnpm check:deps`: the import rules of the repository (docs/decisions.md, "Dependency rules"), checked in CI
// (scripts/test-all.mjs). A cycle counts when every import in it loads a module at run time: one closed only by an
// `import type` (a migration naming the Migration type its runner exports) is erased from the JavaScript and cannot
// leave a module half-initialised; the other rules count type imports too.
const SERVER = '^apps/server/src/';
/** The server's domain folders, and the modules that put them together: what generic code must not know. */
const DOMAIN = `${SERVER}(sealing|submissions|documents|storage|webhooks|routes|http|middleware|rate-limit|cli|pdf-worker)/|${SERVER}(app|server|app-context|config)\\.ts$`;
/** Tests may reach across: a test of the pool runs Signet's real tasks. */
const TEST_FILE = '\\.test\\.tsx?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, in the product code and its tests alike.',
      from: { path: '^(apps/server/(src|test)|packages/[^/]+/src|apps/demo/(src|server))/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'storage-not-domain',
      severity: 'error',
      comment: 'The storage layer serves sealing and webhooks; it does not call back into them.',
      from: { path: `${SERVER}storage/`, pathNot: TEST_FILE },
      to: { path: `${SERVER}(sealing|webhooks)/` },
    },
    {
      name: 'pdf-generic',
      severity: 'error',
      comment: 'pdf/ (the pool, PDFium, inspection, previews) is generic: domains register tasks with it, never the reverse.',
      from: { path: `${SERVER}pdf/`, pathNot: TEST_FILE },
      to: { path: DOMAIN },
    },
    {
      name: 'src-not-test',
      severity: 'error',
      comment: 'Product code does not import test helpers (apps/server/test/); tests beside the code may.',
      from: { path: SERVER, pathNot: TEST_FILE },
      to: { path: '^apps/server/test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
