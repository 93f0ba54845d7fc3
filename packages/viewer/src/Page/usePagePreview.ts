import { useEffect, useReducer } from 'react';
import { loadPagePreview, type PagePreview } from './page-preview.js';

/**
 * The decoded preview at `url`, or null while it loads, when it failed, or without a URL. Loading starts during
 * the first render that names the URL (or earlier, through `loadPagePreview`); a preview already decoded is
 * returned by that very render.
 * @example const preview = usePagePreview(documentPreviewUrl(document.documentUrl));
 */
export function usePagePreview(url: string | null): PagePreview | null {
  const entry = url ? loadPagePreview(url) : null;
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    if (!entry || entry.value !== undefined) return;
    let active = true;
    void entry.promise.then(() => active && rerender());
    return () => {
      active = false;
    };
  }, [entry]);
  return entry?.value ?? null;
}
