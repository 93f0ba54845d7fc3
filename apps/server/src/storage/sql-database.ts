import type { Db } from './typed-queries.js';

/*
 * The seam between Signet's queries and the two engines. A query is written once, in SQL both engines accept, with
 * `?` for each parameter; an engine rewrites what it spells differently, once per query text:
 * - PostgreSQL numbers its parameters: `?` becomes `$1`, `$2`… (a `?` inside a quoted string stays).
 * - SQLite has no row locks: a trailing `FOR UPDATE` (with `OF t` and `SKIP LOCKED` or not) is dropped, as its transactions take the database's write lock
 *   when they begin (BEGIN IMMEDIATE), which already serializes them.
 * Rows come back as objects named by column, bytes as `Uint8Array`; BIGINT columns as numbers from SQLite and
 * strings from PostgreSQL (the row mappers of `schema.ts` take both).
 */

/** Something queries run on: the database, or one transaction of it. */
export interface Queryable {
  /** Typed queries on the same database or transaction (typed-queries.ts). */
  readonly query: Db;
  all<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** The first row, or undefined. */
  get<Row>(sql: string, params?: readonly unknown[]): Promise<Row | undefined>;
  /** Runs a statement; resolves with the number of rows it inserted, updated or deleted. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Runs one or more statements without parameters, such as a migration's DDL. */
  exec(sql: string): Promise<void>;
}

/** Column types and clauses that differ between the engines, for the DDL of migrations. */
export interface DdlDialect {
  /** A 64-bit integer, such as epoch milliseconds: INTEGER on SQLite (always 64-bit there), BIGINT on PostgreSQL. */
  bigint: string;
  /** Bytes: BLOB or BYTEA. */
  bytes: string;
  /** Text whose order is bytewise: SQLite's default; the "C" collation on PostgreSQL. */
  bytewiseText: string;
  /**
   * The statement (with its `;`) that stores a bytes column's values as they are, or nothing: they are already
   * compressed (PDF, WebP), so PostgreSQL's attempt to compress them is wasted work.
   */
  storeUncompressed(table: string, column: string): string;
}

/** One database, either engine. Every method may be called concurrently. */
export interface SqlDatabase extends Queryable {
  readonly engine: 'sqlite' | 'postgres';
  readonly ddl: DdlDialect;
  /**
   * Runs `work` in a transaction: committed when it resolves, rolled back when it throws. Its statements go through
   * `tx`: on SQLite a statement on the database itself waits until the transaction has ended.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Like `transaction`, for short writes that must be durable before they resolve. On SQLite the works that arrive
   * in the same turn of the event loop share one transaction, each in a savepoint of its own, so that one disk sync
   * makes them all durable (group commit); one that throws is rolled back alone. On PostgreSQL each has its own
   * transaction, and the connection pool commits them side by side.
   */
  groupCommit<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * A transaction for schema changes that no other instance's runs alongside (PostgreSQL: an advisory lock); it
   * creates the configured PostgreSQL schema first when that is absent.
   */
  migration(work: (tx: Queryable) => Promise<void>): Promise<void>;
  /** Whether `error` is a broken UNIQUE or PRIMARY KEY constraint. */
  isUniqueViolation(error: unknown): boolean;
  /** Closes the database once everything queued for it is done; idempotent. */
  close(): Promise<void>;
}
