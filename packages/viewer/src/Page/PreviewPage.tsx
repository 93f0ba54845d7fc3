import { PREVIEW_PIXELS_PER_POINT } from '@signet/contract';
import { useState, type ReactNode } from 'react';
import type { PageGeometry } from '../pdf/page-geometry.js';
import { cssScaleFor, layoutPages } from './page-layout.js';
import type { PagePreview } from './page-preview.js';
import { PreviewImage } from './PreviewImage.js';
import { useContainerWidth } from './useContainerWidth.js';

export interface PreviewPageProps {
  preview: PagePreview;
  /** As `PdfPages`' zoom: 1 fits the page to the container's width. */
  zoom: number;
  /**
   * Page 1's fields, over the image: called with the page's size in points (the preview's at its pixels a point)
   * and the CSS pixels a point, as `PdfPages` calls it, so that they stay in place when pdf.js's page replaces it.
   */
  renderOverlay?: (page: PageGeometry, cssScale: number) => ReactNode;
}

/**
 * Page 1 as the server's preview image, while pdf.js is still opening the document: laid out exactly where
 * `PdfPages` will put page 1 (same padding, centring and zoom, its aspect ratio the image's), so that the switch to
 * the drawn page does not move anything. `PageBox` keeps the same image under page 1's canvas until the canvas is
 * painted.
 * @example preview ? <PreviewPage preview={preview} zoom={zoom} /> : <LoadProgress … />
 */
export function PreviewPage({ preview, zoom, renderOverlay }: PreviewPageProps) {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const containerWidth = useContainerWidth(element);
  const page = { pageNumber: 1, width: preview.width, height: preview.height, rotation: 0 };
  const layout = layoutPages([page], cssScaleFor([page], containerWidth, zoom), containerWidth);
  const box = layout.scale > 0 ? layout.boxes[0] : undefined;
  return (
    <div ref={setElement} className="signet-pages" data-preview="true">
      <div className="signet-pages-track" style={{ width: layout.width, height: layout.height }}>
        {box && (
          <div className="signet-page" data-preview-page="1" data-painted="preview" aria-busy="true" style={box}>
            <PreviewImage src={preview.src} />
            {renderOverlay?.(
              { pageNumber: 1, width: preview.width / PREVIEW_PIXELS_PER_POINT, height: preview.height / PREVIEW_PIXELS_PER_POINT, rotation: 0 },
              box.height / (preview.height / PREVIEW_PIXELS_PER_POINT),
            )}
          </div>
        )}
      </div>
    </div>
  );
}
