/**
 * Signet's page-1 preview: a WebP image of the document's first page that the server renders when the document is
 * created, so that a viewer can show the page before pdf.js has booted and parsed the PDF. It lives beside the
 * file, `…/sdk/documents/{id}/preview?token=…`, and is granted by the same token as `documentUrl` (docs/api.md, "Document tokens"), so the
 * contract's Get Document response needs no field of its own for it.
 */

/** Pixels per PDF point of the preview: a Letter page is 1224 px wide, sharp at page width on a 1× screen. */
export const PREVIEW_PIXELS_PER_POINT = 2;
/** The longest side of a preview in pixels: a larger page is drawn at fewer pixels per point. */
export const PREVIEW_MAX_SIDE = 2048;

/**
 * The preview URL that goes with a document's `documentUrl`: the same URL with `/preview` in place of its last
 * path segment `/file`, query kept. Null when `documentUrl` is not a Signet file URL (then there is no preview).
 * @example documentPreviewUrl('https://sign.example.com/sdk/documents/doc_1/file?token=t') // 'https://sign.example.com/sdk/documents/doc_1/preview?token=t'
 */
export function documentPreviewUrl(documentUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(documentUrl);
  } catch {
    return null;
  }
  if (!/\/sdk\/documents\/[^/]+\/file$/.test(url.pathname)) return null;
  url.pathname = url.pathname.replace(/\/file$/, '/preview');
  return url.toString();
}
