import { CHUNK_SIZE, chunkSpan, sliceChunks } from './schema.js';
import type { Db } from './typed-queries.js';

/*
 * Files stored in pieces of `CHUNK_SIZE` bytes (`document_chunks` for originals, `sealed_chunks` for sealed PDFs,
 * `template_chunks` for templates' PDFs), so that a range read loads only the pieces it covers.
 */

/** The tables files are chunked into, and the column naming whose file a row is part of. */
const OWNER_COLUMN = { document_chunks: 'document_id', sealed_chunks: 'document_id', template_chunks: 'template_id' } as const;
export type ChunkTable = keyof typeof OWNER_COLUMN;

/*
 * The three tables have the same shape (owner id, idx, data) under two owner column names: the queries are written
 * once, against `document_chunks`' types, with the owner column named for the table.
 */
type Shape = 'document_chunks';

/** Stores `content` in pieces, in the caller's transaction. */
export async function writeChunks(db: Db, table: ChunkTable, ownerId: string, content: Uint8Array): Promise<void> {
  for (let idx = 0; idx * CHUNK_SIZE < content.length; idx++) {
    const data = content.subarray(idx * CHUNK_SIZE, (idx + 1) * CHUNK_SIZE);
    await db
      .insertInto(table as Shape)
      .values({ [OWNER_COLUMN[table]]: ownerId, idx, data } as { document_id: string; idx: number; data: Uint8Array })
      .execute();
  }
}

/** Bytes `start` to `end` inclusive of a stored file (the caller checks the bounds). */
export async function readChunks(db: Db, table: ChunkTable, ownerId: string, start: number, end: number): Promise<Uint8Array> {
  const { first, last, offset } = chunkSpan(start, end);
  const rows = await db
    .selectFrom(table as Shape)
    .select('data')
    .where(OWNER_COLUMN[table] as 'document_id', '=', ownerId)
    .where('idx', '>=', first)
    .where('idx', '<=', last)
    .orderBy('idx')
    .execute();
  return sliceChunks(
    rows.map((row) => row.data),
    offset,
    end - start + 1,
  );
}
