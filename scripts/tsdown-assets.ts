import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Rolldown } from 'tsdown';

const NEW_URL = /new URL\(\s*(['"])([^'"./][^'"]*)\1\s*,\s*import\.meta\.url\s*\)/g;

/** Where `specifier` (a package's file, `pkg/path/to/file`) lies, found as Node finds packages: up the node_modules. */
function resolvePackageFile(specifier: string, importer: string): string {
  for (let dir = dirname(importer); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', specifier);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`${importer}: cannot find ${specifier} for new URL(…, import.meta.url)`);
  }
}

/**
 * Copies the files that sources point at with `new URL('<package>/<file>', import.meta.url)` (pdf.js's worker,
 * Caveat's woff2 files) into `dist/<assetsDir>/` and rewrites each URL to a relative one from the built module.
 * A bare specifier in `new URL` is a bundler convention (Vite resolves it), not a URL: in dist it would resolve
 * next to the module. A relative URL resolves by the URL rules everywhere: in Vite, webpack 5, Next.js and Rollup,
 * which copy the file, and on a page that loads dist/ as it is (no bundler, a CDN).
 * Needs `unbundle` (dist mirrors `root`), so that a module's place in dist is known when it is transformed.
 */
export function packageAssets({ root = 'src', assetsDir = 'assets' } = {}): Rolldown.Plugin {
  const emitted = new Set<string>();
  return {
    name: 'signet:package-assets',
    transform(code, id) {
      if (!code.includes('import.meta.url')) return null;
      const fromDir = dirname(relative(join(process.cwd(), root), id));
      let changed = false;
      const out = code.replace(NEW_URL, (_match, quote: string, specifier: string) => {
        const file = resolvePackageFile(specifier, id);
        const fileName = `${assetsDir}/${basename(file)}`;
        if (!emitted.has(fileName)) {
          emitted.add(fileName);
          this.emitFile({ type: 'asset', fileName, source: readFileSync(file) });
        }
        let url = relative(fromDir, fileName).split(sep).join('/');
        if (!url.startsWith('.')) url = `./${url}`;
        changed = true;
        return `new URL(${quote}${url}${quote}, import.meta.url)`;
      });
      // The rewrite stays on its line, so the module's mappings hold (columns after it shift by a few characters).
      return changed ? { code: out, map: null } : null;
    },
  };
}
