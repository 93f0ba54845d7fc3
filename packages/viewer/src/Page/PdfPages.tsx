import type { PDFDocumentProxy } from 'pdfjs-dist';
import {
  forwardRef,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { PageGeometry } from '../pdf/page-geometry.js';
import { PageBox } from './PageBox.js';
import type { PagePreview } from './page-preview.js';
import { cssScaleFor, layoutPages, pagesAround } from './page-layout.js';
import { RenderQueue } from './render-queue.js';
import { useLatest } from '../useLatest.js';
import { useContainerWidth } from './useContainerWidth.js';
import { useDevicePixelRatio } from './useDevicePixelRatio.js';
import { useMountedPages } from './useMountedPages.js';
import { useNearPages } from './useNearPages.js';
import { useScrollAnchor } from './useScrollAnchor.js';

/** At most this many pages hold a canvas at once, however long the document. */
export const MAX_LIVE_CANVASES = 8;

export interface PdfPagesProps {
  pdf: PDFDocumentProxy;
  /** Every page's geometry (from `usePdfDocument`); the boxes are laid out from it before anything is drawn. */
  pages: PageGeometry[];
  /** 1 fits the widest page to the container's width; 2 is twice that. */
  zoom: number;
  /**
   * Content drawn over a page, in a box that covers it exactly (`position: absolute; inset: 0`), so CSS percentages
   * are fractions of the page. Called for every page on every layout change: keep it stable (`useCallback`) and cheap.
   */
  renderOverlay?: (page: PageGeometry, cssScale: number) => ReactNode;
  /** A page's bitmap is on screen (first paint, and again after each redraw at a new zoom). */
  onPagePainted?: (pageNumber: number) => void;
  /** CSS pixels per PDF point, whenever it changes (zoom, container resize). */
  onScaleChange?: (cssScale: number) => void;
  /** A page failed to draw (a damaged page). Without a handler the error is logged. */
  onPageError?: (pageNumber: number, error: Error) => void;
  /**
   * Pages whose boxes stay mounted wherever the scroll is: those whose overlay holds something the keyboard must
   * reach (form fields). Other pages' boxes exist only within two viewports of the visible area. Keep it stable.
   */
  pinnedPages?: ReadonlySet<number>;
  /**
   * A decoded image of page 1 (the server's preview, see `usePagePreview`), shown in page 1's box until its canvas
   * is painted, and again whenever page 1 has no canvas.
   */
  firstPagePreview?: PagePreview | null;
  /** Accessible name of the scrolling region, e.g. "Document". */
  label?: string;
  /** Accessible name of each page, e.g. (n, count) => `Page ${n} of ${count}`. */
  pageLabel?: (pageNumber: number, pageCount: number) => string;
  className?: string;
}

export interface PdfPagesHandle {
  /** Scrolls so that the page's top is at the top of the viewport. */
  scrollToPage(pageNumber: number): void;
}

/**
 * The scrolling list of a document's pages. It fills its parent and scrolls inside itself; the caller sizes the
 * parent and injects `pageCss` inside a `.signet-viewer` element. Every page is laid out at its true aspect ratio at
 * once (the scrollbar is right from the start), but only pages within two viewports of the visible area, and the
 * `pinnedPages`, have a box in the DOM; only pages within about a viewport are drawn (at most `MAX_LIVE_CANVASES`),
 * the one nearest the viewport's centre first, and pages that scroll far away give their canvas back. On zoom, the
 * page at the top stays at the top and pages are redrawn at the new size, showing the old bitmap stretched meanwhile.
 * @example
 * const pagesRef = useRef<PdfPagesHandle>(null);
 * <div className="signet-viewer" style={{ height: 600 }}>
 *   <style>{pageCss}</style>
 *   <PdfPages ref={pagesRef} pdf={pdf} pages={pages} zoom={zoom} renderOverlay={renderFields} />
 * </div>
 * pagesRef.current?.scrollToPage(3);
 */
export const PdfPages = forwardRef<PdfPagesHandle, PdfPagesProps>(function PdfPages(props, ref) {
  const { pdf, pages, zoom, renderOverlay, pageLabel } = props;
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const setScrollRef = useCallback((element: HTMLDivElement | null) => {
    scrollRef.current = element;
    setScrollElement(element);
  }, []);
  const containerWidth = useContainerWidth(scrollElement);
  const devicePixelRatio = useDevicePixelRatio();
  const scale = cssScaleFor(pages, containerWidth, zoom);
  const layout = useMemo(() => layoutPages(pages, scale, containerWidth), [pages, scale, containerWidth]);
  const { onScroll, reanchor, layoutRef } = useScrollAnchor(scrollRef, layout);

  // Distance of a page's centre from the viewport's centre: what to draw first, and which canvases to keep.
  const rank = useCallback((pageNumber: number) => {
    const box = layoutRef.current.boxes[pageNumber - 1];
    const element = scrollRef.current;
    if (!box || !element) return Infinity;
    return Math.abs(box.top + box.height / 2 - (element.scrollTop + element.clientHeight / 2));
  }, [layoutRef]);
  const estimate = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return [];
    return pagesAround(layoutRef.current, element, 1);
  }, [layoutRef]);
  // One queue for the list's lifetime: jobs carry their own document.
  const [queue] = useState(() => new RenderQueue(rank));
  useEffect(() => () => queue.cancelAll(), [queue]);
  const { live, observe } = useNearPages(scrollElement, { enabled: scale > 0, maxLive: MAX_LIVE_CANVASES, rank, estimate });
  const { mounted, update: updateMounted } = useMountedPages(scrollRef, layoutRef, layout, pages, props.pinnedPages, { initial: MAX_LIVE_CANVASES });
  const handleScroll = useCallback(() => {
    onScroll();
    updateMounted();
  }, [onScroll, updateMounted]);

  const callbacks = useLatest(props);
  const onPainted = useCallback((pageNumber: number) => callbacks.current.onPagePainted?.(pageNumber), [callbacks]);
  const onError = useCallback((pageNumber: number, error: Error) => {
    const handler = callbacks.current.onPageError;
    if (handler) handler(pageNumber, error);
    else console.error(`Signet: page ${pageNumber} could not be drawn`, error);
  }, [callbacks]);
  useEffect(() => {
    if (scale > 0) callbacks.current.onScaleChange?.(scale);
  }, [scale, callbacks]);

  useImperativeHandle(
    ref,
    () => ({
      scrollToPage(pageNumber) {
        const element = scrollRef.current;
        const { boxes, gap } = layoutRef.current;
        const box = boxes[Math.min(Math.max(1, Math.round(pageNumber)), boxes.length) - 1];
        if (!element || !box) return;
        element.scrollTop = pageNumber <= 1 ? 0 : box.top - gap / 2;
        // Anchor now: a zoom before the scroll event arrives must keep this page, not the previous one.
        reanchor();
        updateMounted();
      },
    }),
    [layoutRef, reanchor, updateMounted],
  );

  return (
    <div
      ref={setScrollRef}
      className={props.className ? `signet-pages ${props.className}` : 'signet-pages'}
      tabIndex={0}
      role={props.label ? 'region' : undefined}
      aria-label={props.label}
      onScroll={handleScroll}
    >
      {/* Keyed by document: a new document starts from fresh page boxes and canvases. */}
      <div key={pdf.loadingTask.docId} className="signet-pages-track" style={{ width: layout.width, height: layout.height }}>
        {mounted.map((geometry) => (
          <PageBox
            key={geometry.pageNumber}
            pdf={pdf}
            geometry={geometry}
            box={layout.boxes[geometry.pageNumber - 1]!}
            cssScale={scale}
            live={live.has(geometry.pageNumber)}
            devicePixelRatio={devicePixelRatio}
            queue={queue}
            label={pageLabel?.(geometry.pageNumber, pages.length)}
            observe={observe}
            renderOverlay={renderOverlay}
            preview={geometry.pageNumber === 1 ? props.firstPagePreview?.src : undefined}
            onPainted={onPainted}
            onError={onError}
          />
        ))}
      </div>
    </div>
  );
});
