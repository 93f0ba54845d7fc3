import { useEffect, useLayoutEffect, type RefObject } from 'react';
import { viewerCss } from './styles.js';

type StyleRoot = Document | ShadowRoot;

// One sheet per document and style text: a constructed sheet may only be adopted by the document it was made in (and
// that document's shadow roots), so a viewer inside an iframe or a popup gets a sheet of its own window.
const sheets = new WeakMap<Document, Map<string, CSSStyleSheet>>();
// How many mounted components use each root's styles of one text: the last to unmount takes them away again.
const users = new WeakMap<StyleRoot, Map<string, { count: number; element?: HTMLStyleElement }>>();

function isDocument(root: StyleRoot): root is Document {
  return root.nodeType === 9;
}

function sheetFor(document: Document, css: string): CSSStyleSheet {
  let own = sheets.get(document);
  if (!own) sheets.set(document, (own = new Map()));
  let sheet = own.get(css);
  if (!sheet) {
    const view = document.defaultView as (Window & typeof globalThis) | null;
    sheet = new (view?.CSSStyleSheet ?? CSSStyleSheet)();
    sheet.replaceSync(css);
    own.set(css, sheet);
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
  return adoptStyles(root, viewerCss);
}

/** `adoptViewerStyles` for any style text (the builder's): one sheet per root and text, however many users. */
export function adoptStyles(root: StyleRoot, css: string): () => void {
  let own = users.get(root);
  if (!own) users.set(root, (own = new Map()));
  const use = own.get(css) ?? { count: 0 };
  own.set(css, use);
  if (use.count++ === 0) {
    const document = isDocument(root) ? root : root.ownerDocument;
    if (canAdopt(root)) {
      const sheet = sheetFor(document, css);
      if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    } else {
      use.element = document.createElement('style');
      use.element.dataset.signetViewer = '';
      use.element.textContent = css;
      (isDocument(root) ? root.head : root).append(use.element);
    }
  }
  return () => {
    if (--use.count > 0) return;
    if (use.element) {
      use.element.remove();
      use.element = undefined;
    } else {
      const sheet = sheets.get(isDocument(root) ? root : root.ownerDocument)?.get(css);
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
export function useViewerStyles(ref: RefObject<HTMLElement | null>, css: string = viewerCss): void {
  useClientLayoutEffect(() => {
    const root = ref.current?.getRootNode();
    // A document, or a shadow root (a fragment with a host); not a detached element.
    if (root?.nodeType === 9 || (root?.nodeType === 11 && 'host' in root)) return adoptStyles(root as StyleRoot, css);
  }, [ref, css]);
}
