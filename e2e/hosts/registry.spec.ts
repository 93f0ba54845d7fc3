import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostsState } from './hosts-state.js';

/** What registry-setup.ts published with `pnpm release`, and what the host app installed by name from it. */

const PACKAGES = ['@signet/contract', '@signet/api', '@signet/viewer', '@signet/embed'];

function registry(): { url: string; appDir: string; version: string } {
  return hostsState().registry!;
}

test('the registry serves the four packages, each depending on the others at the released version', { tag: '@registry' }, async ({ request }) => {
  const { url, version } = registry();
  const scratch = mkdtempSync(join(tmpdir(), 'signet-published-'));
  try {
    for (const name of PACKAGES) {
      const packument = await request.get(`${url}${name.replace('/', '%2f')}`);
      expect(packument.status(), name).toBe(200);
      const { versions, 'dist-tags': tags } = (await packument.json()) as {
        versions: Record<string, { dist: { tarball: string } }>;
        'dist-tags': Record<string, string>;
      };
      expect(Object.keys(versions), name).toEqual([version]);
      expect(tags.latest, name).toBe(version);
      // The published tarball's own package.json, as a host's npm unpacks it.
      const tarball = await request.get(versions[version]!.dist.tarball);
      expect(tarball.status(), name).toBe(200);
      const file = join(scratch, `${name.replace('/', '-')}.tgz`);
      writeFileSync(file, await tarball.body());
      const manifest = JSON.parse(execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' })) as Record<string, unknown>;
      expect(manifest.name).toBe(name);
      expect(manifest.private, name).toBeUndefined();
      expect(JSON.stringify(manifest), name).not.toContain('workspace:');
      for (const field of ['dependencies', 'peerDependencies'] as const) {
        for (const [dep, range] of Object.entries((manifest[field] ?? {}) as Record<string, string>)) {
          if (dep.startsWith('@signet/')) expect(`${name} ${field}.${dep}: ${range}`).toBe(`${name} ${field}.${dep}: ${version}`);
        }
      }
    }
    // What `pnpm pack` turned `workspace:*` into: the viewer and the embed name their Signet dependencies.
    const viewer = JSON.parse(execFileSync('tar', ['-xzOf', join(scratch, '@signet-viewer.tgz'), 'package/package.json'], { encoding: 'utf8' })) as {
      dependencies: Record<string, string>;
    };
    expect(viewer.dependencies).toMatchObject({ '@signet/api': version, '@signet/contract': version });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('the registry refuses names outside @signet: it proxies nothing', { tag: '@registry' }, async ({ request }) => {
  expect((await request.get(`${registry().url}react`)).status()).toBe(404);
});

test('the host app installed @signet/viewer and @signet/embed by name, all four packages from the registry', { tag: '@registry' }, async () => {
  const { url, appDir, version } = registry();
  const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // `npm install NAME` saved the names with a range of the version it found, not a file or a URL.
  expect(manifest.dependencies).toMatchObject({ '@signet/viewer': `^${version}`, '@signet/embed': `^${version}` });
  const lock = JSON.parse(readFileSync(join(appDir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string; resolved: string }>;
  };
  for (const name of PACKAGES) {
    const entry = lock.packages[`node_modules/${name}`];
    expect(entry?.version, name).toBe(version);
    expect(entry?.resolved, name).toBe(`${url}${name}/-/${name.split('/')[1]}-${version}.tgz`);
  }
  // Everything else came from npm's usual registry (the local one has nothing else to give).
  const others = Object.entries(lock.packages).filter(([path]) => path !== '' && !path.startsWith('node_modules/@signet/'));
  expect(others.length).toBeGreaterThan(50);
  expect(others.filter(([, entry]) => entry.resolved?.startsWith(url))).toEqual([]);
  expect(lock.packages['node_modules/react']?.version).toMatch(/^19\./);
});
