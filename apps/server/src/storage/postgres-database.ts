import pg from 'pg';
import type { DdlDialect, Queryable, SqlDatabase } from './sql-database.js';
import { typedQueries, type Db } from './typed-queries.js';

const POSTGRES_DDL: DdlDialect = {
  bigint: 'BIGINT',
  bytes: 'BYTEA',
  bytewiseText: 'TEXT COLLATE "C"',
  storeUncompressed: (table, column) => `ALTER TABLE ${table} ALTER COLUMN ${column} SET STORAGE EXTERNAL;`,
};

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A quoted string (kept as it is) or a `?` (numbered). */
const STRING_OR_PARAMETER = /'(?:[^']|'')*'|\?/g;

/**
 * Each query text as PostgreSQL spells it, with the name it is prepared under: every query is parsed and planned once
 * per connection, not on every call. Shared by all databases of the process (names are per connection).
 */
const prepared = new Map<string, { name: string; text: string }>();

/**
 * How many query texts are prepared by name. Typed queries with lists (`IN (…)`) make a text per list length; past
 * this many, a new text runs unnamed rather than growing every connection's set of prepared statements for ever.
 */
const MAX_PREPARED = 500;

/** BIGINT (int8) columns hold epoch milliseconds and counts: read as numbers, which hold them exactly below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

function preparedQuery(sql: string, values: readonly unknown[]): pg.QueryConfig {
  let query = prepared.get(sql);
  if (query === undefined) {
    if (prepared.size >= MAX_PREPARED) return { text: numbered(sql), values: values as unknown[] };
    query = { name: `signet_${prepared.size + 1}`, text: numbered(sql) };
    prepared.set(sql, query);
  }
  return { name: query.name, text: query.text, values: values as unknown[] };
}

/** `sql` with its `?` numbered as PostgreSQL spells parameters (a typed query's text has none left to number). */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(STRING_OR_PARAMETER, (match) => (match === '?' ? `$${++index}` : match));
}

export interface PostgresOptions {
  /** Schema holding Signet's tables (lowercase letters, digits, `_`), created by `migrate`; default: `search_path`. */
  schema?: string;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
}

/**
 * A PostgreSQL database, shared by every server instance of a deployment, through a pool of connections.
 * Concurrency comes from the database: row locks, unique constraints and, for migrations, an advisory lock.
 */
export class PostgresDatabase implements SqlDatabase {
  readonly engine = 'postgres' as const;
  readonly ddl = POSTGRES_DDL;
  readonly #pool: pg.Pool;
  readonly #schema: string | undefined;
  /** Statements outside a transaction: each on whichever connection of the pool is free. */
  readonly #pooled: Queryable;
  /** Typed queries outside a transaction, each on whichever connection of the pool is free. */
  readonly query: Db;
  #closing: Promise<void> | undefined;

  constructor(connectionString: string, options: PostgresOptions = {}) {
    const { schema } = options;
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
      throw new Error(`Invalid PostgreSQL schema name ${JSON.stringify(schema)}: use lowercase letters, digits and _`);
    }
    this.#schema = schema;
    this.#pool = new pg.Pool({
      connectionString,
      max: options.maxConnections ?? 10,
      types,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // An idle connection that drops is discarded by the pool and the next query opens a new one; without a listener
    // the 'error' event would crash the process.
    this.#pool.on('error', () => {});
    this.#pooled = queryableOn(this.#pool);
    this.query = this.#pooled.query;
  }

  all<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    return this.#pooled.all<Row>(sql, params);
  }

  get<Row>(sql: string, params?: readonly unknown[]): Promise<Row | undefined> {
    return this.#pooled.get<Row>(sql, params);
  }

  run(sql: string, params?: readonly unknown[]): Promise<number> {
    return this.#pooled.run(sql, params);
  }

  exec(sql: string): Promise<void> {
    return this.#pooled.exec(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(queryableOn(client));
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch (rollbackError) {
        // The connection is unusable: destroy it rather than return it to the pool. The first error is the one to see.
        client.release(rollbackError instanceof Error ? rollbackError : true);
      }
      throw error;
    }
  }

  groupCommit<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  migration(work: (tx: Queryable) => Promise<void>): Promise<void> {
    return this.transaction(async (tx) => {
      // Several instances may start at once: one migrates, the others wait here and then find nothing to do.
      await tx.run('SELECT pg_advisory_xact_lock(hashtext(?))', [`signet.migrate:${this.#schema ?? ''}`]);
      if (this.#schema) {
        // Checked first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the schema exists.
        const found = await tx.get('SELECT 1 AS found FROM pg_namespace WHERE nspname = ?', [this.#schema]);
        if (!found) await tx.exec(`CREATE SCHEMA ${this.#schema}`);
      }
      await work(tx);
    });
  }

  isUniqueViolation(error: unknown): boolean {
    return error instanceof Error && (error as { code?: unknown }).code === '23505';
  }

  close(): Promise<void> {
    this.#closing ??= this.#pool.end();
    return this.#closing;
  }
}

/** Statements run through `runner`: the pool, or the connection of one transaction. */
function queryableOn(runner: pg.Pool | pg.PoolClient): Queryable {
  return {
    query: typedQueries('postgres', async (sql, params) => {
      const result = await runner.query(preparedQuery(sql, params));
      return { rows: result.rows, changes: result.rowCount ?? 0 };
    }),
    all: async <Row>(sql: string, params: readonly unknown[] = []) =>
      (await runner.query(preparedQuery(sql, params))).rows as Row[],
    get: async <Row>(sql: string, params: readonly unknown[] = []) =>
      (await runner.query(preparedQuery(sql, params))).rows[0] as Row | undefined,
    run: async (sql, params = []) => (await runner.query(preparedQuery(sql, params))).rowCount ?? 0,
    exec: async (sql) => void (await runner.query(sql)),
  };
}
