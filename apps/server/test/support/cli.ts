import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built command line (`dist/`, built once per test run by test/support/build-once.ts). */
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** What a `signet` command printed, and how it exited. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `signet` command line to its end, with plain node as an operator does, in `cwd` (default the
 * server's folder) with `env` over this process's environment.
 * @example const { code, stdout } = await runSignet(['jobs', 'list', '--json'], { env: { DATABASE_URL } });
 */
export function runSignet(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { cwd: options.cwd ?? SERVER_DIR, env: { ...process.env, ...options.env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}
