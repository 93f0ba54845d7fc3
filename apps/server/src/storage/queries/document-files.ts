import type { Db } from '../typed-queries.js';
import type { DocumentPreview } from '../types.js';
import { readChunks, writeChunks } from '../chunks.js';

/*
 * A document's file (in chunks, `chunks.ts`) and its first page's preview.
 */

/** Stores a new document's file, in the caller's transaction. */
export function writeDocumentContent(db: Db, documentId: string, content: Uint8Array): Promise<void> {
  return writeChunks(db, 'document_chunks', documentId, content);
}

/** Bytes `start` to `end` inclusive of a document's file (the caller checks the bounds). */
export function readDocumentContent(db: Db, documentId: string, start: number, end: number): Promise<Uint8Array> {
  return readChunks(db, 'document_chunks', documentId, start, end);
}

/**
 * Stores the preview of a document. A document has one preview: when it already has one (another instance got there
 * first), that one is kept.
 */
export async function insertDocumentPreview(db: Db, documentId: string, preview: DocumentPreview): Promise<void> {
  await db
    .insertInto('document_previews')
    .values({
      document_id: documentId,
      media_type: preview.mediaType,
      width: preview.width,
      height: preview.height,
      content: preview.content,
      created_at: Date.now(),
    })
    .onConflict((oc) => oc.column('document_id').doNothing())
    .execute();
}

/** The preview of a document, or null when it has none (created before previews, or its PDF cannot be drawn). */
export async function findDocumentPreview(db: Db, documentId: string): Promise<DocumentPreview | null> {
  const row = await db
    .selectFrom('document_previews')
    .select(['media_type', 'width', 'height', 'content'])
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  return row ? { mediaType: row.media_type, width: row.width, height: row.height, content: row.content } : null;
}
