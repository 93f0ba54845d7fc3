import type { Tables } from '../../src/storage/tables.js';
import type { Db } from '../../src/storage/typed-queries.js';
import type { Storage } from '../../src/storage/types.js';

/**
 * `storage` whose reads of `tables` fail with `error` (a database that went down), everything else as it is: for
 * tests of how the API answers a storage failure.
 * @example createApp({ storage: failingReads(t.storage, ['api_keys'], new Error('storage down')), … })
 */
export function failingReads(storage: Storage, tables: ReadonlyArray<keyof Tables>, error: Error): Storage {
  const query = new Proxy(storage.db.query, {
    get(target, property) {
      if (property === 'selectFrom') {
        return (from: string) => {
          if (tables.some((table) => from === table || from.startsWith(`${table} `))) throw error;
          return target.selectFrom(from as keyof Tables);
        };
      }
      if (property === 'executeQuery') {
        // Queries compiled once (storage/prepared.ts) run here without going through selectFrom again.
        return (query: { sql: string }) => {
          if (tables.some((table) => query.sql.includes(`from "${table}"`))) return Promise.reject(error);
          return target.executeQuery(query as Parameters<Db['executeQuery']>[0]);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Db;
  const db = Object.create(storage.db, { query: { value: query } }) as Storage['db'];
  return Object.create(storage, { db: { value: db } }) as Storage;
}
