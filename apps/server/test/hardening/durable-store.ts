import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../storage/test-engines.js';

/** What a store's tables say about submissions, read straight from the database. */
export interface SubmissionAudit {
  submissions: number;
  /** Documents with more than one submission. */
  duplicated: string[];
  /** Documents whose status is not `completed` exactly when they have a submission. */
  inconsistent: string[];
}

/** A fresh, empty store for a server process: `DATABASE_URL` to give it, an audit, and its removal. */
export interface DurableStore {
  engine: 'sqlite' | 'postgres';
  databaseUrl: string;
  audit(): Promise<SubmissionAudit>;
  remove(): Promise<void>;
}

const DUPLICATED = 'SELECT document_id FROM submissions GROUP BY document_id HAVING COUNT(*) > 1';
const INCONSISTENT = `SELECT d.id FROM documents d LEFT JOIN submissions s ON s.document_id = d.id
  WHERE (d.status = 'completed') <> (s.id IS NOT NULL)`;
const COUNT = 'SELECT COUNT(*) AS n FROM submissions';

function sqliteStore(): DurableStore {
  const dir = mkdtempSync(join(tmpdir(), 'signet-durability-'));
  const path = join(dir, 'signet.db');
  return {
    engine: 'sqlite',
    databaseUrl: `file:${path}`,
    async audit() {
      const db = new Database(path);
      try {
        const ids = (sql: string) => (db.prepare(sql).all() as Array<Record<string, string>>).map((row) => Object.values(row)[0]!);
        const count = db.prepare(COUNT).get() as { n: number };
        return { submissions: Number(count.n), duplicated: ids(DUPLICATED), inconsistent: ids(INCONSISTENT) };
      } finally {
        db.close();
      }
    },
    async remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The rows of `sql`, on a connection of its own to `connectionString`. */
async function pgRows<T extends pg.QueryResultRow>(connectionString: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A new schema in the test database; the server (and the audit) find its tables there through `search_path`. */
async function postgresStore(): Promise<DurableStore> {
  const schema = `durability_${randomBytes(6).toString('hex')}`;
  await pgRows(TEST_DATABASE_URL, `CREATE SCHEMA ${schema}`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const databaseUrl = url.toString();
  const ids = async (sql: string) => (await pgRows<Record<string, string>>(databaseUrl, sql)).map((row) => Object.values(row)[0]!);
  return {
    engine: 'postgres',
    databaseUrl,
    async audit() {
      const [count] = await pgRows<{ n: string }>(databaseUrl, COUNT);
      return { submissions: Number(count!.n), duplicated: await ids(DUPLICATED), inconsistent: await ids(INCONSISTENT) };
    },
    async remove() {
      await pgRows(TEST_DATABASE_URL, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

/**
 * A fresh store of `engine`: SQLite in a new temporary directory, PostgreSQL in a new schema of the test database.
 * @example const store = await freshStore('postgres'); try { … } finally { await store.remove(); }
 */
export function freshStore(engine: 'sqlite' | 'postgres'): Promise<DurableStore> {
  return engine === 'sqlite' ? Promise.resolve(sqliteStore()) : postgresStore();
}
