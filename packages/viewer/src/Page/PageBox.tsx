import type { PDFDocumentProxy } from 'pdfjs-dist';
import { memo, type ReactNode } from 'react';
import type { PageGeometry } from '../pdf/page-geometry.js';
import type { PageBox as Box } from './page-layout.js';
import { PageCanvas } from './PageCanvas.js';
import { PreviewImage } from './PreviewImage.js';
import type { RenderQueue } from './render-queue.js';

export interface PageBoxProps {
  pdf: PDFDocumentProxy;
  geometry: PageGeometry;
  box: Box;
  cssScale: number;
  /** Near the viewport: holds a canvas. */
  live: boolean;
  devicePixelRatio: number;
  queue: RenderQueue;
  label: string | undefined;
  /** A stable ref callback for every page box (see `useNearPages`). */
  observe: (element: HTMLElement | null) => void;
  renderOverlay: ((page: PageGeometry, cssScale: number) => ReactNode) | undefined;
  /** URL of a decoded image of this page (page 1's server preview), shown under the canvas until it is painted. */
  preview: string | undefined;
  onPainted: (pageNumber: number) => void;
  onError: (pageNumber: number, error: Error) => void;
}

/**
 * One page's box, at its true aspect ratio whether or not it is drawn: a skeleton (or the page's preview image)
 * until a bitmap is shown, the canvas while the page is near the viewport, and the caller's overlay on top. Memoised: scrolling changes only
 * the boxes whose `live` flips. Kept lean (no hooks): a long document has hundreds of them.
 * @example <PageBox pdf={pdf} geometry={page} box={layout.boxes[0]} live … />
 */
export const PageBox = memo(function PageBox(props: PageBoxProps) {
  const { pdf, geometry, box, cssScale, live, queue, observe, renderOverlay } = props;
  const { pageNumber } = geometry;
  const overlay = renderOverlay?.(geometry, cssScale);

  // `data-painted` (which hides the skeleton) is set by PageCanvas on this element: no state per page here.
  return (
    <div
      ref={observe}
      className="signet-page"
      data-page-number={pageNumber}
      role="group"
      aria-label={props.label}
      style={box /* exactly top, left, width, height: one object per page, not one per render */}
    >
      {props.preview ? <PreviewImage src={props.preview} /> : null}
      {live ? (
        <PageCanvas
          pdf={pdf}
          pageNumber={pageNumber}
          width={box.width}
          height={box.height}
          devicePixelRatio={props.devicePixelRatio}
          queue={queue}
          onPainted={props.onPainted}
          onError={props.onError}
        />
      ) : null}
      {overlay != null && overlay !== false ? <div className="signet-page-overlay">{overlay}</div> : null}
    </div>
  );
});
