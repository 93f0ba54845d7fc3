import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';
import { anchorAt, scrollFor, type PageLayout, type ScrollAnchor } from './page-layout.js';

/**
 * Keeps the same point of the same page at the top of `scrollRef` whenever `layout` changes (zoom, resize, page
 * sizes arriving). The anchor is taken on every scroll event, so it is the position before the change even though
 * the browser may already have clamped `scrollTop` to the new content. Returns the `onScroll` handler and `reanchor`,
 * for a scroll made in code that a layout change may follow before its scroll event arrives.
 * @example const { onScroll, reanchor } = useScrollAnchor(scrollRef, layout);
 */
export function useScrollAnchor(scrollRef: RefObject<HTMLElement | null>, layout: PageLayout) {
  const layoutRef = useRef(layout);
  const anchor = useRef<ScrollAnchor | null>(null);

  const reanchor = useCallback(() => {
    const element = scrollRef.current;
    if (element) anchor.current = anchorAt(layoutRef.current, element.scrollTop, element.scrollLeft, element.clientWidth);
  }, [scrollRef]);

  useLayoutEffect(() => {
    const previous = layoutRef.current;
    layoutRef.current = layout;
    const element = scrollRef.current;
    if (!element) return;
    if (previous !== layout && previous.scale > 0 && anchor.current) {
      const { top, left } = scrollFor(layout, anchor.current, element.clientWidth);
      element.scrollTop = top;
      element.scrollLeft = left;
    }
    reanchor();
  }, [layout, scrollRef, reanchor]);

  return { onScroll: reanchor, reanchor, layoutRef };
}
