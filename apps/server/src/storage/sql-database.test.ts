import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.js';
import { PostgresDatabase } from './postgres-database.js';
import type { SqlDatabase } from './sql-database.js';
import { SqliteDatabase } from './sqlite-database.js';
import { TEST_DATABASE_URL, storageEngines } from '../../test/storage/test-engines.js';

const engines = await storageEngines();

/** A database on `engine` with one table `t (id, n, data)`, in memory or in a schema of its own; `drop` ends it. */
async function openDatabase(engine: 'sqlite' | 'postgres'): Promise<{ db: SqlDatabase; drop(): Promise<void> }> {
  const schema = `t_${randomBytes(8).toString('hex')}`;
  const db = engine === 'sqlite' ? new SqliteDatabase(':memory:') : new PostgresDatabase(TEST_DATABASE_URL, { schema });
  await db.migration(async (tx) => {
    await tx.exec(`CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER NOT NULL, data ${db.ddl.bytes})`);
  });
  const drop = async () => {
    if (engine === 'postgres') await db.exec(`DROP SCHEMA ${schema} CASCADE`);
    await db.close();
  };
  return { db, drop };
}

describe.each(engines)('$name database', ({ name }) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    ({ db, drop } = await openDatabase(name));
  });
  afterEach(() => drop());

  it('takes `?` parameters, not a `?` inside a string, and a trailing FOR UPDATE', async () => {
    await db.run('INSERT INTO t (id, n) VALUES (?, ?)', ['a', 1]);
    expect(await db.get("SELECT id, '?' AS mark, n + ? AS sum FROM t WHERE id = ? FOR UPDATE", [2, 'a'])).toEqual({
      id: 'a',
      mark: '?',
      sum: 3,
    });
    expect(await db.get('SELECT id FROM t WHERE id = ?', ['b'])).toBeUndefined();
  });

  it('returns bytes as Uint8Array, an empty value included', async () => {
    const values = ['a', 1, new Uint8Array([1, 2]), 'b', 2, new Uint8Array()];
    await db.run('INSERT INTO t (id, n, data) VALUES (?, ?, ?), (?, ?, ?)', values);
    const rows = await db.all<{ data: Uint8Array }>('SELECT data FROM t ORDER BY id');
    expect(rows.map((row) => row.data instanceof Uint8Array && [...row.data])).toEqual([[1, 2], []]);
  });

  it('counts the rows a statement changed', async () => {
    await db.run('INSERT INTO t (id, n) VALUES (?, ?), (?, ?)', ['a', 1, 'b', 1]);
    expect(await db.run('UPDATE t SET n = ? WHERE n = ?', [2, 1])).toBe(2);
    expect(await db.run('DELETE FROM t WHERE id = ?', ['c'])).toBe(0);
  });

  it('rolls a transaction back when its work throws', async () => {
    const failed = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id, n) VALUES (?, ?)', ['a', 1]);
      throw new Error('no');
    });
    await expect(failed).rejects.toThrow('no');
    expect(await db.all('SELECT id FROM t')).toEqual([]);
  });

  it('never shows other statements what a transaction then rolls back', async () => {
    let outside: Promise<unknown> | undefined;
    const failed = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id, n) VALUES (?, ?)', ['a', 1]);
      outside = db.get('SELECT id FROM t WHERE id = ?', ['a']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('rolled back');
    });
    await expect(failed).rejects.toThrow('rolled back');
    expect(await outside).toBeUndefined();
  });

  it('group commit: each work commits or fails alone', async () => {
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'a', 'c'].map((id, n) =>
        db.groupCommit(async (tx) => {
          await tx.run('INSERT INTO t (id, n) VALUES (?, ?)', [id, n]);
          return id;
        }),
      ),
    );
    // The two works inserting 'a': one commits, the other fails alone. On PostgreSQL they run side by side on
    // separate connections, so which one wins is not fixed.
    const statuses = outcomes.map((outcome) => outcome.status);
    expect([statuses[1], statuses[3]]).toEqual(['fulfilled', 'fulfilled']);
    expect([statuses[0], statuses[2]].sort()).toEqual(['fulfilled', 'rejected']);
    const winner = statuses[0] === 'fulfilled' ? 0 : 2;
    const loser = outcomes[2 - winner] as PromiseRejectedResult;
    expect(db.isUniqueViolation(loser.reason)).toBe(true);
    expect(await db.all('SELECT id, n FROM t ORDER BY id')).toEqual([
      { id: 'a', n: winner },
      { id: 'b', n: 1 },
      { id: 'c', n: 3 },
    ]);
  });
});

describe('migrations', () => {
  it('are the files of migrations/, in the order of their versions', () => {
    const files = readdirSync(new URL('./migrations', import.meta.url)).sort();
    expect(files.map((file) => Number.parseInt(file, 10))).toEqual(MIGRATIONS.map((migration) => migration.version));
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
  });
});
