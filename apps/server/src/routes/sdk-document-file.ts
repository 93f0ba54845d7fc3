import { endpoints } from '@signet/contract';
import type { AppContext } from '../app-context.js';
import { contentDisposition, sendStoredFile } from '../http/file-response.js';
import { clientIp } from '../middleware/api-key/client-ip.js';
import { requestHeader } from '../http/request-header.js';
import { handler, type EndpointHandlers } from './serve.js';
import { cacheForTokenHolder } from './sdk-document-token.js';
import { recordDocumentOpened } from '../documents/opening.js';
import { readDocumentContent } from '../storage/queries/document-files.js';

/** Documents known to have their `document.opened` event, so that later fetches of their file write nothing. */
const OPENED_MEMORY = 10_000;

/**
 * `GET /sdk/documents/{documentId}/file?token=…`: the PDF, guarded by the token of `documentUrl` rather than a key
 * (docs/api.md, "Document tokens"). Byte ranges (206) let pdf.js load large files a piece at a time; no compression on this route. The
 * first fetch records `document.opened` (the signer's address and browser) in the audit trail.
 */
export function documentFileHandler(deps: AppContext): Pick<EndpointHandlers, 'getDocumentFile'> {
  const opened = new Set<string>();

  async function recordOpened(documentId: string, ip: string | null, userAgent: string | null): Promise<void> {
    if (opened.has(documentId)) return;
    try {
      await recordDocumentOpened(deps.storage, documentId, { occurredAt: new Date().toISOString(), ip, userAgent });
      if (opened.size >= OPENED_MEMORY) opened.clear();
      opened.add(documentId);
    } catch (error) {
      // The file is still served: a missed audit write is logged, never a refusal of the signer.
      deps.logger.error({ err: error, documentId }, 'could not record the document as opened');
    }
  }

  // The access check reads the path's id and the query's token (documentByToken): the id once, and a missing token
  // is a 403, not a schema's 400.
  const getDocumentFile = handler(endpoints.getDocumentFile, {
    readsItself: ['params', 'query'],
    async handle(c) {
      const document = c.get('tokenDocument');
      const etag = `"${document.sha256}"`;
      cacheForTokenHolder(c, etag);
      c.header('Content-Disposition', contentDisposition('inline', document.filename));
      await recordOpened(document.id, clientIp(c, deps.config.trustProxy), requestHeader(c, 'user-agent') ?? null);
      return sendStoredFile(c, {
        size: document.fileSize,
        etag,
        read: (start, end) => readDocumentContent(deps.storage.db.query, document.id, start, end),
      });
    },
  });
  return { getDocumentFile };
}
