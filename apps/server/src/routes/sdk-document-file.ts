import { endpoints } from '@signet/contract';
import { ApiError } from '../errors.js';
import { parseRange } from '../documents/range.js';
import type { AppContext } from '../http/env.js';
import { handler, type EndpointHandlers } from './serve.js';
import { cacheForTokenHolder, etagMatches } from './sdk-document-token.js';

/** Size of the slices a whole-file response is streamed in. */
const STREAM_SLICE = 256 * 1024;

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * `GET /sdk/documents/{documentId}/file?token=…`: the PDF, guarded by the token of `documentUrl` rather than a key
 * (SPEC §4). Byte ranges (206) let pdf.js load large files a piece at a time; no compression on this route.
 */
export function documentFileHandler(deps: AppContext): Pick<EndpointHandlers, 'getDocumentFile'> {
  // The access check reads the path's id and the query's token (documentByToken): the id once, and a missing token
  // is a 403, not a schema's 400.
  const getDocumentFile = handler(endpoints.getDocumentFile, {
    readsItself: ['params', 'query'],
    async handle(c) {
      const document = c.get('tokenDocument');
      const size = document.fileSize;
      const etag = `"${document.sha256}"`;
      c.header('Content-Type', 'application/pdf');
      c.header('Accept-Ranges', 'bytes');
      cacheForTokenHolder(c, etag);
      c.header('Content-Disposition', contentDisposition(document.filename));
      if (etagMatches(c, etag)) return c.body(null, 304);

      const ifRange = c.req.header('If-Range');
      const range = ifRange && ifRange !== etag ? null : parseRange(c.req.header('Range'), size);
      if (range === 'unsatisfiable') {
        throw new ApiError('VALIDATION_ERROR', 'Range not satisfiable', {
          status: 416,
          details: { field: 'Range', reason: `the file has ${size} bytes` },
          headers: { 'Content-Range': `bytes */${size}` },
        });
      }
      if (c.req.method === 'HEAD') {
        c.header('Content-Length', String(range ? range.end - range.start + 1 : size));
        if (range) c.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
        return c.body(null, range ? 206 : 200);
      }
      if (range) {
        const bytes = await deps.storage.readDocumentContent(document.id, range.start, range.end);
        c.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
        c.header('Content-Length', String(bytes.byteLength));
        return c.body(bytes as Uint8Array<ArrayBuffer>, 206);
      }
      let offset = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (offset >= size) return controller.close();
          const end = Math.min(offset + STREAM_SLICE, size) - 1;
          controller.enqueue(await deps.storage.readDocumentContent(document.id, offset, end));
          offset = end + 1;
        },
      });
      c.header('Content-Length', String(size));
      return c.body(stream, 200);
    },
  });
  return { getDocumentFile };
}
