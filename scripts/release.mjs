#!/usr/bin/env node
// `pnpm release`: packs the published packages and checks the tarballs (scripts/check-packs.mjs), then publishes
// those very tarballs to the registry of the npm configuration (`npm config get registry`: ~/.npmrc, the project's
// .npmrc, or npm_config_registry), skipping any name@version the registry already has. How a release is made:
// docs/releases.md.
//   node scripts/release.mjs                  pack into a temporary folder, check, publish
//   node scripts/release.mjs --packs DIR      check and publish the tarballs already packed in DIR (check-packs --out)
//   node scripts/release.mjs --dry-run        everything but the upload (npm publish --dry-run)
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';

const execFileAsync = promisify(execFile);

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({ options: { packs: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } });

const packed = values.packs ? resolve(values.packs) : undefined;
const dir = packed ?? mkdtempSync(join(tmpdir(), 'signet-release-'));

try {
  // The same checks CI runs: a tarball that fails one is never published.
  const check = spawnSync(process.execPath, [join(root, 'scripts/check-packs.mjs'), packed ? '--check' : '--out', dir], {
    cwd: root,
    stdio: 'inherit',
  });
  if (check.status !== 0) throw new Error('the pack checks failed: nothing was published');

  const registry = execFileSync('npm', ['config', 'get', 'registry'], { cwd: root, encoding: 'utf8' }).trim();
  const tarballs = readdirSync(dir).filter((name) => name.endsWith('.tgz')).map((name) => join(dir, name));
  const manifests = tarballs.map((tarball) => ({ tarball, ...manifestOf(tarball) }));

  const already = await Promise.all(manifests.map(({ name, version }) => isPublished(name, version)));
  const due = manifests.filter((_, index) => !already[index]);
  for (const { name, version } of manifests.filter((_, index) => already[index])) console.log(`= ${name}@${version} is already on ${registry}`);
  // Side by side: a registry takes a package whose dependencies it does not have yet, and nothing installs from it
  // in the seconds between. One that fails leaves the others published; running the release again publishes it.
  const outcomes = await Promise.allSettled(
    due.map(async ({ tarball, name, version }) => {
      // A prerelease goes out under the `next` tag, so that `npm install NAME` keeps finding the last stable version.
      const tag = version.includes('-') ? 'next' : 'latest';
      const args = ['publish', tarball, '--access', 'public', '--tag', tag, '--loglevel=warn', ...(values['dry-run'] ? ['--dry-run'] : [])];
      await execFileAsync('npm', args, { cwd: root, encoding: 'utf8' }).catch((error) => {
        throw new Error(`npm publish ${name}@${version} failed:\n${error.stdout}${error.stderr}`);
      });
      console.log(`+ ${name}@${version} ${values['dry-run'] ? 'would be published' : 'published'} to ${registry} (${tag})`);
    }),
  );
  const failures = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => outcome.reason.message);
  const published = due.length - failures.length;
  if (failures.length) throw new Error(`${failures.join('\n')}\n${published} published, ${failures.length} failed`);
  console.log(`${published} published, ${manifests.length - published} already there`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  if (!packed) rmSync(dir, { recursive: true, force: true });
}

/** A tarball's name and version, from its own package.json. */
function manifestOf(tarball) {
  const pkg = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
  return { name: pkg.name, version: pkg.version };
}

/** Whether the registry already has `name@version` (a package it has never seen answers E404). */
async function isPublished(name, version) {
  try {
    const { stdout } = await execFileAsync('npm', ['view', `${name}@${version}`, 'version', '--json'], { cwd: root, encoding: 'utf8' });
    return stdout.trim() !== '';
  } catch (error) {
    if (/E404/.test(`${error.stdout}${error.stderr}`)) return false;
    throw new Error(`npm view ${name}@${version} failed: ${error.stderr}`);
  }
}
