import { useCallback, useLayoutEffect, useMemo, useState, type RefObject } from 'react';
import { pagesAround, type PageLayout } from './page-layout.js';

/** First and last page of the mounted window (inclusive); empty when `last < first`. */
type Range = readonly [first: number, last: number];

/**
 * The pages whose boxes are mounted: those within `reach` viewports above and below the visible part of
 * `scrollRef`, and the `pinned` ones wherever the scroll is (pages holding something the keyboard must reach, such as
 * form fields), in page order. A 2,000-page document keeps a few dozen boxes in the DOM, not 2,000; the track has
 * its full height from the layout, so nothing moves as boxes come and go. Nothing is mounted before the pages have a
 * size; then the first `initial` pages until the scroll element can be measured. Call `update` on every scroll
 * event; layout changes are followed by themselves.
 * @example const { mounted, update } = useMountedPages(scrollRef, layoutRef, layout, pages, pinned);
 */
export function useMountedPages<T extends { pageNumber: number }>(
  scrollRef: RefObject<HTMLElement | null>,
  layoutRef: RefObject<PageLayout>,
  layout: PageLayout,
  pages: readonly T[],
  pinned: ReadonlySet<number> | undefined,
  { reach = 2, initial = 8 } = {},
): { mounted: T[]; update: () => void } {
  const [range, setRange] = useState<Range>(() => [1, initial]);

  const update = useCallback(() => {
    const element = scrollRef.current;
    const current = layoutRef.current;
    let next: Range = [1, initial];
    if (element && element.clientHeight > 0 && current.scale > 0) {
      const within = pagesAround(current, element, reach);
      next = within.length > 0 ? [within[0]!, within[within.length - 1]!] : [1, 0];
    }
    setRange((previous) => (previous[0] === next[0] && previous[1] === next[1] ? previous : next));
  }, [scrollRef, layoutRef, reach, initial]);

  // Before paint, after the scroll anchor (declared earlier) has put the scroll position right for the new layout.
  useLayoutEffect(update, [layout, update]);

  // Nothing before the pages have a size: boxes and overlays laid out at zero would only be rendered again.
  const mounted = useMemo(
    () => (layout.scale > 0 ? pages.filter(({ pageNumber }) => (pageNumber >= range[0] && pageNumber <= range[1]) || pinned?.has(pageNumber)) : []),
    [pages, range, pinned, layout.scale],
  );
  return { mounted, update };
}
