import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, phase, repoRoot, startSignet } from './global-setup.js';
import { build, install, installFromRegistry, run, scaffold } from './host-apps.js';
import { DOCUMENTS, type HostsState } from './hosts-state.js';
import { startRegistry } from './registry.js';
import { serveStatic } from './static-server.js';

/**
 * The registry test (docs/releases.md): starts a local registry (verdaccio), publishes Signet to it with
 * `pnpm release`, installs `@signet/viewer` and `@signet/embed` by name from it into a Vite + React 19 host app
 * outside the workspace, builds that app and serves it beside a Signet server. With SIGNET_HOSTS_TARBALLS set (CI's
 * `packs` step), `pnpm release --packs` publishes those tarballs rather than packing again. Returns the teardown,
 * which stops everything it started and removes its folder; so does a setup that fails half way.
 */
export default async function registrySetup(): Promise<() => Promise<void>> {
  const root = mkdtempSync(join(tmpdir(), 'signet-registry-'));
  console.log(`[registry] registry and host app in ${root}`);
  const stops: Array<() => Promise<void> | void> = [() => rmSync(root, { recursive: true, force: true })];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    // The host app exists before Signet is published: its own dependencies install while the release runs, then
    // it adds Signet by name, as a project adopting Signet would.
    const app = scaffold('vite-react19', join(root, 'vite-react19'), {});
    const prepared = phase('npm install (the host app before Signet)', () => install(app));
    stops.push(() => prepared.then(() => undefined, () => undefined));
    // An address of the loopback range of this run's own (Linux answers on all of 127.0.0.0/8), so that npm's cache,
    // which keeps package documents by URL, holds none from an earlier run's registry: `npm install` may then
    // prefer its cache for everything else and still asks this registry what @signet/* is.
    const host = `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
    const registry = await phase('verdaccio', async () => startRegistry(join(root, 'registry'), host, await freePort(host)));
    stops.push(registry.stop);
    const packs = process.env.SIGNET_HOSTS_TARBALLS;
    const released = await phase('pnpm release', () =>
      run('pnpm', ['--silent', 'release', ...(packs ? ['--packs', packs] : [])], repoRoot, { npm_config_userconfig: registry.npmrc }),
    );
    console.log(released.trim().split('\n').filter((line) => /^[+=✓✗]|published/.test(line)).map((line) => `[registry] ${line}`).join('\n'));

    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const starting = startSignet([origin]);
    stops.push(async () => {
      (await starting.catch(() => undefined))?.child.kill('SIGTERM');
    });
    await prepared;
    await phase('npm install @signet/viewer @signet/embed', () => installFromRegistry(app, registry.url));
    await phase('vite build', () => build(app));
    const signet = await starting;
    const server: Server = await serveStatic(app.staticDir!, port);
    stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const { version } = JSON.parse(readFileSync(join(repoRoot, 'packages/viewer/package.json'), 'utf8')) as { version: string };
    const state: HostsState = {
      apiUrl: signet.url,
      pk: signet.pk,
      sk: signet.sk,
      documents: Object.fromEntries(DOCUMENTS.map((name, index) => [name, signet.documents[index]!])) as HostsState['documents'],
      // Only the Vite React 19 host is built here; the tests this run selects (@registry) use no other.
      hosts: { vite19: origin } as HostsState['hosts'],
      nextLog: '',
      registry: { url: registry.url, appDir: app.dir, version },
    };
    process.env.SIGNET_HOSTS_STATE = JSON.stringify(state);
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}
