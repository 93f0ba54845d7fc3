import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEMPLATES = fileURLToPath(new URL('./apps/', import.meta.url));

/** The hosts' own dependencies, pinned, so that a run tomorrow installs what a run today did. */
const REACT_19 = { react: '19.3.1', 'react-dom': '19.3.1' };
const REACT_18 = { react: '18.3.1', 'react-dom': '18.3.1' };
const REACT_QUERY = { '@tanstack/react-query': '5.108.0' };
const VITE = { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0' };
const NEXT = { next: '16.4.6' };

/** A scratch host app: where it is and how it is served once built. */
export interface HostApp {
  name: 'vite-react19' | 'vite-react18' | 'next';
  dir: string;
  /** `dist/` of a Vite build (served as static files), or null for Next.js (served by `next start`). */
  staticDir: string | null;
}

/** Runs `command` in `cwd`; rejects with its output when it fails. */
export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} in ${cwd} exited ${code}:\n${output}`)),
    );
  });
}

/** Environment of every host command: no telemetry, and npm's default cache (~/.npm), which persists across runs. */
export const HOST_ENV = { NEXT_TELEMETRY_DISABLED: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false' };

/**
 * Writes the host app `name` into `dir` (outside the workspace) from its template, with Signet's tarballs as
 * `file:` dependencies: npm resolves `@signet/viewer`'s own `@signet/api@0.1.0` to the tarball beside it, never
 * to the workspace or a registry.
 */
export function scaffold(name: HostApp['name'], dir: string, tarballs: Record<string, string>): HostApp {
  const signet = Object.fromEntries(Object.entries(tarballs).map(([pkg, file]) => [pkg, `file:${file}`]));
  const isNext = name === 'next';
  cpSync(join(TEMPLATES, isNext ? 'next-app' : 'vite-react'), dir, { recursive: true });
  const dependencies = isNext
    ? { ...REACT_19, ...REACT_QUERY, ...NEXT, ...signet }
    : { ...(name === 'vite-react18' ? REACT_18 : REACT_19), ...REACT_QUERY, ...signet };
  const scripts = isNext ? { build: 'next build' } : { build: 'vite build' };
  const manifest = { name: `signet-host-${name}`, private: true, type: 'module', scripts, dependencies, devDependencies: isNext ? {} : VITE };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { name, dir, staticDir: isNext ? null : join(dir, 'dist') };
}

/** `npm install` from the registry and the tarballs (offline where npm's cache already has a package). */
export async function install(app: HostApp): Promise<void> {
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app.dir, HOST_ENV);
}

/**
 * `npm install @signet/viewer @signet/embed` by name, the `@signet` scope from `registry` and every other package
 * from npm's usual one, as a host whose Signet comes from a private registry installs it. `registry` must be an
 * address no earlier run used (npm's cache would answer for it: registry-setup.ts). The lockfile keeps each
 * package's `resolved` URL, so that the test can see where it came from.
 */
export async function installFromRegistry(app: HostApp, registry: string): Promise<void> {
  const args = ['install', '@signet/viewer', '@signet/embed', `--@signet:registry=${registry}`, '--no-omit-lockfile-registry-resolved'];
  await run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app.dir, HOST_ENV);
}

/**
 * Builds the app. The Vite apps also get `public/custom/` before: copies of the viewer's pdf.js worker and Caveat
 * files, taken from `@signet/viewer/assets/*`, for the page that overrides their URLs.
 */
export async function build(app: HostApp): Promise<void> {
  if (app.staticDir) {
    const assets = join(app.dir, 'node_modules/@signet/viewer/dist/assets');
    const custom = join(app.dir, 'public/custom');
    mkdirSync(join(custom, 'fonts'), { recursive: true });
    cpSync(join(assets, 'pdf.worker.min.mjs'), join(custom, 'pdf.worker.min.mjs'));
    for (const subset of ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext']) {
      const file = `caveat-${subset}-400-normal.woff2`;
      cpSync(join(assets, file), join(custom, 'fonts', file));
    }
  }
  await run('npm', ['run', 'build'], app.dir, HOST_ENV);
}
