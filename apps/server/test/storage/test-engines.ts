import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStorage } from '../../src/storage/index.js';
import type { Storage } from '../../src/storage/types.js';

/** The PostgreSQL the tests use: `SIGNET_TEST_DATABASE_URL`, or the local one of a development machine. */
export const TEST_DATABASE_URL = process.env.SIGNET_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** One storage engine under test. */
export interface StorageEngine {
  name: 'sqlite' | 'postgres';
  /**
   * A fresh, empty, migrated storage of its own: SQLite in a new temporary file, PostgreSQL in a new schema
   * `t_<random>`. Its `close()` also deletes the file or drops the schema; always call it (e.g. in `afterEach`).
   */
  open(): Promise<Storage>;
}

const sqliteEngine: StorageEngine = {
  name: 'sqlite',
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'signet-test-'));
    const storage = await openStorage(`file:${join(dir, 'signet.db')}`);
    return withCleanup(storage, async () => rmSync(dir, { recursive: true, force: true }));
  },
};

const postgresEngine: StorageEngine = {
  name: 'postgres',
  async open() {
    const schema = `t_${randomBytes(8).toString('hex')}`;
    const storage = await openStorage(TEST_DATABASE_URL, { pgSchema: schema });
    return withCleanup(storage, async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    });
  },
};

/** `storage` whose first `close()` runs `cleanup` after closing it. */
function withCleanup(storage: Storage, cleanup: () => Promise<void>): Storage {
  const close = storage.close.bind(storage);
  let closing: Promise<void> | undefined;
  storage.close = () => (closing ??= close().then(cleanup));
  return storage;
}

let postgresReachable: Promise<boolean> | undefined;

/** Whether PostgreSQL answers within 2 s; asked once per process, and the skip said once. */
function probePostgres(): Promise<boolean> {
  postgresReachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      const url = TEST_DATABASE_URL.replace(/:[^:/@]*@/, ':***@');
      console.warn(`PostgreSQL at ${url} is unreachable: skipping the PostgreSQL storage tests (they run in CI)`);
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return postgresReachable;
}

/**
 * The storage engines to run a suite against: SQLite always; PostgreSQL (`TEST_DATABASE_URL`) when reachable —
 * and always when `CI` is set, so that an unreachable server fails the tests there instead of skipping them.
 * @example
 * const engines = await storageEngines();
 * describe.each(engines)('$name storage', (engine) => {
 *   let storage: Storage;
 *   beforeEach(async () => { storage = await engine.open(); });
 *   afterEach(() => storage.close());
 *   it('…', async () => { … });
 * });
 */
export async function storageEngines(): Promise<StorageEngine[]> {
  const withPostgres = Boolean(process.env.CI) || (await probePostgres());
  return withPostgres ? [sqliteEngine, postgresEngine] : [sqliteEngine];
}
