import { cleanup, render, waitFor } from '@testing-library/react';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import { StrictMode, createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { readPageGeometry } from '../pdf/page-geometry.js';
import { sharedPdfWorker } from '../pdf/pdf-worker.js';
import type { PdfDocumentState } from '../pdf/usePdfDocument.js';
import { MAX_LIVE_CANVASES, PdfPages, type PdfPagesHandle } from './PdfPages.js';
import { MAX_CANVAS_PIXELS } from './render-page.js';
import { pageCss } from './styles.js';
import { bandPdf, documentUrlOf, Harness, inkRatio, nextFrame, pageBox, renderedCanvas, type HarnessProps } from './test-harness.js';

const ratioDescriptor = Object.getOwnPropertyDescriptor(window, 'devicePixelRatio');
function setDevicePixelRatio(value: number) {
  Object.defineProperty(window, 'devicePixelRatio', { value, configurable: true });
}
afterEach(() => {
  cleanup();
  if (ratioDescriptor) Object.defineProperty(window, 'devicePixelRatio', ratioDescriptor);
});

const LETTER = 612 / 792;

async function mount(pages: number, props: Partial<HarnessProps> = {}) {
  const url = await documentUrlOf(await commands.createDocument({ pages }));
  const painted: number[] = [];
  const scales: number[] = [];
  const states: PdfDocumentState[] = [];
  const element = (extra: Partial<HarnessProps> = {}) => (
    <Harness
      url={url}
      onPagePainted={(n) => painted.push(n)}
      onScaleChange={(scale) => scales.push(scale)}
      onState={(state) => states.push(state)}
      {...props}
      {...extra}
    />
  );
  const view = render(element());
  return { url, view, painted, scales, states, rerender: (extra: Partial<HarnessProps>) => view.rerender(element(extra)) };
}

const untilPainted = (pageNumber: number, timeout = 15_000) =>
  waitFor(() => expect(renderedCanvas(pageNumber)).toBeTruthy(), { timeout }).then(() => renderedCanvas(pageNumber)!);

describe('PdfPages', () => {
  it('lays out every page at its aspect ratio before drawing, then draws the text of the pages in view', async () => {
    // 700 px high: page 3 (at about 2,000 px) is past the drawn zone (one viewport below) but has its box (two).
    await mount(3, { height: 700 });
    await waitFor(() => expect(document.querySelectorAll('[data-page-number]')).toHaveLength(3), { timeout: 15_000 });

    for (const n of [1, 2, 3]) {
      const { width, height } = pageBox(n).getBoundingClientRect();
      expect(width / height).toBeCloseTo(LETTER, 2);
    }
    const canvas = await untilPainted(1);
    expect(inkRatio(canvas)).toBeGreaterThan(0.01);
    expect(pageBox(1).hasAttribute('data-painted')).toBe(true);
    // Page 3 is more than a viewport below: no canvas, a skeleton.
    expect(pageBox(3).querySelector('canvas')).toBeNull();
    expect(pageBox(3).hasAttribute('data-painted')).toBe(false);
  });

  it('gives the canvas a backing store of CSS size × devicePixelRatio', async () => {
    setDevicePixelRatio(2);
    await mount(1);
    const canvas = await untilPainted(1);
    const box = pageBox(1);
    expect(canvas.width).toBe(box.offsetWidth * 2);
    expect(canvas.height).toBe(box.offsetHeight * 2);
  });

  it('caps the backing store at 16,777,216 pixels', async () => {
    setDevicePixelRatio(8);
    await mount(1, { zoom: 3 });
    const canvas = await untilPainted(1);
    const box = pageBox(1);
    expect(box.offsetWidth * box.offsetHeight * 64).toBeGreaterThan(MAX_CANVAS_PIXELS);
    expect(canvas.width * canvas.height).toBeLessThanOrEqual(MAX_CANVAS_PIXELS);
    expect(canvas.width * canvas.height).toBeGreaterThan(MAX_CANVAS_PIXELS * 0.99);
    expect(canvas.width / canvas.height).toBeCloseTo(LETTER, 2);
  });

  // 300 pages drawn in software: WebKitGTK on Xvfb needs more than the suite's 30 s when the machine is busy, and
  // took more than 90 s on a CI machine running at half its speed.
  it('scrolls a 300-page document end to end with few live canvases and page boxes, and paints the last page', async () => {
    const pinnedPages = new Set([1]);
    const { painted, states } = await mount(300, { zoom: 0.5, height: 600, pinnedPages });
    await untilPainted(1);
    let peak = 0;
    let peakBoxes = 0;
    const observer = new MutationObserver(() => {
      peak = Math.max(peak, document.querySelectorAll('canvas').length);
      peakBoxes = Math.max(peakBoxes, document.querySelectorAll('[data-page-number]').length);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const scroller = document.querySelector<HTMLElement>('.signet-pages')!;
    try {
      while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1) {
        // Three viewports: the zone that holds canvases (the viewport and one above and below) meets every page.
        scroller.scrollTop += 3 * scroller.clientHeight;
        await nextFrame();
        await nextFrame();
      }
      await untilPainted(300);
    } finally {
      observer.disconnect();
    }
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(MAX_LIVE_CANVASES);
    expect(painted).toContain(300);
    // Five viewports of boxes (two above, two below) at about 2.5 pages each, and the pinned page.
    expect(peakBoxes).toBeGreaterThan(3);
    expect(peakBoxes).toBeLessThanOrEqual(16);
    expect(document.querySelector('[data-page-number="2"]')).toBeNull();
    // The pinned page keeps its box, without a canvas: its skeleton is back.
    expect(pageBox(1).querySelector('canvas')).toBeNull();
    expect(pageBox(1).hasAttribute('data-painted')).toBe(false);
    // The pages and their order come back on the way up.
    scroller.scrollTop = 0;
    await untilPainted(2);
    const order = [...document.querySelectorAll('[data-page-number]')].map((box) => Number(box.getAttribute('data-page-number')));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.slice(0, 3)).toEqual([1, 2, 3]);
    // The list was shown with page 1's size standing in for the others, then every page was measured.
    const firstReady = states.find((state) => state.status === 'ready')!;
    expect(firstReady.pages).toHaveLength(300);
    expect(firstReady.progress).toBe(1);
    await waitFor(() => expect(states.at(-1)!.pagesMeasured).toBe(true));
  }, 180_000);

  it('resizes and redraws the pages on zoom, keeping the page at the top in place', async () => {
    const pagesRef = createRef<PdfPagesHandle>();
    const { rerender, scales } = await mount(3, { pagesRef });
    const before = await untilPainted(2);
    pagesRef.current!.scrollToPage(2);
    const scroller = document.querySelector<HTMLElement>('.signet-pages')!;
    const offset = () => pageBox(2).getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    const width = pageBox(2).offsetWidth;
    expect(Math.abs(offset())).toBeLessThanOrEqual(16);

    rerender({ zoom: 2, pagesRef });

    expect(pageBox(2).offsetWidth).toBeGreaterThanOrEqual(2 * width - 1);
    expect(pageBox(2).offsetWidth).toBeLessThanOrEqual(2 * width + 1);
    expect(Math.abs(offset())).toBeLessThanOrEqual(32);
    await waitFor(() => expect(renderedCanvas(2)?.width).toBe(pageBox(2).offsetWidth), { timeout: 15_000 });
    expect(renderedCanvas(2)).not.toBe(before);
    expect(before.width).toBe(0); // the old bitmap was released
    expect(pageBox(2).querySelectorAll('canvas')).toHaveLength(1);
    expect(scales.at(-1)! / scales[0]!).toBeCloseTo(2, 5);
  });

  it('places overlay content by page percentages at every zoom', async () => {
    const overlay = (page: { pageNumber: number }) =>
      page.pageNumber === 1 ? <i data-testid="marker" style={{ position: 'absolute', left: '25%', top: '50%' }} /> : null;
    const { rerender, scales } = await mount(1, { renderOverlay: overlay });
    for (const zoom of [1, 1.5]) {
      rerender({ zoom, renderOverlay: overlay });
      await waitFor(() => expect(renderedCanvas(1)?.width).toBe(pageBox(1).offsetWidth), { timeout: 15_000 });
      const canvas = renderedCanvas(1)!.getBoundingClientRect();
      const marker = document.querySelector('[data-testid="marker"]')!.getBoundingClientRect();
      const scale = scales.at(-1)!;
      expect(Math.abs(marker.left - canvas.left - 0.25 * 612 * scale)).toBeLessThanOrEqual(1);
      expect(Math.abs(marker.top - canvas.top - 0.5 * 792 * scale)).toBeLessThanOrEqual(1);
      expect(Math.abs(marker.left - canvas.left - 0.25 * canvas.width)).toBeLessThanOrEqual(0.5);
    }
  });

  it('honours the page’s own rotation', async () => {
    const task = getDocument({ data: bandPdf(200, 100, 90), worker: sharedPdfWorker() });
    try {
      const pdf: PDFDocumentProxy = await task.promise;
      const pages = [readPageGeometry(await pdf.getPage(1))];
      render(
        <div className="signet-viewer" style={{ height: 600, width: 400 }}>
          <style>{pageCss}</style>
          <PdfPages pdf={pdf} pages={pages} zoom={1} />
        </div>,
      );
      const canvas = await untilPainted(1);
      expect(canvas.height / canvas.width).toBeCloseTo(2, 1);
      // The band on the unrotated page's left quarter is at the top once turned 90° clockwise.
      const { width, height } = canvas;
      expect(inkRatio(canvas, { x: 0, y: 0, width, height: Math.floor(height * 0.2) })).toBeGreaterThan(0.95);
      expect(inkRatio(canvas, { x: 0, y: Math.ceil(height * 0.3), width, height: Math.floor(height * 0.65) })).toBeLessThan(0.01);
    } finally {
      cleanup();
      await task.destroy();
    }
  });

  it('releases canvases and closes the document on unmount, also in Strict Mode', async () => {
    const url = await documentUrlOf(await commands.createDocument({ pages: 2 }));
    const states: PdfDocumentState[] = [];
    const view = render(
      <StrictMode>
        <Harness url={url} onState={(state) => states.push(state)} />
      </StrictMode>,
    );
    const canvas = await untilPainted(1);
    expect(pageBox(1).querySelectorAll('canvas')).toHaveLength(1);
    const pdf = states.find((state) => state.pdf)!.pdf!;

    view.unmount();

    expect(document.querySelectorAll('canvas')).toHaveLength(0);
    expect(canvas.width * canvas.height).toBe(0);
    await waitFor(() => expect(pdf.loadingTask.destroyed).toBe(true));
  });

  it('drops a load that is still running when unmounted', async () => {
    const url = await documentUrlOf(await commands.createDocument({ pages: 2 }));
    const states: PdfDocumentState[] = [];
    const view = render(<Harness url={url} onState={(state) => states.push(state)} />);
    view.unmount();
    // Nothing may arrive afterwards (no state update, no unhandled rejection from the aborted load).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(states.every((state) => state.status === 'loading')).toBe(true);
  });
});
