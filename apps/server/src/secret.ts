import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config } from './config.js';
import { databaseLocation } from './storage/index.js';

/**
 * The HMAC key of document tokens: `SIGNET_SECRET`, or, on the embedded store, one generated at first start and
 * kept beside the database (`signet.secret`, mode 600) so tokens survive restarts. PostgreSQL deployments run
 * several instances that must agree, so there it must be given.
 */
export async function resolveSecret(config: Config): Promise<string> {
  if (config.secret) return config.secret;
  const location = databaseLocation(config.databaseUrl);
  if (location.engine === 'postgres') {
    throw new Error('SIGNET_SECRET is required with PostgreSQL (every instance must share it)');
  }
  if (location.path === ':memory:') return randomBytes(32).toString('base64url');
  const dir = dirname(location.path);
  const file = join(dir, 'signet.secret');
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (await readFile(file, 'utf8')).trim();
}
