/** A decoded page preview: its URL (in the browser's image cache, ready to paint) and its size in pixels. */
export interface PagePreview {
  src: string;
  width: number;
  height: number;
}

/** A preview being loaded: `value` is filled in when `promise` settles. */
export interface PagePreviewEntry {
  promise: Promise<PagePreview | null>;
  /** Undefined while loading; null when the preview could not be loaded. */
  value: PagePreview | null | undefined;
}

/** Previews asked for, by URL, newest last. A few are kept so that a remount shows its preview at once. */
const previews = new Map<string, PagePreviewEntry>();
const KEEP = 4;

/**
 * Starts loading and decoding the image at `url` (once per URL) and returns its entry: `value` is the decoded
 * preview once it is ready, null if it could not be loaded (no preview on this server, blocked by the host's
 * Content-Security-Policy, a network failure: the page is then simply drawn by pdf.js). Only the URL and size are
 * kept, not the image element, so a preview nobody shows holds no decoded bitmap.
 * @example const entry = loadPagePreview(previewUrl); const preview = await entry.promise;
 */
export function loadPagePreview(url: string): PagePreviewEntry {
  const known = previews.get(url);
  if (known) return known;
  if (typeof Image === 'undefined') return { value: null, promise: Promise.resolve(null) }; // rendering on a server
  const image = new Image();
  image.decoding = 'async';
  image.src = url;
  const entry: PagePreviewEntry = {
    value: undefined,
    promise: image.decode().then(
      () => (entry.value = { src: url, width: image.naturalWidth, height: image.naturalHeight }),
      () => (entry.value = null),
    ),
  };
  previews.set(url, entry);
  if (previews.size > KEEP) previews.delete(previews.keys().next().value!);
  return entry;
}
