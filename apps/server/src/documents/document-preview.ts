import type { Logger } from '../logger.js';
import { PdfPoolBusyError, type PdfPool } from '../pdf/pool/index.js';
import type { DocumentPreview, DocumentRecord, Storage } from '../storage/types.js';
import { findDocumentPreview, insertDocumentPreview, readDocumentContent } from '../storage/queries/document-files.js';

/** What drawing and storing previews works with. */
export interface PreviewDependencies {
  storage: Storage;
  logger: Logger;
  pdfPool: PdfPool;
}

/**
 * What is stored for a document whose first page cannot be drawn within the PDF pool's limits (or at all): a
 * preview of no bytes, so that no instance draws it again. It is never served.
 */
export const NO_PREVIEW: DocumentPreview = { mediaType: 'none', width: 0, height: 0, content: new Uint8Array() };

/** The stored preview as served: null for none, and for the `NO_PREVIEW` mark. */
function served(preview: DocumentPreview | null): DocumentPreview | null {
  return preview && preview.content.byteLength > 0 ? preview : null;
}

/**
 * Draws the page-1 preview of a stored document in the PDF pool and stores it. A PDF that cannot be drawn (damaged,
 * over the pool's time or memory limit, an image too large) is no failure of the document: it is logged and marked
 * (`NO_PREVIEW`), so that it is not drawn again, and the document has no preview (null). A full pool is passing
 * trouble: nothing is marked, and a later request draws it. Failures of the storage are thrown.
 * @example await storeDocumentPreview({ storage, logger, pdfPool }, document.id, bytes)
 */
export async function storeDocumentPreview(
  { storage, logger, pdfPool }: PreviewDependencies,
  documentId: string,
  pdf: Uint8Array,
): Promise<DocumentPreview | null> {
  let preview: DocumentPreview;
  try {
    preview = await pdfPool.run('preview', pdf);
  } catch (error) {
    if (error instanceof PdfPoolBusyError) {
      logger.warn({ documentId }, 'document preview not drawn now: the PDF pool is busy');
      return null;
    }
    logger.warn({ documentId, err: error }, 'document has no preview: its first page cannot be drawn');
    await insertDocumentPreview(storage.db.query, documentId, NO_PREVIEW);
    return null;
  }
  await insertDocumentPreview(storage.db.query, documentId, preview);
  return preview;
}

/**
 * The preview of a document, drawn from its stored PDF on the first request when it has none (a document created
 * before previews existed) and then stored for every instance. Concurrent requests for one document share one
 * lookup and at most one drawing; a PDF that cannot be drawn is marked in storage and not drawn again.
 * @example
 * const previewOf = createPreviewSource({ storage, logger, pdfPool });
 * const preview = await previewOf(document); // null: this document has no preview
 */
export function createPreviewSource(dependencies: PreviewDependencies): (document: DocumentRecord) => Promise<DocumentPreview | null> {
  const { storage } = dependencies;
  const pending = new Map<string, Promise<DocumentPreview | null>>();

  async function lookUpOrDraw(document: DocumentRecord): Promise<DocumentPreview | null> {
    const stored = await findDocumentPreview(storage.db.query, document.id);
    if (stored) return served(stored);
    const pdf = await readDocumentContent(storage.db.query, document.id, 0, document.fileSize - 1);
    return storeDocumentPreview(dependencies, document.id, pdf);
  }

  return function previewOf(document) {
    let lookup = pending.get(document.id);
    if (!lookup) {
      lookup = lookUpOrDraw(document).finally(() => pending.delete(document.id));
      pending.set(document.id, lookup);
    }
    return lookup;
  };
}
