import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, HOST_ENV, install, run, scaffold, type HostApp } from './host-apps.js';
import { cspFor, DOCUMENTS, type HostsState } from './hosts-state.js';
import { serveStatic } from './static-server.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = ['@signet/contract', '@signet/api', '@signet/viewer', '@signet/embed'];

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Times each phase, for the log of a run (cold and warm npm caches differ most in `install`). */
export async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`[hosts] ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * Packs the published packages with `pnpm pack` (their prepack builds dist/; @signet/embed's also builds the
 * script the server serves at /embed.js) into `dir`, and returns each package's tarball. With SIGNET_HOSTS_TARBALLS
 * set to a folder of tarballs already packed (by `pnpm check:packs --out`), uses those.
 */
async function pack(dir: string): Promise<Record<string, string>> {
  const packed = process.env.SIGNET_HOSTS_TARBALLS;
  if (!packed) await run('pnpm', [...PACKAGES.flatMap((name) => ['--filter', name]), 'pack', '--pack-destination', dir], repoRoot);
  const from = packed ?? dir;
  const files = readdirSync(from);
  return Object.fromEntries(
    PACKAGES.map((name) => {
      const file = files.find((candidate) => candidate.startsWith(`${name.replace('@', '').replace('/', '-')}-`) && candidate.endsWith('.tgz'));
      if (!file) throw new Error(`no tarball of ${name} in ${from}`);
      return [name, join(from, file)];
    }),
  );
}

/** The Signet server (signet-server.ts) in a child process; resolves with what it printed once ready. */
export function startSignet(origins: string[]): Promise<{ child: ChildProcess; url: string; pk: string; sk: string; documents: string[] }> {
  const tsx = createRequire(join(repoRoot, 'package.json')).resolve('tsx');
  const child = spawn(process.execPath, ['--import', tsx, fileURLToPath(new URL('./signet-server.ts', import.meta.url)), ...origins], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', SIGNET_HOSTS_DOCUMENTS: String(DOCUMENTS.length) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      if (stdout.includes('\n')) resolve({ child, ...JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) });
    });
    child.on('exit', (code) => reject(new Error(`the Signet server exited ${code}: ${stderr}`)));
  });
}

/** `next start` on `port`, its output in `logFile`; resolves once it answers. */
async function startNext(app: HostApp, port: number, logFile: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: app.dir,
    env: { ...process.env, ...HOST_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile);
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}: ${readFileSync(logFile, 'utf8')}`);
    const answered = await fetch(`http://127.0.0.1:${port}/favicon.ico`).then(() => true, () => false);
    if (answered) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Packs Signet, installs it with npm into scratch host apps outside the workspace, builds them, and serves them
 * beside one Signet server; the tests find everything in SIGNET_HOSTS_STATE. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const root = mkdtempSync(join(tmpdir(), 'signet-hosts-'));
  console.log(`[hosts] scratch apps in ${root}`);
  const packs = join(root, 'packs');
  mkdirSync(packs);
  const tarballs = await phase('pnpm pack (builds dist/)', () => pack(packs));
  const { '@signet/embed': _embed, ...forReact } = tarballs;
  const apps = (['vite-react19', 'vite-react18', 'next'] as const).map((name) => scaffold(name, join(root, name), forReact));

  const ports = { vite19: await freePort(), vite18: await freePort(), html: await freePort(), csp: await freePort(), next: await freePort() };
  const origins = Object.values(ports).map((port) => `http://127.0.0.1:${port}`);
  const starting = startSignet(origins);
  const [signet] = await Promise.all([
    starting,
    phase('npm install + build (apps in parallel)', () =>
      Promise.all(apps.map(async (app) => {
        await phase(`${app.name}: npm install`, () => install(app));
        await phase(`${app.name}: build`, () => build(app));
      })),
    ).catch(async (error: unknown) => {
      // The run ends here: the server must not outlive it.
      (await starting.catch(() => undefined))?.child.kill('SIGTERM');
      throw error;
    }),
  ]);

  const [vite19, vite18, next] = apps as [HostApp, HostApp, HostApp];
  const htmlDir = join(root, 'plain-html');
  mkdirSync(htmlDir);
  const template = fileURLToPath(new URL('./apps/plain-html/', import.meta.url));
  writeFileSync(join(htmlDir, 'index.html'), readFileSync(join(template, 'index.html'), 'utf8').replaceAll('%SIGNET_URL%', signet.url));
  writeFileSync(join(htmlDir, 'host.js'), readFileSync(join(template, 'host.js')));

  const servers: Server[] = await Promise.all([
    serveStatic(vite19.staticDir!, ports.vite19),
    serveStatic(vite18.staticDir!, ports.vite18),
    serveStatic(htmlDir, ports.html),
    serveStatic(vite19.staticDir!, ports.csp, { 'Content-Security-Policy': cspFor(signet.url) }),
  ]);
  const nextLog = join(root, 'next.log');
  const nextServer = await phase('next start', () => startNext(next, ports.next, nextLog));

  const state: HostsState = {
    apiUrl: signet.url,
    pk: signet.pk,
    sk: signet.sk,
    documents: Object.fromEntries(DOCUMENTS.map((name, index) => [name, signet.documents[index]!])) as HostsState['documents'],
    hosts: { vite19: origins[0]!, vite18: origins[1]!, html: origins[2]!, csp: origins[3]!, next: origins[4]! },
    nextLog,
  };
  process.env.SIGNET_HOSTS_STATE = JSON.stringify(state);

  return async () => {
    nextServer.kill('SIGTERM');
    signet.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    rmSync(root, { recursive: true, force: true });
  };
}
