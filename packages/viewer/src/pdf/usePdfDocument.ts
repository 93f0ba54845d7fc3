import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useLayoutEffect, useState } from 'react';
import { loadPdf } from './load-pdf.js';
import { firstPagePainted, whenIdle } from './paint-signal.js';
import { measurePages, mergeGeometries, placeholderGeometries, readPageGeometry, type PageGeometry } from './page-geometry.js';

export type PdfDocumentStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface PdfDocumentState {
  status: PdfDocumentStatus;
  /** The open document (status `ready`). */
  pdf: PDFDocumentProxy | null;
  /**
   * Every page's geometry once ready. Page 1 is read first and its size stands in for the others until their own
   * sizes arrive (see `pagesMeasured`), so the page list lays out without waiting for 300 page dictionaries. The
   * others are read after the first page is painted (or 1 s), in idle time, 50 at a time.
   */
  pages: PageGeometry[];
  /** True once every entry of `pages` is the page's own geometry rather than page 1's stand-in. */
  pagesMeasured: boolean;
  /** 0..1 while loading (null when the size is unknown), 1 when ready. */
  progress: number | null;
  /**
   * Why the document could not be opened or read: a `PdfResponseError` (with the HTTP `status`) for a refused
   * request, pdf.js's `InvalidPDFException` for a file that is not a PDF, a `TypeError` for a network failure.
   */
  error: Error | null;
}

/** How long measuring the other pages waits for the first page to be painted. */
const FIRST_PAINT_WAIT_MS = 1000;

const IDLE: PdfDocumentState = { status: 'idle', pdf: null, pages: [], pagesMeasured: false, progress: null, error: null };
const LOADING: PdfDocumentState = { ...IDLE, status: 'loading', progress: 0 };

/**
 * Opens the PDF at `url` (by range requests, see `loadPdf`) and reports its loading progress, the open document
 * and the geometry of all its pages. A new `url` closes the previous document and opens the new one; unmounting
 * closes it, and results that arrive afterwards are dropped. Keep `url` stable: a new string (a refreshed token)
 * reloads the file.
 * @example
 * function Viewer({ url }: { url: string }) {
 *   const { status, pdf, pages, progress, error } = usePdfDocument(url);
 *   if (status === 'error') return <p role="alert">{error?.message}</p>;
 *   if (!pdf) return <LoadProgress progress={progress} label="Loading document" />;
 *   return <PdfPages pdf={pdf} pages={pages} zoom={1} />;
 * }
 */
export function usePdfDocument(url: string | null | undefined): PdfDocumentState {
  // State belongs to one URL; a state of an older URL is never shown (derived, not reset by an effect).
  const [entry, setEntry] = useState<{ url: string; state: PdfDocumentState }>({ url: '', state: IDLE });

  // A layout effect only to start the download before the browser paints this commit rather than after it.
  // (`loadPdf` starts the shared worker if nothing has yet.)
  useLayoutEffect(() => {
    if (!url) return;
    let active = true;
    const abort = new AbortController();
    const update = (change: (state: PdfDocumentState) => PdfDocumentState) =>
      setEntry((current) => ({ url, state: change(current.url === url ? current.state : LOADING) }));

    const fail = (error: unknown) => {
      if (active) update(() => ({ ...IDLE, status: 'error', error: error instanceof Error ? error : new Error(String(error)) }));
    };
    const load = loadPdf(url, {
      onProgress: (progress) => {
        if (active) update((state) => (state.status === 'loading' ? { ...state, progress } : state));
      },
      // A part of the file failed after opening (e.g. the token expired): pages would stay blank, so say so.
      onError: fail,
    });
    load.promise
      .then(async (pdf) => {
        const first = readPageGeometry(await pdf.getPage(1));
        if (!active) return;
        update(() => ({ ...IDLE, status: 'ready', pdf, pages: placeholderGeometries(first, pdf.numPages), pagesMeasured: pdf.numPages === 1, progress: 1 }));
        // The other pages are measured once the first page is on screen, in idle time: each batch re-lays out the
        // list, and that must not delay the first paint or the reader's first input.
        await firstPagePainted(pdf, FIRST_PAINT_WAIT_MS);
        await measurePages(pdf, {
          signal: abort.signal,
          yieldBetween: () => whenIdle(),
          onBatch: (batch) => update((state) => ({ ...state, pages: mergeGeometries(state.pages, batch) })),
        });
        if (active) update((state) => ({ ...state, pagesMeasured: true }));
      })
      // After cleanup the document was destroyed on purpose: its "Loading aborted" is dropped with `active`.
      .catch(fail);

    return () => {
      active = false;
      abort.abort();
      void load.destroy();
    };
  }, [url]);

  if (!url) return IDLE;
  return entry.url === url ? entry.state : LOADING;
}
