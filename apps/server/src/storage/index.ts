import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresDatabase } from './postgres-database.js';
import { SqliteDatabase } from './sqlite-database.js';
import { SqlStorage } from './sql-storage.js';
import type { Storage } from './types.js';
import { findDocument } from './queries/documents.js';

export type * from './types.js';

export interface OpenStorageOptions {
  /** Directory of the embedded database when `databaseUrl` is unset (default `./.signet`). */
  dataDir?: string;
  /** PostgreSQL schema holding the tables, created when absent (default: the connection's `search_path`). */
  pgSchema?: string;
}

/**
 * Opens the storage `databaseUrl` names and brings its schema up to date (docs/api.md, "Storage and configuration"):
 * unset → embedded SQLite at `<dataDir>/signet.db`; `file:<path>` → SQLite there (`file::memory:` or `:memory:`
 * for a throwaway in-memory database); `postgres://…` or `postgresql://…` → PostgreSQL.
 * @example
 * const storage = await openStorage(process.env.DATABASE_URL);
 * try { await findDocument(storage.db.query, id) } finally { await storage.close() }
 */
export async function openStorage(databaseUrl: string | undefined, options: OpenStorageOptions = {}): Promise<Storage> {
  const storage = createStorage(databaseUrl, options);
  try {
    await storage.migrate();
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

/**
 * Which database `databaseUrl` names: the embedded one's file (`':memory:'` for a throwaway one), or PostgreSQL.
 * Throws for anything else.
 * @example databaseLocation(undefined) // { engine: 'sqlite', path: '.signet/signet.db' }
 */
export function databaseLocation(
  databaseUrl: string | undefined,
  dataDir = './.signet',
): { engine: 'sqlite'; path: string } | { engine: 'postgres' } {
  if (databaseUrl === undefined || databaseUrl === '') return { engine: 'sqlite', path: join(dataDir, 'signet.db') };
  if (databaseUrl === ':memory:' || databaseUrl === 'file::memory:') return { engine: 'sqlite', path: ':memory:' };
  if (databaseUrl.startsWith('file://')) return { engine: 'sqlite', path: fileURLToPath(databaseUrl) };
  if (databaseUrl.startsWith('file:')) {
    const path = databaseUrl.slice('file:'.length);
    if (path === '') throw new Error('DATABASE_URL "file:" needs a path, such as file:./data/signet.db');
    return { engine: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return { engine: 'postgres' };
  throw new Error(
    `Unsupported DATABASE_URL "${redact(databaseUrl)}": use file:<path> for SQLite or postgres://… for PostgreSQL`,
  );
}

function createStorage(databaseUrl: string | undefined, options: OpenStorageOptions): Storage {
  const location = databaseLocation(databaseUrl, options.dataDir);
  if (location.engine === 'postgres') {
    return new SqlStorage(new PostgresDatabase(databaseUrl!, { schema: options.pgSchema }));
  }
  // The embedded database's directory is created on first start.
  if (location.path !== ':memory:') mkdirSync(dirname(location.path), { recursive: true });
  return new SqlStorage(new SqliteDatabase(location.path));
}

/** A URL fit for an error message: no password. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}
