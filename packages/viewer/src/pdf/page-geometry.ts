import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';

/** A page's size in PDF points as displayed (its own /Rotate applied), and that rotation in degrees. */
export interface PageGeometry {
  pageNumber: number;
  width: number;
  height: number;
  rotation: number;
}

/**
 * The displayed size of a page at 100 % (1 PDF point per unit).
 * @example readPageGeometry(await pdf.getPage(1)) // { pageNumber: 1, width: 612, height: 792, rotation: 0 }
 */
export function readPageGeometry(page: PDFPageProxy): PageGeometry {
  const { width, height } = page.getViewport({ scale: 1 });
  return { pageNumber: page.pageNumber, width, height, rotation: page.rotate };
}

/**
 * Every page of a `pageCount`-page document, sized like `first` until its own size is known. Most documents have
 * pages of one size, so this is usually already right, and it lets the page list lay out before the other pages
 * are read.
 * @example placeholderGeometries({ pageNumber: 1, width: 612, height: 792, rotation: 0 }, 3).length // 3
 */
export function placeholderGeometries(first: PageGeometry, pageCount: number): PageGeometry[] {
  return Array.from({ length: pageCount }, (_, index) => (index === 0 ? first : { ...first, pageNumber: index + 1 }));
}

/**
 * `pages` with `updates` applied by page number. Unchanged pages keep their object, so memoised page views skip
 * re-rendering; if nothing changed, `pages` itself is returned.
 * @example mergeGeometries(pages, [{ pageNumber: 2, width: 792, height: 612, rotation: 90 }])
 */
export function mergeGeometries(pages: readonly PageGeometry[], updates: readonly PageGeometry[]): PageGeometry[] {
  let next: PageGeometry[] | null = null;
  for (const update of updates) {
    const index = update.pageNumber - 1;
    const current = pages[index];
    if (!current || sameGeometry(current, update)) continue;
    next ??= pages.slice();
    next[index] = update;
  }
  return next ?? (pages as PageGeometry[]);
}

function sameGeometry(a: PageGeometry, b: PageGeometry): boolean {
  return a.width === b.width && a.height === b.height && a.rotation === b.rotation;
}

export interface MeasurePagesOptions {
  /** First page to read (default 2: page 1 is read before the list is shown). */
  from?: number;
  /** Pages read concurrently and reported together (default 50). */
  batchSize?: number;
  signal?: AbortSignal;
  onBatch: (geometries: PageGeometry[]) => void;
  /** Awaited before each batch (e.g. an idle callback), so that measuring yields to drawing and input. */
  yieldBetween?: () => Promise<void>;
}

/**
 * Reads the geometry of every page from `from` on, in batches. `getPage` reads a page's dictionary (size, rotation,
 * resources), never its content stream, so with range loading this fetches the file's object streams and not the
 * pages themselves. Stops quietly once `signal` aborts.
 * @example await measurePages(pdf, { onBatch: (batch) => setPages((pages) => mergeGeometries(pages, batch)) })
 */
export async function measurePages(pdf: PDFDocumentProxy, options: MeasurePagesOptions): Promise<void> {
  const { from = 2, batchSize = 50, signal, onBatch, yieldBetween } = options;
  for (let start = from; start <= pdf.numPages; start += batchSize) {
    await yieldBetween?.();
    if (signal?.aborted) return;
    const numbers = Array.from({ length: Math.min(batchSize, pdf.numPages - start + 1) }, (_, i) => start + i);
    const pages = await Promise.all(numbers.map((n) => pdf.getPage(n)));
    if (signal?.aborted) return;
    onBatch(pages.map(readPageGeometry));
  }
}
