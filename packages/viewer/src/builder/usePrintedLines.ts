import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useCallback, useEffect, useRef } from 'react';
import type { PageGeometry } from '../pdf/page-geometry.js';
import type { SnapLines } from './snap.js';

type SnapModule = typeof import('./snap.js');

/**
 * Snapping's code and what is printed on each page to snap to (`printedLines`), loaded only when asked (`request`,
 * as a field of that page is pressed or focused): the geometry as a chunk of its own, and each page's lines once,
 * from the operator list its canvas was drawn from. `current` answers at once: nothing while they are being read.
 */
export function usePrintedLines(pdf: PDFDocumentProxy | null, sizeOf: (page: number) => PageGeometry | undefined) {
  const cache = useRef(new Map<number, SnapLines | 'reading'>());
  const module = useRef<SnapModule | null>(null);
  const loading = useRef<Promise<SnapModule> | null>(null);
  useEffect(() => {
    cache.current = new Map();
  }, [pdf]);
  const request = useCallback(
    (pageNumber: number) => {
      const size = sizeOf(pageNumber);
      if (!pdf || !size || cache.current.has(pageNumber)) return;
      const lines = cache.current;
      lines.set(pageNumber, 'reading');
      loading.current ??= import('./snap.js').then((loaded) => (module.current = loaded));
      void (async () => {
        try {
          const page = await pdf.getPage(pageNumber);
          const [snap, operators, text] = await Promise.all([loading.current!, page.getOperatorList(), page.getTextContent()]);
          lines.set(pageNumber, snap.printedLines(operators, text.items, page.getViewport({ scale: 1 }).transform, size));
        } catch {
          // A page pdf.js cannot read has nothing printed to snap to; fields still snap to each other.
          lines.set(pageNumber, { x: [], y: [] });
        }
      })();
    },
    [pdf, sizeOf],
  );
  const current = useCallback((pageNumber: number) => {
    const known = cache.current.get(pageNumber);
    return { snap: module.current, lines: known === 'reading' ? undefined : known };
  }, []);
  return { request, current };
}
