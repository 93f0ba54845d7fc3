import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/*
 * The server's Vitest global setup: builds `dist/` once per run (tsdown, about a second), so that the processes the
 * tests start run built JavaScript with plain node, as a deployment does: the `signet` commands of the CLI tests,
 * the servers and workers of the process tests (and their PDF workers), and the built server's own test
 * (docs/decisions.md, "The server runs built"). The tests themselves, and the pools they make, run the source.
 */
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const TSDOWN = fileURLToPath(new URL('../../../../node_modules/.bin/tsdown', import.meta.url));

export default function setup(): void {
  execFileSync(TSDOWN, ['--logLevel', 'warn'], { cwd: SERVER_DIR, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
}
