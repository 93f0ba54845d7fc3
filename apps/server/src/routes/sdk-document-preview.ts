import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import { PREVIEW_MAX_SIDE, PREVIEW_PIXELS_PER_POINT } from '@signet/contract';
import { createPreviewSource } from '../documents/document-preview.js';
import { ApiError } from '../errors.js';
import type { AppContext, AppEnv } from '../http/env.js';
import { errorResponses, type SignetApp } from './openapi.js';
import { cacheForTokenHolder, documentByToken, documentTokenForbidden, documentTokenRequest, etagMatches } from './sdk-document-token.js';

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
export function registerDocumentPreviewRoute(app: SignetApp, deps: AppContext): void {
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/sdk/documents/{documentId}/preview',
    tags: ['SDK'],
    summary: 'Image of the first page',
    description: `The first page as displayed, as WebP, ${PREVIEW_PIXELS_PER_POINT} pixels a point (at most ${PREVIEW_MAX_SIDE} a side). Same URL and \`token\` as \`documentUrl\` with \`/preview\` in place of \`/file\`; no API key is needed. Supports \`If-None-Match\` (304).`,
    request: documentTokenRequest,
    responses: {
      200: { description: 'The image', content: { 'image/webp': { schema: z.string().meta({ format: 'binary' }) } } },
      304: { description: 'Not modified (`If-None-Match`)' },
      ...errorResponses(400),
      ...documentTokenForbidden,
      404: {
        description: 'The document has no preview: its first page cannot be drawn (`NOT_FOUND`)',
        content: errorResponses(404)[404]!.content,
      },
    },
  });

  const previewOf = createPreviewSource(deps);

  app.get('/sdk/documents/:documentId/preview', async (c) => {
    const document = await documentByToken(c, deps);
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
  });
}
