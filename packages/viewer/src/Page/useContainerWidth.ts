import { useLayoutEffect, useState } from 'react';

/**
 * The element's inner width (without its scrollbar), measured on every resize, and read during the render in which
 * the element first arrives: waiting for the layout effect's measurement would cost a render pass before the first
 * page can be laid out.
 * @example const width = useContainerWidth(scrollElement);
 */
export function useContainerWidth(element: HTMLElement | null): number {
  const [measured, setMeasured] = useState<{ element: HTMLElement | null; width: number }>({ element: null, width: 0 });
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => {
      const width = element.clientWidth;
      setMeasured((previous) => (previous.element === element && previous.width === width ? previous : { element, width }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  if (!element) return 0;
  return measured.element === element ? measured.width : element.clientWidth;
}
