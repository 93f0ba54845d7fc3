import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger.js';
import { renderPreview } from '../pdf/preview.js';
import type { DocumentPreview, DocumentRecord, Storage } from '../storage/types.js';

/**
 * Draws the page-1 preview of a stored document and stores it. A PDF that PDFium cannot draw is no failure of the
 * document: it is logged, and the document has no preview (null). Failures of the storage are thrown.
 * @example await storeDocumentPreview(storage, logger, document.id, bytes)
 */
export async function storeDocumentPreview(
  storage: Storage,
  logger: Logger,
  documentId: string,
  pdf: Uint8Array,
): Promise<DocumentPreview | null> {
  let preview: DocumentPreview;
  try {
    preview = await renderPreview(pdf);
  } catch (error) {
    logger.warn({ documentId, err: error }, 'document has no preview: its first page cannot be drawn');
    return null;
  }
  await storage.putDocumentPreview(documentId, preview);
  return preview;
}

export interface PreviewSourceOptions {
  /** How long a PDF that could not be drawn is not tried again (default 10 minutes). */
  failureTtlMs?: number;
  /** How many such documents are remembered (default 10,000). */
  maxFailures?: number;
}

/**
 * The preview of a document, drawn from its stored PDF on the first request when it has none (a document created
 * before previews existed) and then stored for every instance. Concurrent requests for one document share one
 * lookup and at most one drawing; a PDF that cannot be drawn is remembered for a while, so that a damaged file is
 * not drawn again on every request.
 * @example
 * const previewOf = createPreviewSource(storage, logger);
 * const preview = await previewOf(document); // null: this document has no preview
 */
export function createPreviewSource(
  storage: Storage,
  logger: Logger,
  { failureTtlMs = 10 * 60_000, maxFailures = 10_000 }: PreviewSourceOptions = {},
): (document: DocumentRecord) => Promise<DocumentPreview | null> {
  const pending = new Map<string, Promise<DocumentPreview | null>>();
  const undrawable = new LRUCache<string, true>({ max: maxFailures, ttl: failureTtlMs });

  async function lookUpOrDraw(document: DocumentRecord): Promise<DocumentPreview | null> {
    const stored = await storage.getDocumentPreview(document.id);
    if (stored) return stored;
    const pdf = await storage.readDocumentContent(document.id, 0, document.fileSize - 1);
    const drawn = await storeDocumentPreview(storage, logger, document.id, pdf);
    if (!drawn) undrawable.set(document.id, true);
    return drawn;
  }

  return function previewOf(document) {
    if (undrawable.has(document.id)) return Promise.resolve(null);
    let lookup = pending.get(document.id);
    if (!lookup) {
      lookup = lookUpOrDraw(document).finally(() => pending.delete(document.id));
      pending.set(document.id, lookup);
    }
    return lookup;
  };
}
