import './iterator-global.js'; // before pdf.js: see iterator-global.ts
import { GlobalWorkerOptions, PDFWorker } from 'pdfjs-dist';

/** The port this module created (so that `configurePdfWorker` knows it may replace it). */
let ownPort: Worker | null = null;
let shared: PDFWorker | null = null;

/**
 * Makes pdf.js load its worker from `src` instead of the module worker that Signet's bundler emits. For hosts whose
 * bundler cannot handle `new Worker(new URL(…, import.meta.url))`: copy `pdfjs-dist/build/pdf.worker.min.mjs`
 * somewhere public and pass its URL. Call it before the first document loads; documents already open keep theirs.
 * @example configurePdfWorker('/static/pdf.worker.min.mjs')
 */
export function configurePdfWorker(src: string): void {
  GlobalWorkerOptions.workerSrc = src;
  if (ownPort && GlobalWorkerOptions.workerPort === ownPort) GlobalWorkerOptions.workerPort = null;
  ownPort = null;
  shared = null;
}

/**
 * The one pdf.js worker every Signet document shares, created on first use.
 *
 * Documents are opened with `getDocument({ worker: sharedPdfWorker() })` rather than through
 * `GlobalWorkerOptions.workerPort` alone: pdf.js lets a loading task destroy the `PDFWorker` it created itself, and
 * with a global port that instance is shared, so closing one document would break another that is still opening
 * (and a React Strict Mode remount would hit "the worker is being destroyed"). Passing the worker in keeps its
 * lifetime here; destroying a loading task still ends that document inside the worker.
 * @example const task = getDocument({ url, worker: sharedPdfWorker() })
 */
export function sharedPdfWorker(): PDFWorker {
  if (shared && !shared.destroyed) return shared;
  // A host that configured pdf.js itself (its own port or worker script) is respected.
  if (!GlobalWorkerOptions.workerPort && !GlobalWorkerOptions.workerSrc) {
    // The URL apart from `new Worker(…)`: Vite then copies pdf.js's own minified worker as an asset. Written as
    // `new Worker(new URL(…))`, Vite rebuilds it as a worker chunk, and the re-minified script took 30–60 ms longer
    // to boot (`pnpm bench:viewer` on two cores: about 255 ms against 195–225 ms).
    const workerUrl = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url);
    ownPort = new Worker(workerUrl, { type: 'module' });
    GlobalWorkerOptions.workerPort = ownPort;
  }
  shared = PDFWorker.create({ port: GlobalWorkerOptions.workerPort ?? undefined });
  return shared;
}

/**
 * Starts the shared pdf.js worker now, so that its ~1 MB script loads and compiles while other work (fetching the
 * document's metadata) goes on, rather than after the PDF's first bytes arrive. The viewer calls it when it mounts;
 * a host may call it earlier (before the viewer is on screen). Does nothing where there are no workers (a server
 * rendering the page).
 * @example useEffect(() => preloadPdfWorker(), []);
 */
export function preloadPdfWorker(): void {
  if (typeof Worker === 'undefined') return;
  sharedPdfWorker();
}
