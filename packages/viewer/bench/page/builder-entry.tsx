import { createRoot } from 'react-dom/client';
import { SigningBuilder } from '../../src/builder/index.js';
import { pagesInView } from './page-dom.js';
import type { BenchParams, MountedBuilder } from './protocol.js';

/**
 * The seam the bench measures the builder through: `<SigningBuilder>` exactly as a host page mounts it, on a draft
 * and a builder session key (it fetches the draft through the API client, then the PDF by ranges).
 *
 * - ready ("a field can be dropped"): from `mount` until the palette's first button is enabled (the builder enables
 *   it once page 1 is on screen) and page 1 is on screen to drop on, as the server's preview image (decoded) or as
 *   pdf.js's bitmap (`data-painted="true"`), whichever comes first, and then the main thread has yielded once (the
 *   next animation frame, then a macrotask), so a pointer event would be handled: the same yield as the viewer's
 *   `interactive`, which also counts page 1's fields on the preview image.
 * @example const { ready } = mountBuilder(document.getElementById('root')!, params);
 */
export function mount(root: HTMLElement, params: BenchParams): MountedBuilder {
  const start = performance.now();
  performance.mark('bench-mount');
  let resolveReady!: (at: number) => void;
  let rejectReady!: (error: Error) => void;
  const ready = new Promise<number>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  let signalled = false;
  const check = () => {
    if (signalled || !root.querySelector(READY_PALETTE) || !root.querySelector(PAGE_1_SHOWN)) return;
    signalled = true;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolveReady(performance.now() - start), 0));
  };
  const observer = new MutationObserver(check);
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-painted', 'disabled'] });

  const reactRoot = createRoot(root);
  // Snapping on (the default): a drag reads what is printed on the page and snaps as the author sees it.
  reactRoot.render(<SigningBuilder {...params} className="bench-builder" onError={(error) => rejectReady(error)} />);
  return {
    ready,
    fieldBox: (id) => {
      const box = root.querySelector<HTMLElement>(`[data-field-id="${CSS.escape(id)}"]`)?.getBoundingClientRect();
      return box ? { x: box.left, y: box.top, width: box.width, height: box.height } : null;
    },
    pageBox: (n) => {
      const box = root.querySelector<HTMLElement>(`.signet-page[data-page-number="${n}"]`)?.getBoundingClientRect();
      return box ? { x: box.left, y: box.top, width: box.width, height: box.height } : null;
    },
    viewDrawn: () => {
      const scroller = root.querySelector<HTMLElement>('.signet-pages');
      // pdf.js's pages, not the preview shown before it opens the file: at least one in view, and all of those drawn.
      const inView = scroller ? pagesInView(scroller, '.signet-page[data-page-number]') : [];
      return inView.length > 0 && inView.every((page) => page.getAttribute('data-painted') === 'true');
    },
    unmount: () => {
      observer.disconnect();
      reactRoot.unmount();
    },
  };
}

const READY_PALETTE = '.signet-palette-item:not([disabled])';
// Page 1 on screen: pdf.js's bitmap, the preview page shown before pdf.js opens the file, or the preview image under
// pdf.js's page 1 once it has opened (the builder renders a preview only once it is decoded).
const PAGE_1_SHOWN = [
  '.signet-page[data-page-number="1"][data-painted="true"]',
  '.signet-page[data-preview-page="1"]',
  '.signet-page[data-page-number="1"] img.signet-page-preview',
].join(', ');
