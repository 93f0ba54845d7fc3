import { useEffect, useLayoutEffect, type RefObject } from 'react';
import { viewerCss } from './styles.js';

type StyleRoot = Document | ShadowRoot;

// One sheet per document: a constructed sheet may only be adopted by the document it was made in (and that
// document's shadow roots), so a viewer inside an iframe or a popup gets a sheet of its own window.
const sheets = new WeakMap<Document, CSSStyleSheet>();
// How many mounted viewers use each root's styles: the last to unmount takes them away again.
const users = new WeakMap<StyleRoot, { count: number; element?: HTMLStyleElement }>();

function isDocument(root: StyleRoot): root is Document {
  return root.nodeType === 9;
}

function sheetFor(document: Document): CSSStyleSheet {
  let sheet = sheets.get(document);
  if (!sheet) {
    const view = document.defaultView as (Window & typeof globalThis) | null;
    sheet = new (view?.CSSStyleSheet ?? CSSStyleSheet)();
    sheet.replaceSync(viewerCss);
    sheets.set(document, sheet);
  }
  return sheet;
}

/** Whether `root` can take constructed stylesheets (not Safari before 16.4, nor old Chromium and Firefox). */
function canAdopt(root: StyleRoot): boolean {
  return 'adoptedStyleSheets' in root && 'replaceSync' in CSSStyleSheet.prototype;
}

/**
 * Gives `root` (the document, or the shadow root a viewer renders in) the viewer's styles, once however many viewers
 * it holds, and returns the function that takes them away again. A constructed stylesheet in `adoptedStyleSheets`
 * is not inline style, so a page whose Content-Security-Policy has `style-src 'self'` without 'unsafe-inline' still
 * applies it; browsers without constructable stylesheets get a `<style>` element instead.
 * @example useLayoutEffect(() => adoptViewerStyles(element.getRootNode() as Document | ShadowRoot), []);
 */
export function adoptViewerStyles(root: StyleRoot): () => void {
  const use = users.get(root) ?? { count: 0 };
  users.set(root, use);
  if (use.count++ === 0) {
    const document = isDocument(root) ? root : root.ownerDocument;
    if (canAdopt(root)) {
      const sheet = sheetFor(document);
      if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    } else {
      use.element = document.createElement('style');
      use.element.dataset.signetViewer = '';
      use.element.textContent = viewerCss;
      (isDocument(root) ? root.head : root).append(use.element);
    }
  }
  return () => {
    if (--use.count > 0) return;
    if (use.element) {
      use.element.remove();
      use.element = undefined;
    } else {
      const sheet = sheets.get(isDocument(root) ? root : root.ownerDocument);
      root.adoptedStyleSheets = root.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    }
  };
}

// On a server rendering the page there is no layout (and React 18 warns about layout effects there).
const useClientLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Adopts the viewer's styles into the root the element of `ref` is rendered in: the document, or the shadow root of
 * a custom element (`@signet/embed`), where the document's styles do not reach. Applied before the first paint.
 * @example const root = useRef<HTMLDivElement>(null); useViewerStyles(root);
 */
export function useViewerStyles(ref: RefObject<HTMLElement | null>): void {
  useClientLayoutEffect(() => {
    const root = ref.current?.getRootNode();
    // A document, or a shadow root (a fragment with a host); not a detached element.
    if (root?.nodeType === 9 || (root?.nodeType === 11 && 'host' in root)) return adoptViewerStyles(root as StyleRoot);
  }, [ref]);
}
