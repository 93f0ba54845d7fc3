import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Tables } from './tables.js';

/*
 * Typed queries (Kysely) on Signet's own connections. Kysely builds and compiles each query in the engine's dialect;
 * the statement then runs through the engine class of this folder, so that SQLite's group commit and
 * BEGIN IMMEDIATE, PostgreSQL's prepared statements and both engines' transactions stay as they are. Kysely never
 * opens a transaction itself: `SqlDatabase.transaction` does, and hands the work a `Kysely` bound to it. Why Kysely and
 * what it costs: docs/decisions.md, "Typed queries".
 */

/** The typed queries of one database, or of one transaction of it. */
export type Db = Kysely<Tables>;

/** Runs one statement as its engine does; `changes` counts the rows a statement that returns none wrote. */
export type RunStatement = (sql: string, params: readonly unknown[]) => Promise<{ rows: unknown[]; changes: number }>;

/**
 * Typed queries that run through `run`.
 * @example typedQueries('sqlite', run).selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst()
 */
export function typedQueries(engine: 'sqlite' | 'postgres', run: RunStatement): Db {
  const db = new Kysely<Tables>({ dialect: engine === 'sqlite' ? sqliteDialect(run) : postgresDialect(run) });
  statements.set(db, { engine, run });
  return db;
}

/** What each `Db` made here runs its statements with, for queries compiled once (`prepared.ts`). */
const statements = new WeakMap<Db, { engine: 'sqlite' | 'postgres'; run: RunStatement }>();

/**
 * The engine of `db` and its statement runner, when `typedQueries` made it: a query compiled once runs there
 * directly, without Kysely's executor (its connection provider and result plugins, of which Signet uses none).
 */
export function statementsOf(db: Db): { engine: 'sqlite' | 'postgres'; run: RunStatement } | undefined {
  return statements.get(db);
}

function sqliteDialect(run: RunStatement): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new StatementDriver(run),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

function postgresDialect(run: RunStatement): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new StatementDriver(run),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/** One "connection" that is whatever `run` runs on: the database, or the transaction in progress. */
class StatementDriver implements Driver {
  readonly #connection: DatabaseConnection;

  constructor(run: RunStatement) {
    this.#connection = {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const { rows, changes } = await run(query.sql, query.parameters);
        return { rows: rows as R[], numAffectedRows: BigInt(changes) };
      },
      // eslint-disable-next-line require-yield
      async *streamQuery() {
        throw new Error('Signet reads rows whole: stream with keyset pages instead');
      },
    };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }

  async beginTransaction(): Promise<void> {
    throw new Error('Open transactions with SqlDatabase.transaction, not Kysely');
  }

  async commitTransaction(): Promise<void> {
    throw new Error('Open transactions with SqlDatabase.transaction, not Kysely');
  }

  async rollbackTransaction(): Promise<void> {
    throw new Error('Open transactions with SqlDatabase.transaction, not Kysely');
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}
