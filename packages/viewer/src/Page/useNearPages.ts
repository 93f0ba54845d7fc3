import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface NearPagesOptions {
  /** Nothing is live while false (e.g. before the container has a width). */
  enabled: boolean;
  /** Most pages live at once; the nearest (lowest `rank`) win. */
  maxLive: number;
  rank: (pageNumber: number) => number;
  /**
   * The pages near the viewport as computed from the layout. Used once when the hook becomes enabled, before
   * paint, so the first pages start drawing without waiting a frame for the observer's first report.
   */
  estimate: () => number[];
}

const NONE: ReadonlySet<number> = new Set();

/**
 * Which pages are near enough to the viewport of `root` to hold a canvas: those within one viewport above or below
 * it (an IntersectionObserver with a 100 % root margin), at most `maxLive` of them. Page elements get `observe` as
 * their ref and must carry `data-page-number`.
 * @example const { live, observe } = useNearPages(scrollElement, { enabled: scale > 0, maxLive: 8, rank, estimate });
 */
export function useNearPages(root: HTMLElement | null, options: NearPagesOptions) {
  const elements = useRef(new Set<Element>());
  const near = useRef(new Set<number>());
  const observer = useRef<IntersectionObserver | null>(null);
  const latest = useRef(options);
  latest.current = options;
  const [live, setLive] = useState<ReadonlySet<number>>(NONE);

  const recompute = useCallback(() => {
    const { enabled, maxLive, rank } = latest.current;
    const chosen = enabled ? [...near.current].sort((a, b) => rank(a) - rank(b)).slice(0, maxLive) : [];
    setLive((previous) => (previous.size === chosen.length && chosen.every((n) => previous.has(n)) ? previous : new Set(chosen)));
  }, []);

  useEffect(() => {
    if (!root) return;
    const io = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const pageNumber = pageNumberOf(entry.target);
          if (entry.isIntersecting && entry.target.isConnected) near.current.add(pageNumber);
          else near.current.delete(pageNumber);
        }
        recompute();
      },
      { root, rootMargin: '100% 0px' },
    );
    observer.current = io;
    for (const element of elements.current) io.observe(element);
    return () => {
      io.disconnect();
      observer.current = null;
      near.current.clear();
    };
  }, [root, recompute]);

  useLayoutEffect(() => {
    if (options.enabled && near.current.size === 0) for (const pageNumber of latest.current.estimate()) near.current.add(pageNumber);
    recompute();
  }, [options.enabled, recompute]);

  /**
   * The ref callback of every page element: one stable function rather than a closure per page. It returns no
   * cleanup (React 18 warns about one and ignores it); an unmounting page calls it with null, and elements that
   * have left the document are dropped once the commit is done.
   */
  const observe = useCallback((element: HTMLElement | null) => {
    if (element) {
      elements.current.add(element);
      observer.current?.observe(element);
      return;
    }
    queueMicrotask(() => {
      for (const known of elements.current) {
        if (known.isConnected) continue;
        elements.current.delete(known);
        observer.current?.unobserve(known);
        near.current.delete(pageNumberOf(known));
      }
    });
  }, []);

  return { live, observe };
}

function pageNumberOf(element: Element): number {
  return Number(element.getAttribute('data-page-number'));
}
