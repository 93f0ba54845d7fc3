import type { PDFDocumentProxy } from 'pdfjs-dist';
import { startTransition, useEffect, useState } from 'react';
import { firstPagePainted } from '../pdf/paint-signal.js';

/**
 * The pages whose boxes are mounted: the first `eager` at once, all of them (as a transition) once a page of `pdf`
 * is painted or `timeoutMs` has passed. A 300-page document's first paint then waits for a few boxes, not 300;
 * the others are laid out already (the track has its full height), so nothing moves when they arrive.
 * @example const mounted = useMountedPages(pdf, pages, 8, 1000);
 */
export function useMountedPages<T>(pdf: PDFDocumentProxy, pages: T[], eager: number, timeoutMs: number): T[] {
  const docId = pdf.loadingTask.docId;
  const [mountedAll, setMountedAll] = useState<string | null>(null);
  useEffect(() => {
    if (mountedAll === docId) return;
    let active = true;
    void firstPagePainted(pdf, timeoutMs).then(() => active && startTransition(() => setMountedAll(docId)));
    return () => {
      active = false;
    };
  }, [pdf, docId, mountedAll, timeoutMs]);
  return mountedAll === docId || pages.length <= eager ? pages : pages.slice(0, eager);
}
