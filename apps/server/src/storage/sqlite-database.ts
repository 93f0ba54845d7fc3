import Database from 'libsql';
import type { DdlDialect, Queryable, SqlDatabase } from './sql-database.js';
import { typedQueries, type Db } from './typed-queries.js';

const SQLITE_DDL: DdlDialect = {
  bigint: 'INTEGER',
  bytes: 'BLOB',
  bytewiseText: 'TEXT',
  storeUncompressed: () => '',
};

const TRAILING_FOR_UPDATE = /\s+FOR\s+UPDATE(\s+OF\s+"?\w+"?(\s*,\s*"?\w+"?)*)?(\s+SKIP\s+LOCKED)?\s*$/i;

interface Prepared {
  statement: Database.Statement;
  /** The names of a reading statement's columns; undefined for one that reads nothing. */
  columns: string[] | undefined;
}

interface GroupedWork {
  work(tx: Queryable): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * An embedded SQLite database (libSQL): one file, WAL, every commit synced to disk (`synchronous = FULL`).
 *
 * libSQL's API is synchronous. A transaction runs its statements synchronously too, but between them it awaits its
 * work: statements from outside it wait until it ends, so that they neither join it nor see what it has not
 * committed yet. BEGIN IMMEDIATE and busy_timeout serialize it with other processes on the same file.
 * libsql 0.5 takes a lone Buffer argument for named parameters and panics: every statement is bound with ONE array
 * of values.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly engine = 'sqlite' as const;
  readonly ddl = SQLITE_DDL;
  readonly #db: Database.Database;
  /** Prepared once per query text: the texts are a fixed set of constants. */
  readonly #statements = new Map<string, Prepared>();
  /** Settles when the transaction in progress ends. */
  #transactionEnd: Promise<void> | undefined;
  #group: GroupedWork[] = [];
  #closing: Promise<void> | undefined;

  /** Typed queries outside a transaction: each waits until the transaction in progress has ended. */
  readonly query: Db = typedQueries('sqlite', async (sql, params) => {
    while (this.#transactionEnd) await this.#transactionEnd;
    return this.#statement(sql, params);
  });

  /** The statements of the transaction in progress: they do not wait for it. */
  readonly #tx: Queryable = {
    query: typedQueries('sqlite', async (sql, params) => this.#statement(sql, params)),
    all: async <Row>(sql: string, params: readonly unknown[] = []) => this.#all<Row>(sql, params),
    get: async <Row>(sql: string, params: readonly unknown[] = []) => this.#get<Row>(sql, params),
    run: async (sql: string, params: readonly unknown[] = []) => this.#run(sql, params),
    exec: async (sql: string) => void this.#db.exec(sql),
  };

  /** Opens (creating when absent) the database file at `path`, or an in-memory one for `:memory:`. */
  constructor(path: string) {
    this.#db = new Database(path);
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON');
    this.#db.exec('PRAGMA busy_timeout = 5000');
  }

  async all<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    while (this.#transactionEnd) await this.#transactionEnd;
    return this.#all<Row>(sql, params);
  }

  async get<Row>(sql: string, params: readonly unknown[] = []): Promise<Row | undefined> {
    while (this.#transactionEnd) await this.#transactionEnd;
    return this.#get<Row>(sql, params);
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    while (this.#transactionEnd) await this.#transactionEnd;
    return this.#run(sql, params);
  }

  async exec(sql: string): Promise<void> {
    while (this.#transactionEnd) await this.#transactionEnd;
    this.#db.exec(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    // Checked again after every wait: another transaction may have begun in between.
    while (this.#transactionEnd) await this.#transactionEnd;
    let end!: () => void;
    this.#transactionEnd = new Promise((resolve) => (end = resolve));
    try {
      this.#run('BEGIN IMMEDIATE');
      try {
        const result = await work(this.#tx);
        this.#run('COMMIT');
        return result;
      } catch (error) {
        // Some errors (SQLITE_FULL, SQLITE_IOERR…) already ended the transaction.
        if (this.#db.inTransaction) this.#run('ROLLBACK');
        throw error;
      }
    } finally {
      this.#transactionEnd = undefined;
      end();
    }
  }

  groupCommit<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#group.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.#group.length === 1) setImmediate(() => void this.#commitGroup());
    });
  }

  migration(work: (tx: Queryable) => Promise<void>): Promise<void> {
    return this.transaction(work);
  }

  isUniqueViolation(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    if (!this.#db.open) return;
    // Works still waiting for their group commit are written, not dropped.
    await this.#commitGroup();
    while (this.#transactionEnd) await this.#transactionEnd;
    // Fold the write-ahead log into the database file, so a stopped server leaves one file behind.
    this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    this.#db.close();
  }

  /** Each promise settles only after the COMMIT; a work that throws rejects only its own promise. */
  async #commitGroup(): Promise<void> {
    const group = this.#group.splice(0);
    if (group.length === 0) return;
    const outcomes: Array<{ value: unknown } | { error: unknown }> = [];
    try {
      await this.transaction(async (tx) => {
        for (const { work } of group) {
          this.#run('SAVEPOINT grouped');
          try {
            outcomes.push({ value: await work(tx) });
            this.#run('RELEASE grouped');
          } catch (error) {
            this.#run('ROLLBACK TO grouped');
            this.#run('RELEASE grouped');
            outcomes.push({ error });
          }
        }
      });
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    }
    group.forEach(({ resolve, reject }, index) => {
      const outcome = outcomes[index]!;
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.value);
    });
  }

  #prepare(sql: string): Prepared {
    let prepared = this.#statements.get(sql);
    if (prepared === undefined) {
      const statement = this.#db.prepare(sql.replace(TRAILING_FOR_UPDATE, ''));
      // libsql builds a row object slowly (about 2 µs for a dozen columns) but an array quickly: read arrays and
      // name their values in `toRow`. Raw rows also give every BLOB as a Buffer.
      const columns = statement.reader ? statement.raw(true).columns().map((column) => column.name) : undefined;
      prepared = { statement, columns };
      this.#statements.set(sql, prepared);
    }
    return prepared;
  }

  #all<Row>(sql: string, params: readonly unknown[]): Row[] {
    const { statement, columns } = this.#prepare(sql);
    return (statement.all(params) as unknown[][]).map((values) => toRow<Row>(columns!, values));
  }

  #get<Row>(sql: string, params: readonly unknown[]): Row | undefined {
    const { statement, columns } = this.#prepare(sql);
    const values = statement.get(params) as unknown[] | undefined;
    return values && toRow<Row>(columns!, values);
  }

  /** A typed query's statement: its rows when it reads (RETURNING included), else the rows it changed. */
  #statement(sql: string, params: readonly unknown[]): { rows: unknown[]; changes: number } {
    const { statement, columns } = this.#prepare(sql);
    if (columns === undefined) return { rows: [], changes: statement.run(params).changes };
    return { rows: (statement.all(params) as unknown[][]).map((values) => toRow(columns, values)), changes: 0 };
  }

  #run(sql: string, params: readonly unknown[] = []): number {
    return this.#prepare(sql).statement.run(params).changes;
  }
}

function toRow<Row>(columns: string[], values: unknown[]): Row {
  const row: Record<string, unknown> = {};
  for (let index = 0; index < columns.length; index++) row[columns[index]!] = values[index];
  return row as Row;
}
