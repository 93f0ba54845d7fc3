import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config } from './config.js';

/** Where the embedded database lives for a `DATABASE_URL` (unset or `file:`), or null for other engines. */
export function embeddedDatabaseDir(databaseUrl: string | undefined): string | null {
  if (!databaseUrl) return '.signet';
  if (!databaseUrl.startsWith('file:')) return null;
  const path = databaseUrl.slice('file:'.length);
  return path === '' || path.includes(':memory:') ? null : dirname(path);
}

/**
 * The HMAC key of document tokens: `SIGNET_SECRET`, or, on the embedded store, one generated at first start and
 * kept beside the database (`signet.secret`, mode 600) so tokens survive restarts. PostgreSQL deployments run
 * several instances that must agree, so there it must be given.
 */
export async function resolveSecret(config: Config): Promise<string> {
  if (config.secret) return config.secret;
  if (config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new Error('SIGNET_SECRET is required with PostgreSQL (every instance must share it)');
  }
  const dir = embeddedDatabaseDir(config.databaseUrl);
  if (!dir) return randomBytes(32).toString('base64url');
  const file = join(dir, 'signet.secret');
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (await readFile(file, 'utf8')).trim();
}
