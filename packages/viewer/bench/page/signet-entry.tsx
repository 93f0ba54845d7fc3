import { createRoot } from 'react-dom/client';
import { SigningViewer } from '../../src/index.js';
import { pagesInView } from './page-dom.js';
import type { BenchParams, MountedViewer } from './protocol.js';

/**
 * The seam the bench measures Signet through: `<SigningViewer>` exactly as a host page mounts it (it fetches the
 * document through the API client, then the PDF by ranges).
 *
 * - firstPaint: from `mount` until page 1 is on screen: the paint time Chromium reports (Element Timing) for page
 *   1's preview image, or `pageDrawn` if pdf.js is first (no preview on the server, or a slow image).
 * - pageDrawn: from `mount` until page 1 carries `data-painted` (pdf.js's finished bitmap is on screen).
 * - interactive: a text field of page 1 accepts input (in the DOM, on page 1 or on its preview image, neither
 *   read-only nor disabled), and then the main thread has yielded once (the next animation frame, then a
 *   macrotask), so an input event would be handled. Now the fields are on the preview before pdf.js has
 *   drawn anything.
 * @example const { firstPaint, interactive } = mount(document.getElementById('root')!, params);
 */
export function mount(root: HTMLElement, params: BenchParams): MountedViewer {
  const start = performance.now();
  performance.mark('bench-mount'); // for BENCH_TRACE
  const firstPaint = deferred<number>();
  const pageDrawn = deferred<number>();
  const interactive = deferred<number | null>();
  let painted = false;
  let signalled = false;
  let shown = false;
  const show = (at: number) => {
    if (shown) return;
    shown = true;
    performance.mark('bench-paint', { startTime: at });
    firstPaint.resolve(at - start);
  };

  // The preview's paint as the compositor reports it (its server sends Timing-Allow-Origin, so the cross-origin
  // image's renderTime is given).
  const paints = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { identifier?: string; renderTime?: number }>) {
      if (entry.identifier === 'signet-page-preview' && entry.renderTime) show(entry.renderTime);
    }
  });
  paints.observe({ type: 'element', buffered: false });

  const check = () => {
    if (!painted && root.querySelector('[data-page-number="1"][data-painted]')) {
      painted = true;
      const at = performance.now();
      pageDrawn.resolve(at - start);
      show(at);
    }
    if (!signalled && root.querySelector(PAGE_1_TEXT_FIELD)) {
      signalled = true;
      requestAnimationFrame(() => setTimeout(() => interactive.resolve(performance.now() - start), 0));
    }
    if (painted && signalled) observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-painted'] });

  const reactRoot = createRoot(root);
  reactRoot.render(
    <SigningViewer
      {...params}
      className="bench-viewer"
      onError={(error) => {
        firstPaint.reject(error);
        pageDrawn.reject(error);
        interactive.reject(error);
      }}
    />,
  );
  const scroller = () => root.querySelector<HTMLElement>('.signet-pages');
  return {
    firstPaint: firstPaint.promise,
    pageDrawn: pageDrawn.promise,
    interactive: interactive.promise,
    scroller,
    viewDrawn: () => pagesInView(scroller()!, '[data-page-number]').every((page) => page.hasAttribute('data-painted')),
    lastPageDrawn: () => Boolean(scroller()?.querySelector('[data-page-number]:last-child[data-painted]')),
    unmount: () => {
      observer.disconnect();
      paints.disconnect();
      reactRoot.unmount();
    },
  };
}

/** A text field of page 1 that takes input, whether page 1 is pdf.js's page or the server's preview image. */
const PAGE_1_TEXT_FIELD =
  ':is([data-page-number="1"], [data-preview-page="1"]) input[type="text"][data-signet-field]:not([readonly]):not([disabled])';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
