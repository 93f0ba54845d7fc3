import type { PageGeometry } from '../pdf/page-geometry.js';

/** Space between pages, in CSS pixels. */
export const PAGE_GAP = 16;

/** Where each page box sits in the scrolling track, in whole CSS pixels. */
export interface PageBox {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** The page list laid out at one scale: the single source of the boxes' positions, scrolling and anchoring. */
export interface PageLayout {
  /** CSS pixels per PDF point. 0 until the container has been measured. */
  scale: number;
  boxes: PageBox[];
  /** The track's size (pages plus padding): at least the container's width. */
  width: number;
  height: number;
  gap: number;
}

/**
 * Padding around the pages: narrower on phone-sized containers, where every pixel of page counts.
 * @example pagePadding(375) // 8
 */
export function pagePadding(containerWidth: number): number {
  return containerWidth < 600 ? 8 : 24;
}

/**
 * CSS pixels per PDF point at `zoom`, where zoom 1 fits the widest page to the container's width.
 * @example cssScaleFor([{ pageNumber: 1, width: 612, height: 792, rotation: 0 }], 660, 1) // 1 (660 - 2 × 24 = 612)
 */
export function cssScaleFor(pages: readonly PageGeometry[], containerWidth: number, zoom: number): number {
  const widest = pages.reduce((max, page) => Math.max(max, page.width), 0);
  const available = containerWidth - 2 * pagePadding(containerWidth);
  if (widest <= 0 || available <= 0 || !(zoom > 0)) return 0;
  return (available / widest) * zoom;
}

/**
 * Positions every page, centred, one below the other. Box sizes are rounded to whole pixels so that the canvas
 * backing store maps onto them without resampling and the boxes' positions are exact.
 * @example layoutPages(pages, 1.2, 1024).boxes[0] // { top: 24, left: …, width: 734, height: 950 }
 */
export function layoutPages(pages: readonly PageGeometry[], scale: number, containerWidth: number): PageLayout {
  const padding = pagePadding(containerWidth);
  const sizes = pages.map((page) => ({ width: Math.round(page.width * scale), height: Math.round(page.height * scale) }));
  const width = Math.max(containerWidth, sizes.reduce((max, size) => Math.max(max, size.width), 0) + 2 * padding);
  let top = padding;
  const boxes = sizes.map((size) => {
    const box = { top, left: Math.floor((width - size.width) / 2), ...size };
    top += size.height + PAGE_GAP;
    return box;
  });
  const height = boxes.length ? top - PAGE_GAP + padding : 0;
  return { scale, boxes, width, height, gap: PAGE_GAP };
}

/**
 * The index of the page at `y` (the page whose box or the gap below it contains `y`).
 * @example pageIndexAt(layout, element.scrollTop) // 0 at the top
 */
export function pageIndexAt(layout: PageLayout, y: number): number {
  const { boxes } = layout;
  let low = 0;
  let high = boxes.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (boxes[middle]!.top <= y) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Page numbers of the boxes that overlap [top, bottom).
 * @example pagesWithin(layout, 0, 900) // the pages in the first 900 px
 */
export function pagesWithin(layout: PageLayout, top: number, bottom: number): number[] {
  const within: number[] = [];
  for (let index = pageIndexAt(layout, top); index < layout.boxes.length; index++) {
    const box = layout.boxes[index]!;
    if (box.top >= bottom) break;
    if (box.top + box.height > top) within.push(index + 1);
  }
  return within;
}

/**
 * Page numbers of the boxes within `reach` viewports above and below the visible part of a scrolling element.
 * @example pagesAround(layout, scrollElement, 1) // the visible pages and a viewport's worth either side
 */
export function pagesAround(layout: PageLayout, viewport: { scrollTop: number; clientHeight: number }, reach: number): number[] {
  const { scrollTop, clientHeight } = viewport;
  return pagesWithin(layout, scrollTop - reach * clientHeight, scrollTop + (reach + 1) * clientHeight);
}

/** What stays put when the layout changes: a point of one page at the viewport's top, and the horizontal centre. */
export interface ScrollAnchor {
  index: number;
  /** The viewport's top as a fraction of that page's height (below 0 in the padding above it, above 1 in the gap). */
  fraction: number;
  /** The viewport's horizontal centre as a fraction of the track's width. */
  centerX: number;
}

/**
 * The anchor of a scroll position (null while nothing is laid out).
 * @example const anchor = anchorAt(layout, element.scrollTop, element.scrollLeft, element.clientWidth);
 */
export function anchorAt(layout: PageLayout, scrollTop: number, scrollLeft: number, viewportWidth: number): ScrollAnchor | null {
  const index = pageIndexAt(layout, scrollTop);
  const box = layout.boxes[index];
  if (!box || layout.scale <= 0 || box.height <= 0) return null;
  return { index, fraction: (scrollTop - box.top) / box.height, centerX: (scrollLeft + viewportWidth / 2) / layout.width };
}

/**
 * The scroll position that puts `anchor` back where it was, in a new layout.
 * @example const anchor = anchorAt(before, el.scrollTop, el.scrollLeft, el.clientWidth); el.scrollTop = scrollFor(after, anchor, el.clientWidth).top
 */
export function scrollFor(layout: PageLayout, anchor: ScrollAnchor, viewportWidth: number): { top: number; left: number } {
  const box = layout.boxes[Math.min(anchor.index, layout.boxes.length - 1)];
  if (!box) return { top: 0, left: 0 };
  return {
    top: Math.max(0, Math.round(box.top + anchor.fraction * box.height)),
    left: Math.max(0, Math.round(anchor.centerX * layout.width - viewportWidth / 2)),
  };
}
