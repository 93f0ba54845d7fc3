import { CHUNK_SIZE, chunkSpan, sliceChunks } from './schema.js';
import type { Db } from './typed-queries.js';

/*
 * Files stored in pieces of `CHUNK_SIZE` bytes (`document_chunks` for originals, `sealed_chunks` for sealed PDFs),
 * so that a range read loads only the pieces it covers.
 */

/** The tables files are chunked into; both have the columns (document_id, idx, data). */
export type ChunkTable = 'document_chunks' | 'sealed_chunks';

/** Stores `content` in pieces, in the caller's transaction. */
export async function writeChunks(db: Db, table: ChunkTable, documentId: string, content: Uint8Array): Promise<void> {
  for (let idx = 0; idx * CHUNK_SIZE < content.length; idx++) {
    const data = content.subarray(idx * CHUNK_SIZE, (idx + 1) * CHUNK_SIZE);
    await db.insertInto(table).values({ document_id: documentId, idx, data }).execute();
  }
}

/** Bytes `start` to `end` inclusive of a stored file (the caller checks the bounds). */
export async function readChunks(db: Db, table: ChunkTable, documentId: string, start: number, end: number): Promise<Uint8Array> {
  const { first, last, offset } = chunkSpan(start, end);
  const rows = await db
    .selectFrom(table)
    .select('data')
    .where('document_id', '=', documentId)
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
