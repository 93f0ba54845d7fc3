#!/usr/bin/env node
// Packs every published (not private) workspace package with `pnpm pack`, whose prepack builds dist/, and checks
// each tarball as a registry and a host would see it. Usage:
//   node scripts/check-packs.mjs [--out DIR]     pack into DIR (default: a temporary folder), then check
//   node scripts/check-packs.mjs --check DIR     check the *.tgz already in DIR
// Exits 1 when a tarball fails; the last line is `N passed, N failed` (one per tarball).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

/** Files a tarball must not carry: tests, benches, test support, fixtures, snapshots, TypeScript sources. */
const FORBIDDEN = [
  [/\.(test|spec|bench)\.[cm]?[jt]sx?(\.map)?$/, 'a test or bench file'],
  [/(^|\/)(test-support|fixtures?|__fixtures__|__tests__|__screenshots__|bench|\.vitest-attachments)\//, 'test support'],
  [/(^|\/)test-[^/]*$/, 'test support (test-*)'],
  [/(?<!\.d)\.(ts|tsx|mts|cts)$/, 'a TypeScript source (only .d.ts belongs in a tarball)'],
];
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
const BUILTINS = new Set((await import('node:module')).builtinModules);
// What a bare import of a package looks like (a minified bundle also holds strings such as `import "${url}"`).
const PACKAGE_SPECIFIER = /^(@[\w.-]+\/)?[\w.-]+(\/[\w./-]*)?$/;

/** The workspace's packages that are meant for a registry (`pnpm -r pack` would pack the private ones too). */
export function publishedPackages(cwd = process.cwd()) {
  const all = JSON.parse(execFileSync('pnpm', ['ls', '-r', '--depth', '-1', '--json'], { cwd, encoding: 'utf8' }));
  return all.filter((pkg) => !pkg.private).map((pkg) => pkg.name);
}

/** Packs the workspace's published packages into `outDir` and returns the tarballs' paths. */
export function packWorkspace(outDir, cwd = process.cwd()) {
  const filters = publishedPackages(cwd).flatMap((name) => ['--filter', name]);
  execFileSync('pnpm', [...filters, 'pack', '--pack-destination', outDir], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  return tarballsIn(outDir);
}

function tarballsIn(dir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.tgz'))
    .sort()
    .map((name) => join(dir, name));
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Every string target of an exports map (conditions flattened). */
function exportTargets(exports, key = '.') {
  if (typeof exports === 'string') return [[key, exports]];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.entries(exports).flatMap(([k, v]) => exportTargets(v, k.startsWith('.') ? k : key));
}

/** The specifiers a built module imports (static, dynamic and `export … from`) and the URLs it builds from itself. */
function moduleReferences(code) {
  const imports = [...code.matchAll(/(?:^|[\s;}])(?:import|export)\s*(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]/gm)]
    .concat([...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)])
    .map((m) => m[1]);
  const urls = [...code.matchAll(/new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g)].map((m) => m[1]);
  return { imports, urls };
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Checks one tarball: its manifest is one a registry accepts and a host resolves (no `private`, no `workspace:`
 * ranges, exports with `types` and `import`, every export target inside), it carries no tests or test support,
 * nothing in it imports `@signet/server`, every relative import and `new URL(…, import.meta.url)` finds its file,
 * every package it imports is a dependency or peer, and publint finds no error.
 * @returns {{ name: string, problems: string[], packedBytes: number, unpackedBytes: number, files: number }}
 */
export async function checkTarball(tarball) {
  const dir = mkdtempSync(join(tmpdir(), 'signet-pack-'));
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  const root = join(dir, 'package');
  const files = walk(root).map((file) => relative(root, file).split('\\').join('/'));
  const fileSet = new Set(files);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const problems = [];

  if (pkg.private) problems.push('package.json: "private" is set (a registry refuses it)');
  for (const field of ['name', 'version', 'license', 'repository', 'files', 'exports']) {
    if (pkg[field] === undefined) problems.push(`package.json: no "${field}"`);
  }
  if (pkg.sideEffects === undefined) problems.push('package.json: no "sideEffects"');
  for (const field of DEPENDENCY_FIELDS) {
    for (const [dep, range] of Object.entries(pkg[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`package.json: ${field}.${dep} is "${range}"`);
    }
  }
  const main = pkg.exports?.['.'];
  if (!main || typeof main !== 'object' || !main.types || !main.import) {
    problems.push('package.json: exports["."] needs "types" and "import" conditions');
  }
  for (const [key, target] of exportTargets(pkg.exports)) {
    const path = posix.normalize(target);
    if (path.includes('*')) {
      const pattern = new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('\\*', '.+').replace('*', '.+')}$`);
      if (!files.some((file) => pattern.test(file))) problems.push(`exports["${key}"]: nothing matches ${target}`);
    } else if (!fileSet.has(path)) {
      problems.push(`exports["${key}"]: ${target} is not in the tarball`);
    }
  }

  for (const file of files) {
    for (const [pattern, what] of FORBIDDEN) if (pattern.test(file)) problems.push(`${file}: ${what}`);
  }

  const declared = new Set(
    ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((f) => Object.keys(pkg[f] ?? {})),
  );
  for (const file of files.filter((f) => /\.(m?js|d\.ts)$/.test(f))) {
    const code = readFileSync(join(root, file), 'utf8');
    if (code.includes('@signet/server')) problems.push(`${file}: mentions @signet/server`);
    const { imports, urls } = moduleReferences(code);
    for (const specifier of imports) {
      if (specifier.startsWith('.')) {
        const target = posix.join(posix.dirname(file), specifier);
        if (!fileSet.has(target)) problems.push(`${file}: imports ${specifier}, which is not in the tarball`);
      } else if (PACKAGE_SPECIFIER.test(specifier) && !specifier.startsWith('node:') && !BUILTINS.has(specifier)) {
        const name = packageName(specifier);
        if (name !== pkg.name && !declared.has(name)) {
          problems.push(`${file}: imports ${specifier}, which is neither a dependency nor a peer`);
        }
      }
    }
    for (const url of urls) {
      const target = posix.join(posix.dirname(file), url);
      if (!url.startsWith('.')) problems.push(`${file}: new URL("${url}", import.meta.url) is not a relative URL`);
      else if (!fileSet.has(target)) problems.push(`${file}: new URL("${url}", import.meta.url) finds no file`);
    }
  }

  // The README prints the script tag with its Subresource Integrity hash: it must be this build's.
  if (fileSet.has('dist/script/embed.sri.json')) {
    const { version, integrity } = JSON.parse(readFileSync(join(root, 'dist/script/embed.sri.json'), 'utf8'));
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const tag = `src="https://sign.example.com/embed/${version}/embed.js"\n  integrity="${integrity}"`;
    if (!readme.includes(tag)) problems.push(`README.md: the script tag should read ${tag}`);
  }

  const { messages } = await publint({ pkgDir: root, pack: false, level: 'warning' });
  for (const message of messages) problems.push(`publint ${message.type}: ${formatMessage(message, pkg) ?? message.code}`);

  const unpackedBytes = files.reduce((sum, file) => sum + statSync(join(root, file)).size, 0);
  rmSync(dir, { recursive: true, force: true });
  return { name: pkg.name, problems, packedBytes: statSync(tarball).size, unpackedBytes, files: files.length };
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, check: { type: 'string' } } });
  const cwd = resolve(dirname(new URL(import.meta.url).pathname), '..');
  const tarballs = values.check
    ? tarballsIn(resolve(values.check))
    : packWorkspace(resolve(values.out ?? mkdtempSync(join(tmpdir(), 'signet-packs-'))), cwd);
  if (tarballs.length === 0) throw new Error('no tarballs to check');
  let failed = 0;
  for (const tarball of tarballs) {
    const result = await checkTarball(tarball);
    const size = `${(result.packedBytes / 1024).toFixed(1)} KiB packed, ${(result.unpackedBytes / 1024).toFixed(1)} KiB unpacked, ${result.files} files`;
    console.log(`${result.problems.length ? '✗' : '✓'} ${result.name}: ${size}  (${tarball})`);
    for (const problem of result.problems) console.log(`    ${problem}`);
    if (result.problems.length) failed += 1;
  }
  console.log(`${tarballs.length - failed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname) await main();
