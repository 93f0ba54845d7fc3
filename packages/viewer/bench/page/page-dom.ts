/** Page elements of `scroller` (matching `selector`) that overlap its visible area. */
export function pagesInView(scroller: HTMLElement, selector: string): HTMLElement[] {
  const view = scroller.getBoundingClientRect();
  return [...scroller.querySelectorAll<HTMLElement>(selector)].filter((page) => {
    const box = page.getBoundingClientRect();
    return box.bottom > view.top && box.top < view.bottom;
  });
}
