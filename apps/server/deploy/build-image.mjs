// Builds Signet's server image with podman on a machine with no image registry (docs/operations.md, "Container
// image"):
//
//   pnpm image                         localhost/signet:<version> and localhost/signet:latest
//   pnpm image --rebuild-base          the Debian base made again first
//   SIGNET_IMAGE_USE_BUILT=1 pnpm image  the embed script as already built (CI: its packing step built it)
//
// 1. The base, localhost/signet-base:bookworm: Debian's C and C++ runtime libraries, time zones and an /etc/passwd
//    with the user `signet` (uid 10001), unpacked from Debian's packages by mmdebstrap (about 18 MB). Made once.
// 2. The server built (tsdown) into the staging folder, the embed script built (its /embed.js), and the server's
//    production dependencies deployed by pnpm, all outside the image, staged with this machine's `node` binary
//    beside the Containerfile.
// 3. `podman build` of that folder: it only copies (no RUN), so nothing is downloaded while it builds.
//
// podman, mmdebstrap and runc come from Debian (installed when missing, as the tests install their tools).
// containers.conf beside this file is used unless CONTAINERS_CONF says otherwise: see its comments.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEPLOY = fileURLToPath(new URL('.', import.meta.url));
const SERVER = join(DEPLOY, '..');
const ROOT = join(SERVER, '..', '..');
export const BASE_IMAGE = 'localhost/signet-base:bookworm';
const version = JSON.parse(readFileSync(join(SERVER, 'package.json'), 'utf8')).version;
export const IMAGE = `localhost/signet:${version}`;

/** This folder's containers.conf unless the caller chose one: the settings this machine's kernel needs. */
export const podmanEnv = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(DEPLOY, 'containers.conf') };

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: podmanEnv, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** podman, mmdebstrap and runc from Debian, when missing. */
export function ensureTools() {
  const missing = [['podman', 'podman'], ['mmdebstrap', 'mmdebstrap'], ['runc', 'runc']].filter(([command]) => !has(command)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  console.log(`Installing Debian's ${missing.join(' ')}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-q', ...missing], { env });
}

const imageExists = (name) => spawnSync('podman', ['image', 'exists', name], { env: podmanEnv }).status === 0;

/** The base: Debian packages unpacked (no maintainer scripts run), docs and translations left out, a user added. */
function buildBase(work) {
  const tarball = join(work, 'base.tar');
  const users = 'root:x:0:0:root:/root:/usr/sbin/nologin\\nsignet:x:10001:10001:Signet:/data:/usr/sbin/nologin\\n';
  run('mmdebstrap', [
    '--variant=extract',
    '--include=base-files,libc6,libstdc++6,libgcc-s1,netbase,tzdata',
    '--dpkgopt=path-exclude=/usr/share/doc/*',
    '--dpkgopt=path-exclude=/usr/share/man/*',
    '--dpkgopt=path-exclude=/usr/share/locale/*',
    `--customize-hook=printf '${users}' > "$1/etc/passwd"; printf 'root:x:0:\\nsignet:x:10001:\\n' > "$1/etc/group"; mkdir -p "$1/tmp" && chmod 1777 "$1/tmp"`,
    'bookworm',
    tarball,
  ]);
  run('podman', ['import', '--change', 'CMD ["/usr/local/bin/node"]', tarball, BASE_IMAGE]);
}

/**
 * The build context: Containerfile, node, app/ (server and embed script as the repository lays them out), data/.
 * The server is built into the context itself, never over apps/server/dist, which tests running beside may be
 * using; the embed script is built first unless `useBuilt` (CI, whose packing step built it).
 */
function stage(work, { useBuilt }) {
  const embedScript = join(ROOT, 'packages', 'embed', 'dist', 'script');
  if (!useBuilt) run('pnpm', ['--filter', '@signet/embed', 'build'], { cwd: ROOT });
  if (!existsSync(join(embedScript, 'embed.js'))) throw new Error(`${embedScript}/embed.js is missing: pnpm --filter @signet/embed build`);
  const deployed = join(work, 'deployed');
  run('pnpm', ['--filter', '@signet/server', 'deploy', '--prod', '--legacy', deployed], { cwd: ROOT });
  const context = join(work, 'context');
  const server = join(context, 'app', 'apps', 'server');
  mkdirSync(server, { recursive: true });
  run(join(ROOT, 'node_modules', '.bin', 'tsdown'), ['--out-dir', join(server, 'dist'), '--logLevel', 'warn'], { cwd: SERVER });
  cpSync(join(deployed, 'package.json'), join(server, 'package.json'));
  renameSync(join(deployed, 'node_modules'), join(server, 'node_modules'));
  // Source maps stay (stack traces name the source); the server's TypeScript, tests and benchmarks do not ship.
  cpSync(embedScript, join(context, 'app', 'packages', 'embed', 'dist', 'script'), { recursive: true });
  cpSync(process.execPath, join(context, 'node'));
  mkdirSync(join(context, 'data'));
  writeFileSync(join(context, 'data', '.keep'), '');
  cpSync(join(DEPLOY, 'Containerfile'), join(context, 'Containerfile'));
  return context;
}

/** Builds the image (the base first when missing or asked); resolves with its name and size in bytes. */
export function buildImage({ rebuildBase = false, useBuilt = process.env.SIGNET_IMAGE_USE_BUILT === '1' } = {}) {
  ensureTools();
  const work = mkdtempSync(join(tmpdir(), 'signet-image-'));
  try {
    if (rebuildBase || !imageExists(BASE_IMAGE)) buildBase(work);
    const context = stage(work, { useBuilt });
    // The Docker format keeps HEALTHCHECK (OCI images have no such field).
    run('podman', ['build', '--format', 'docker', '--tag', IMAGE, '--tag', 'localhost/signet:latest', context]);
    const size = Number(execFileSync('podman', ['image', 'inspect', '--format', '{{.Size}}', IMAGE], { env: podmanEnv, encoding: 'utf8' }).trim());
    return { image: IMAGE, size };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { image, size } = buildImage({ rebuildBase: process.argv.includes('--rebuild-base') });
  console.log(`\nBuilt ${image} (also localhost/signet:latest): ${(size / 1e6).toFixed(0)} MB`);
  console.log(`Run it: podman run --rm -p 3000:3000 -v signet-data:/data ${image}`);
}
