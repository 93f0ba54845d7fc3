/**
 * Scrolls `scroller` so that `target` is shown whole, centred in what is visible of it when it was not (at its top
 * when taller than that): the page under the phone's step panel follows the field being filled in. Nothing moves
 * when it is already in view with `margin` CSS px to spare, so a signer who scrolled to read keeps their place.
 * @example revealInScroller(fieldElement, pagesElement, { behavior: 'smooth' });
 */
export function revealInScroller(
  target: Element,
  scroller: HTMLElement,
  { margin = 12, behavior = 'auto' }: { margin?: number; behavior?: ScrollBehavior } = {},
): void {
  const box = target.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  const top = view.top + scroller.clientTop;
  const left = view.left + scroller.clientLeft;
  const height = scroller.clientHeight;
  const width = scroller.clientWidth;
  const shown = (start: number, size: number, viewStart: number, viewSize: number) =>
    start >= viewStart + margin && start + size <= viewStart + viewSize - margin;
  const offset = (start: number, size: number, viewStart: number, viewSize: number) =>
    size > viewSize - 2 * margin ? start - viewStart - margin : start + size / 2 - (viewStart + viewSize / 2);
  const dy = shown(box.top, box.height, top, height) ? 0 : offset(box.top, box.height, top, height);
  const dx = shown(box.left, box.width, left, width) ? 0 : offset(box.left, box.width, left, width);
  if (dx !== 0 || dy !== 0) scroller.scrollTo({ top: scroller.scrollTop + dy, left: scroller.scrollLeft + dx, behavior });
}
