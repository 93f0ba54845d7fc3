import { useLayoutEffect, useRef } from 'react';

/** Where a page's field layer is, in CSS pixels per PDF point and the page's height in points. */
export interface LayerGeometry {
  pageHeight: number;
  cssScale: number;
}

/**
 * A place for page 1's field layer, which is rendered once (a portal into `element`) and moved between the page's
 * hosts: the server's preview image while pdf.js starts, then pdf.js's page. The fields keep their DOM (and what is
 * typed into them, caret included); a field that had focus when its old host went away gets it back.
 * @example <LayerSlot element={page1Layer} geometry={{ pageHeight: 792, cssScale: 1.2 }} onGeometry={setGeometry} />
 */
export function LayerSlot({
  element,
  geometry,
  onGeometry,
}: {
  element: HTMLElement;
  geometry: LayerGeometry;
  onGeometry(geometry: LayerGeometry): void;
}) {
  const slot = useRef<HTMLDivElement>(null);
  const { pageHeight, cssScale } = geometry;
  useLayoutEffect(() => {
    if (element.parentNode !== slot.current) slot.current!.append(element);
    restoreFocus(element);
  }, [element]);
  useLayoutEffect(() => onGeometry({ pageHeight, cssScale }), [onGeometry, pageHeight, cssScale]);
  return <div ref={slot} className="signet-page-overlay" />;
}

/** The field of each layer that had focus, kept while its layer is between hosts. */
const lastFocus = new WeakMap<HTMLElement, HTMLElement>();

/** Follows the focus inside `element`, so that a move to another host can give it back. */
export function trackFocus(element: HTMLElement): () => void {
  const remember = (event: FocusEvent) => lastFocus.set(element, event.target as HTMLElement);
  // Focus moved elsewhere on purpose (one lost to a move falls to the body, with no related target).
  const forget = (event: FocusEvent) => event.relatedTarget && lastFocus.delete(element);
  element.addEventListener('focusin', remember);
  element.addEventListener('focusout', forget);
  return () => {
    element.removeEventListener('focusin', remember);
    element.removeEventListener('focusout', forget);
  };
}

/** Gives focus back to the field that lost it to the move (an input keeps its own caret and selection). */
function restoreFocus(element: HTMLElement): void {
  const field = lastFocus.get(element);
  const active = globalThis.document.activeElement;
  if (field && element.contains(field) && (!active || active === globalThis.document.body)) field.focus({ preventScroll: true });
}
