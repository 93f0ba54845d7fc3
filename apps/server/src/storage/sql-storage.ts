import { migrate } from './migrations.js';
import type { SqlDatabase } from './sql-database.js';
import type { Storage } from './types.js';

/**
 * Signet's storage, one implementation for both engines (`SqliteDatabase`, `PostgresDatabase`): the opened database
 * and its schema. Its queries are the modules of `queries/`, called with `db.query` or a transaction's.
 * @example
 * const storage = new SqlStorage(new SqliteDatabase(':memory:'));
 * await storage.migrate();
 */
export class SqlStorage implements Storage {
  readonly engine: 'sqlite' | 'postgres';
  readonly db: SqlDatabase;

  constructor(db: SqlDatabase) {
    this.db = db;
    this.engine = db.engine;
  }

  migrate(): Promise<void> {
    return migrate(this.db);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
