import type { PDFDocumentProxy } from 'pdfjs-dist';

interface Signal {
  promise: Promise<void>;
  resolve: () => void;
}

const signals = new WeakMap<PDFDocumentProxy, Signal>();

function signalOf(pdf: PDFDocumentProxy): Signal {
  let signal = signals.get(pdf);
  if (!signal) {
    let resolve!: () => void;
    const promise = new Promise<void>((res) => (resolve = res));
    signals.set(pdf, (signal = { promise, resolve }));
  }
  return signal;
}

/**
 * Records that a page of `pdf` is on screen. The page list calls it; background work on the same document waits for
 * it (see `firstPagePainted`), so that nothing competes with the first paint for the worker or the main thread.
 * @example notePagePainted(pdf)
 */
export function notePagePainted(pdf: PDFDocumentProxy): void {
  signalOf(pdf).resolve();
}

/**
 * Resolves once a page of `pdf` has been painted, or after `timeoutMs` (a document shown without Signet's page list
 * must not wait forever).
 * @example await firstPagePainted(pdf, 1000); startBackgroundWork();
 */
export function firstPagePainted(pdf: PDFDocumentProxy, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    void signalOf(pdf).promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Resolves when the main thread is idle (at most `timeoutMs` later): background work yields to drawing and input.
 * @example for (const batch of batches) { await whenIdle(); process(batch); }
 */
export function whenIdle(timeoutMs = 200): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 16);
  });
}
