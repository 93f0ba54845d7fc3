import type { SdkDocument } from '@signet/contract';
import * as pdfjsLib from 'pdfjs-dist';
import workerSrc from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import 'pdfjs-dist/web/pdf_viewer.css';
import { pagesInView } from './page-dom.js';
import type { BenchParams, MountedViewer } from './protocol.js';

// pdf_viewer.mjs reads pdf.js from this global, so it must be set before that module runs.
(globalThis as { pdfjsLib?: unknown }).pdfjsLib = pdfjsLib;
const { EventBus, PDFLinkService, PDFViewer } = await import('pdfjs-dist/web/pdf_viewer.mjs');
pdfjsLib.GlobalWorkerOptions.workerSrc = workerSrc;

/**
 * pdf.js's own viewer component on the same document, the baseline. It gets what Signet gets (base URL, id and key)
 * and fetches the metadata for `documentUrl` the same way, then opens it with pdf.js's defaults (streaming, its
 * own worker) at page width. Its text layer is off, since Signet draws none: both do the same drawing work.
 *
 * - firstPaint and pageDrawn: from `mount` to the first `pagerendered` event (it shows nothing before).
 * - interactive: not defined for this viewer (null).
 */
export function mount(root: HTMLElement, params: BenchParams): MountedViewer {
  const start = performance.now();
  performance.mark('bench-mount'); // for BENCH_TRACE
  const container = document.createElement('div');
  container.style.cssText = 'position:absolute;inset:0;overflow:auto;background:#f1f3f5';
  const viewerElement = document.createElement('div');
  viewerElement.className = 'pdfViewer';
  container.append(viewerElement);
  root.append(container);

  const eventBus = new EventBus();
  const linkService = new PDFLinkService({ eventBus });
  const viewer = new PDFViewer({ container, viewer: viewerElement, eventBus, linkService, textLayerMode: 0 });
  linkService.setViewer(viewer);
  eventBus.on('pagesinit', () => {
    viewer.currentScaleValue = 'page-width';
  });
  const firstPaint = new Promise<number>((resolve) =>
    eventBus.on('pagerendered', () => (performance.mark('bench-paint'), resolve(performance.now() - start)), { once: true }),
  );
  const drawn = new Set<number>();
  eventBus.on('pagerendered', ({ pageNumber }: { pageNumber: number }) => drawn.add(pageNumber));

  let task: pdfjsLib.PDFDocumentLoadingTask | null = null;
  const opened = (async () => {
    const response = await fetch(`${params.baseUrl}/sdk/documents/${params.documentId}`, { headers: { 'X-API-Key': params.apiKey } });
    if (!response.ok) throw new Error(`GET document: HTTP ${response.status}`);
    // A plain fetch rather than Signet's API client, so that the baseline carries none of Signet's code.
    const { documentUrl } = (await response.json()) as SdkDocument;
    task = pdfjsLib.getDocument({ url: documentUrl });
    const pdf = await task.promise;
    viewer.setDocument(pdf);
    linkService.setDocument(pdf);
  })();

  const painted = Promise.race([firstPaint, opened.then(() => firstPaint)]);
  return {
    firstPaint: painted,
    pageDrawn: painted,
    interactive: opened.then(() => null),
    scroller: () => container,
    viewDrawn: () => pagesInView(container, '.page[data-page-number]').every((page) => drawn.has(Number(page.dataset.pageNumber))),
    lastPageDrawn: () => drawn.has(viewer.pagesCount),
    unmount: () => {
      viewer.cleanup();
      void task?.destroy();
      container.remove();
    },
  };
}
