/** What the `signet` commands share: their error, their storage, their input files and their output. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { openStorage } from '../storage/index.js';
import type { Storage } from '../storage/types.js';

/** A failure the command explains in one line (no stack). */
export class CliError extends Error {}

export async function withStorage<T>(work: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await openStorage(loadConfig().databaseUrl);
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}

/**
 * A path given on the command line, resolved from the caller's directory. `pnpm signet` runs this command from the
 * repository root (so that the default store is the one `pnpm start` uses); pnpm says in `INIT_CWD` where it was
 * called from.
 */
export function callerPath(path: string): string {
  const viaPnpm = process.env.npm_lifecycle_event === 'signet' && process.env.INIT_CWD;
  return resolve(viaPnpm ? process.env.INIT_CWD! : process.cwd(), path);
}

/** A file named by an option, from the caller's directory; a failure says which option and why, in one line. */
export async function readInput(option: string, path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(callerPath(path)));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
    throw new CliError(`cannot read ${option} ${path}: ${why}`);
  }
}

export const print = (value: unknown): void => {
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
};

