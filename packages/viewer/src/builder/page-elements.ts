/*
 * The pages as the builder finds them on screen: where the keyboard places a field and where a drop lands.
 */

/** A page on screen: one pdf.js draws, or page 1's preview image while pdf.js opens the file. */
export const PAGE_ELEMENTS = '.signet-page[data-page-number], .signet-page[data-preview-page]';

/** The number of the page `element` is (see `PAGE_ELEMENTS`), if it is one. */
export function pageNumberOf(element: HTMLElement): number | undefined {
  const number = element.dataset.pageNumber ?? element.dataset.previewPage;
  return number ? Number(number) : undefined;
}

/**
 * The page most of the viewport shows, and the centre of its visible part (page fractions): where the keyboard
 * places a field.
 */
export function currentPage(root: HTMLElement | null): { page: number; centre: { x: number; y: number } } | null {
  const scroller = root?.querySelector<HTMLElement>('.signet-pages');
  if (!scroller) return null;
  const view = scroller.getBoundingClientRect();
  let best: { page: number; centre: { x: number; y: number }; area: number } | null = null;
  for (const element of scroller.querySelectorAll<HTMLElement>(PAGE_ELEMENTS)) {
    const rect = element.getBoundingClientRect();
    const top = Math.max(rect.top, view.top);
    const bottom = Math.min(rect.bottom, view.bottom);
    const left = Math.max(rect.left, view.left);
    const right = Math.min(rect.right, view.right);
    const area = Math.max(0, bottom - top) * Math.max(0, right - left);
    if (area > 0 && (!best || area > best.area)) {
      const centre = { x: ((left + right) / 2 - rect.left) / rect.width, y: ((top + bottom) / 2 - rect.top) / rect.height };
      best = { page: pageNumberOf(element)!, centre, area };
    }
  }
  return best && { page: best.page, centre: best.centre };
}
