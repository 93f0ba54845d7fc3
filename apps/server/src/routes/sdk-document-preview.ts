import type { Context } from 'hono';
import { endpoints } from '@signet/contract';
import { createPreviewSource } from '../documents/document-preview.js';
import { ApiError } from '../errors.js';
import type { AppEnv } from '../http/env.js';
import type { AppContext } from '../app-context.js';
import { handler, type EndpointHandlers } from './serve.js';
import { cacheForTokenHolder } from './sdk-document-token.js';
import { etagMatches } from '../http/file-response.js';

/** The headers of a preview, whole or not modified. */
function previewHeaders(c: Context<AppEnv>, etag: string): void {
  cacheForTokenHolder(c, etag);
  // The viewer shows it with a plain <img> on the host page, which is of another origin.
  c.header('Cross-Origin-Resource-Policy', 'cross-origin');
  // Lets the host page's Element Timing and Resource Timing see when the image arrived and was painted (its
  // real-user monitoring, and `pnpm bench:viewer`). Timing only: the bytes stay behind the token.
  c.header('Timing-Allow-Origin', '*');
}

/**
 * `GET /sdk/documents/{documentId}/preview?token=…`: the document's first page as a WebP image (see
 * `pdf/preview.ts`), for a viewer to show before pdf.js has loaded. Guarded by the token of `documentUrl`, like the
 * file; a document created before previews gets its preview drawn on the first request.
 */
export function documentPreviewHandler(deps: AppContext): Pick<EndpointHandlers, 'getDocumentPreview'> {
  const previewOf = createPreviewSource(deps);
  // The access check reads the path's id and the query's token (documentByToken): the id once, and a missing token
  // is a 403, not a schema's 400.
  const getDocumentPreview = handler(endpoints.getDocumentPreview, {
    readsItself: ['params', 'query'],
    async handle(c) {
      const document = c.get('tokenDocument');
      // The preview is drawn from the file, so the file's hash identifies it.
      const etag = `"${document.sha256}-preview"`;
      if (etagMatches(c, etag)) {
        previewHeaders(c, etag);
        return c.body(null, 304);
      }
      const preview = await previewOf(document);
      if (!preview) throw new ApiError('NOT_FOUND', `Document ${document.id} has no preview: its first page cannot be drawn`);
      previewHeaders(c, etag);
      c.header('Content-Type', preview.mediaType);
      c.header('Content-Length', String(preview.content.byteLength));
      if (c.req.method === 'HEAD') return c.body(null, 200);
      return c.body(preview.content as Uint8Array<ArrayBuffer>, 200);
    },
  });
  return { getDocumentPreview };
}
