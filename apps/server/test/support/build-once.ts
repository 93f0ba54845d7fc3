import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/*
 * The server's Vitest global setup: builds `dist/` once per run (tsdown, about a second), so that the processes the
 * tests start run built JavaScript with plain node, as a deployment does: the PDF workers every test file's pool
 * forks (about 0.1 s to ready, against 0.55–0.75 s through tsx), the `signet` commands of the CLI tests, and the
 * built server's own test (docs/decisions.md, "The server runs built"). The tests themselves still import the source.
 */
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const TSDOWN = fileURLToPath(new URL('../../../../node_modules/.bin/tsdown', import.meta.url));

export default function setup(): void {
  execFileSync(TSDOWN, ['--logLevel', 'warn'], { cwd: SERVER_DIR, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
  // Inherited by the test processes Vitest forks next, and by theirs.
  process.env.SIGNET_PDF_WORKER_ENTRY = fileURLToPath(new URL('../../dist/pdf-worker/entry.js', import.meta.url));
}
