import type { Db } from '../typed-queries.js';

/*
 * Secrets the server generated and keeps in the database, encrypted by the caller (the sealing certificate's key).
 */

/** The secret kept under `name`, or null. */
export async function findStoredSecret(db: Db, name: string): Promise<Uint8Array | null> {
  const row = await db.selectFrom('stored_secrets').select('value').where('name', '=', name).executeTakeFirst();
  return row ? row.value : null;
}

/** Keeps `value` under `name` unless one is kept already: returns the one kept (the first writer's). */
export async function putStoredSecretIfAbsent(db: Db, name: string, value: Uint8Array): Promise<Uint8Array> {
  await db
    .insertInto('stored_secrets')
    .values({ name, value, created_at: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await findStoredSecret(db, name))!;
}
