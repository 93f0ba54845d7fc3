import { useLayoutEffect, useState } from 'react';

/**
 * The element's inner width (without its scrollbar), measured before the first paint and on every resize.
 * @example const width = useContainerWidth(scrollElement);
 */
export function useContainerWidth(element: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return width;
}
