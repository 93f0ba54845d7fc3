import { PostgresAdapter, type CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import { statementsOf, type Db } from './typed-queries.js';

/*
 * Queries on the hot path (every submission) built and compiled once per engine, then run with new parameters on the
 * engine's own statement runner: Kysely's building, compiling and executor cost about 10–20 µs of CPU a query
 * (docs/decisions.md, "Typed queries"), which a submission's transaction would otherwise pay for each statement.
 */

/** A parameter of a prepared query: the `index`-th argument it is run with. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query built once by `build` (with a placeholder for each argument) and compiled once per engine; each call runs
 * it on `db` with `args` in the placeholders' places.
 * @example
 * const byId = prepare((db, id: unknown) => db.selectFrom('documents').selectAll().where('id', '=', id as string), 1);
 * const { rows } = await byId(db, 'doc_…');
 */
export function prepare<Row, Args extends unknown[]>(
  build: (db: Db, ...slots: unknown[]) => Compilable<Row>,
  arity: Args['length'],
): (db: Db, ...args: Args) => Promise<QueryResult<Row>> {
  const compiled = new Map<'sqlite' | 'postgres', CompiledQuery<Row>>();
  return async (db, ...args) => {
    const statements = statementsOf(db);
    const engine = statements?.engine ?? (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');
    let query = compiled.get(engine);
    if (!query) {
      query = build(db, ...Array.from({ length: arity }, (_, index) => new Slot(index))).compile();
      compiled.set(engine, query);
    }
    const parameters = query.parameters.map((value) => (value instanceof Slot ? args[value.index] : value));
    // A `Db` made elsewhere (wrapped, or with plugins) runs the query through Kysely's executor.
    if (!statements) return db.executeQuery<Row>({ ...query, parameters });
    const { rows, changes } = await statements.run(query.sql, parameters);
    return { rows: rows as Row[], numAffectedRows: BigInt(changes) };
  };
}
