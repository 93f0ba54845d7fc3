import { SigningViewer, type SigningViewerProps } from '@signet/viewer';
import type { ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { eventCallbacks } from './events.js';

/** What `mount` renders: the `<SigningViewer>` props (its callbacks are optional: the element gets DOM events too). */
export type MountProps = Omit<SigningViewerProps, 'queryClient'>;

/** A viewer mounted by `mount`. */
export interface MountedViewer {
  /** Renders the viewer again with these props merged over the current ones. */
  update(props: Partial<MountProps>): void;
  /** Unmounts the viewer and empties the shadow root it rendered in. */
  unmount(): void;
}

// The layout around the viewer inside the shadow root. `:host` rules lose to the host page's rules for the element,
// so a page sizes it like any block (the viewer fills it; without a height it takes its 360 px minimum).
const HOST_CSS = ':host { display: block; } .signet-embed-root { height: 100%; }';
let hostSheet: CSSStyleSheet | undefined;

/** Adopts the sheet that lays the embedded root out inside `shadow` (once per root). */
export function adoptHostSheet(shadow: ShadowRoot): void {
  if (!('adoptedStyleSheets' in shadow)) return;
  hostSheet ??= new CSSStyleSheet();
  if (hostSheet.cssRules.length === 0) hostSheet.replaceSync(HOST_CSS);
  if (!shadow.adoptedStyleSheets.includes(hostSheet)) shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, hostSheet];
}

/**
 * Renders Signet's signing viewer into `element`'s shadow root (opened if the element has none), with its styles
 * inside that root, and dispatches the `signet:*` events (see `SignetEventMap`) on `element`. For frameworks that
 * do not work with custom elements; `<signet-signing-viewer>` is built on it.
 * @example
 * const viewer = mount(document.querySelector('#sign')!, { documentId: 'doc_…', apiKey: 'pk_live_…', baseUrl: 'https://sign.example.com' });
 * viewer.update({ locale: 'de' });
 * viewer.unmount();
 */
export function mount(element: HTMLElement, props: MountProps): MountedViewer {
  return mountInShadow(element, props, (current) => <SigningViewer {...current} {...eventCallbacks(element, current)} />);
}

/**
 * Renders `view(props)` into `element`'s shadow root (opened if the element has none) with Signet's styles adopted
 * there; `update` renders again with the props merged, `unmount` removes it. What `mount` and `mountBuilder` share.
 */
export function mountInShadow<Props>(element: HTMLElement, props: Props, view: (props: Props) => ReactElement) {
  const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  adoptHostSheet(shadow);
  const container = element.ownerDocument.createElement('div');
  container.className = 'signet-embed-root';
  shadow.append(container);
  const root = createRoot(container);
  let current = props;
  const render = () => root.render(view(current));
  render();
  return {
    update(next: Partial<Props>) {
      current = { ...current, ...next };
      render();
    },
    unmount() {
      root.unmount();
      container.remove();
    },
  };
}
