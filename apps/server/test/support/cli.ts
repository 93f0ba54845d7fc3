import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStorage } from '../../src/storage/index.js';
import { ensureOrganization } from '../../src/storage/queries/organizations.js';

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

/** A store of its own for a command line test, with the organization `acme` and the files the commands read. */
export interface CliStore {
  dir: string;
  /** The store's `DATABASE_URL`, for a test that reads what the commands wrote. */
  databaseUrl: string;
  /** Runs `signet` in `dir` on this store. */
  signet(...args: string[]): Promise<CommandResult>;
  close(): Promise<void>;
}

/**
 * A fresh folder with an embedded store holding the organization `acme`, and `files` written into it (bytes, or a
 * value written as JSON): what a command line test runs its commands against.
 * @example const store = await cliStore('signet-cli-templates-', { 'roles.json': ROLES }); await store.signet('templates', 'list', '--org', 'acme');
 */
export async function cliStore(prefix: string, files: Record<string, Uint8Array | string | object>): Promise<CliStore> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const databaseUrl = `file:${join(dir, 'cli.db')}`;
  const storage = await openStorage(databaseUrl);
  await ensureOrganization(storage.db.query, 'acme', 'Acme');
  await storage.close();
  for (const [name, content] of Object.entries(files)) {
    await writeFile(join(dir, name), content instanceof Uint8Array || typeof content === 'string' ? content : JSON.stringify(content));
  }
  return {
    dir,
    databaseUrl,
    signet: (...args) => runSignet(args, { env: { DATABASE_URL: databaseUrl, SIGNET_SECRET: 's'.repeat(40) }, cwd: dir }),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
