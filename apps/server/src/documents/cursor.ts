import { validationError } from '../errors.js';
import type { DocumentCursor } from '../storage/types.js';

/**
 * The opaque cursor of a page of documents: base64url JSON of the last item's (createdAt, id).
 * @example encodeCursor({ createdAt: '2026-01-01T00:00:00.000Z', id: 'doc_…' })
 */
export function encodeCursor(last: DocumentCursor): string {
  return Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url');
}

/** Reads a cursor made by `encodeCursor`, or throws the 400 naming `cursor`. */
export function decodeCursor(cursor: string): DocumentCursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(createdAt))) {
      return { createdAt, id };
    }
  } catch {
    // Falls through to the 400: any unreadable cursor is the caller's error.
  }
  throw validationError('cursor', 'is not a cursor returned by this endpoint');
}
