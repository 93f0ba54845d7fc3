import '../pdf/iterator-global.js'; // before pdf.js: see iterator-global.ts
import { RenderingCancelledException, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist';
import { useLayoutEffect, useRef } from 'react';
import { notePagePainted } from '../pdf/paint-signal.js';
import { releaseCanvas, renderPage } from './render-page.js';
import type { RenderQueue } from './render-queue.js';

export interface PageCanvasProps {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  /** The page box's size in CSS pixels. */
  width: number;
  height: number;
  devicePixelRatio: number;
  queue: RenderQueue;
  /**
   * A new bitmap is on screen (first paint and every redraw at a new size). Keep this and `onError` stable (as
   * `PdfPages` does): a new function queues the page again.
   */
  onPainted: (pageNumber: number) => void;
  onError: (pageNumber: number, error: Error) => void;
}

/**
 * The drawn page: a canvas filling its page box, drawn through the render queue and redrawn when the box's size or
 * the pixel ratio changes. Canvases are managed here rather than by React so that the old bitmap stays on screen,
 * stretched, while the new one is drawn off-screen, and is swapped in only when complete. Unmounting cancels any
 * drawing, frees the bitmap and lets pdf.js drop the page's parsed drawing instructions.
 * @example <PageCanvas pdf={pdf} pageNumber={1} width={612} height={792} devicePixelRatio={2} queue={queue} onPainted={…} onError={…} />
 */
export function PageCanvas(props: PageCanvasProps) {
  const { pdf, pageNumber, width, height, devicePixelRatio, queue, onPainted, onError } = props;
  const host = useRef<HTMLDivElement>(null);
  const shown = useRef<HTMLCanvasElement | null>(null);
  // The page box: kept here because React has already cleared `host` when unmount cleanups run.
  const box = useRef<HTMLElement | null>(null);
  const page = useRef<PDFPageProxy | null>(null);

  // A layout cleanup: the bitmap is freed within the commit that removes the canvas, not later.
  useLayoutEffect(
    () => () => {
      if (shown.current) releaseCanvas(shown.current);
      shown.current = null;
      box.current?.removeAttribute('data-painted'); // the skeleton shows again
      // Frees the operator list and images pdf.js cached for this page (deferred by pdf.js while a cancelled
      // render winds down).
      page.current?.cleanup();
      page.current = null;
    },
    [],
  );

  // A layout effect: the job is queued before the browser paints this commit, not a frame later.
  useLayoutEffect(() => {
    if (width <= 0 || height <= 0) return;
    return queue.enqueue(pageNumber, async (signal) => {
      try {
        page.current ??= await pdf.getPage(pageNumber);
        const canvas = await renderPage(page.current, { cssWidth: width, cssHeight: height, devicePixelRatio, signal });
        if (signal.aborted || !host.current) {
          releaseCanvas(canvas);
          return;
        }
        host.current.append(canvas);
        if (shown.current) releaseCanvas(shown.current);
        shown.current = canvas;
        box.current = host.current.parentElement;
        box.current?.setAttribute('data-painted', 'true'); // the page box drops its skeleton
        notePagePainted(pdf);
        onPainted(pageNumber);
      } catch (error) {
        // A cancelled render, or a page fetch cut off because the document closed, is what we asked for.
        if (signal.aborted || error instanceof RenderingCancelledException) return;
        onError(pageNumber, error instanceof Error ? error : new Error(String(error)));
      }
    });
  }, [pdf, pageNumber, width, height, devicePixelRatio, queue, onPainted, onError]);

  return <div ref={host} className="signet-page-canvas" />;
}
