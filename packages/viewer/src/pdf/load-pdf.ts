import './iterator-global.js'; // before pdf.js: see iterator-global.ts
import { getDocument, type PDFDocumentLoadingTask, type PDFDocumentProxy } from 'pdfjs-dist';
import { sharedPdfWorker } from './pdf-worker.js';
import { FetchRangeTransport, fetchFirstChunk, prefetchRange, tailRange, type FirstChunk, type Prefetch } from './range-transport.js';

export { configurePdfWorker, preloadPdfWorker } from './pdf-worker.js';
export { PdfResponseError } from './range-transport.js';

/**
 * Bytes per HTTP range request. pdf.js reads the trailer and cross-reference data at the end of a file and each
 * page's content where it lies, so a document opens with a few requests instead of a full download. 128 KiB
 * balances round trips against over-fetching (the server stores files in 256 KiB chunks, so a request never spans
 * more than two of them); a file no larger than this arrives whole with the first request.
 */
export const DEFAULT_RANGE_CHUNK_SIZE = 128 * 1024;

/**
 * Chunks at the end of the file fetched as soon as its length is known: the trailer and cross-reference data are
 * there, and in files that use object streams (most modern ones) the page dictionaries are usually just before.
 */
const TAIL_CHUNKS = 2;

/** What `prefetchPdf` asked for ahead of `loadPdf`: the first chunk, and the tail when the length was known. */
interface Ahead {
  first: Promise<FirstChunk>;
  tail: Prefetch | null;
}

/** Chunks asked for ahead of `loadPdf` (see `prefetchPdf`), by URL; taken by the load that needs them. */
const prefetched = new Map<string, Ahead>();
/** A prefetched chunk nobody takes (the viewer unmounted first) is dropped after this long. */
const PREFETCH_TTL_MS = 30_000;

/**
 * Starts opening the PDF at `url` before the component that shows it has rendered: the pdf.js worker boots and the
 * file's first chunk is requested, and with the file's `length` (the document's `fileSize`) its last chunks too, in
 * parallel rather than one round trip later; the `loadPdf` for that URL (with the default chunk size) picks them up.
 * The viewer calls it the moment the document's metadata arrives, which takes a React render and commit off the
 * path to the first page.
 * @example const document = await client.getDocument(id); prefetchPdf(document.documentUrl, document.metadata.fileSize);
 */
export function prefetchPdf(url: string, length?: number): void {
  if (prefetched.has(url)) return;
  sharedPdfWorker();
  const signal = AbortSignal.timeout(PREFETCH_TTL_MS);
  const first = fetchFirstChunk(url, DEFAULT_RANGE_CHUNK_SIZE, { signal });
  first.catch(() => {}); // the load that takes it reports the failure
  let tail: Prefetch | null = null;
  if (length !== undefined && length > DEFAULT_RANGE_CHUNK_SIZE) {
    const { begin, end } = tailRange(length, DEFAULT_RANGE_CHUNK_SIZE, TAIL_CHUNKS);
    tail = prefetchRange(url, begin, end, { signal });
  }
  const ahead = { first, tail };
  prefetched.set(url, ahead);
  setTimeout(() => prefetched.get(url) === ahead && prefetched.delete(url), PREFETCH_TTL_MS);
}

function takePrefetched(url: string, chunkSize: number, headers: Record<string, string> | undefined): Ahead | null {
  const ahead = prefetched.get(url);
  if (!ahead || chunkSize !== DEFAULT_RANGE_CHUNK_SIZE || headers) return null;
  prefetched.delete(url);
  return ahead;
}

export interface LoadPdfOptions {
  /** Loading progress in 0..1, or null while the total size is unknown; 1 once the document is open. */
  onProgress?: (progress: number | null) => void;
  /**
   * A part of the file could not be fetched after the document opened (say its token expired): pages that need it
   * cannot be drawn. Before the document opens, such a failure rejects `promise` instead.
   */
  onError?: (error: Error) => void;
  rangeChunkSize?: number;
  /** Extra request headers for the file (Signet's `documentUrl` needs none: its token is the capability). */
  httpHeaders?: Record<string, string>;
}

/** An opening PDF: its document once open, and `destroy` to abort the load or close the document. */
export interface PdfLoad {
  readonly promise: Promise<PDFDocumentProxy>;
  /** Aborts the network requests and frees the document in the worker. Safe to call more than once. */
  destroy(): Promise<void>;
}

/**
 * The fraction of the file loaded, or null when the server did not say how long it is.
 * @example progressFraction(50, 200) // 0.25
 */
export function progressFraction(loaded: number, total: number | undefined): number | null {
  if (!total || !Number.isFinite(total) || total <= 0) return null;
  return Math.min(1, Math.max(0, loaded / total));
}

/**
 * Opens a PDF from a URL with pdf.js, by HTTP range requests only: the first request asks for the first chunk and
 * learns the file's length, the last two chunks are then fetched at once (pdf.js starts reading there), and after
 * that pdf.js asks for the chunks it needs (no streaming, no pre-fetching), so opening a document, reading its page
 * sizes and drawing the pages on screen download only those parts. A file that fits in
 * the first chunk is simply handed over whole. Progress is the share of bytes fetched while opening, then 1 once
 * the document is open (a large file is never fetched whole, so its byte count would never reach the total).
 * HTTP errors reject with a `PdfResponseError` carrying the status.
 * @example
 * const load = loadPdf(documentUrl, { onProgress: (p) => console.log(p) });
 * const pdf = await load.promise;
 * // …later
 * await load.destroy();
 */
export function loadPdf(url: string | URL, options: LoadPdfOptions = {}): PdfLoad {
  const { onProgress, httpHeaders: headers } = options;
  const chunkSize = options.rangeChunkSize ?? DEFAULT_RANGE_CHUNK_SIZE;
  const controller = new AbortController();
  let task: PDFDocumentLoadingTask | null = null;
  let opened = false;
  let failOpening: (error: Error) => void = () => {};
  const openingFailed = new Promise<never>((_, reject) => (failOpening = reject));
  openingFailed.catch(() => {}); // only ever raced against the document

  const worker = sharedPdfWorker(); // booting while the first chunk is fetched
  const promise = (async () => {
    const ahead = takePrefetched(String(url), chunkSize, headers);
    const first = await (ahead?.first ?? fetchFirstChunk(String(url), chunkSize, { headers, signal: controller.signal }));
    controller.signal.throwIfAborted();
    onProgress?.(progressFraction(first.data.length, first.length));
    let range: FetchRangeTransport | null = null;
    if (!first.complete) {
      range = new FetchRangeTransport(String(url), first, {
        headers,
        onError: (error) => (opened ? options.onError?.(error) : failOpening(error)),
      });
      const tail = tailRange(first.length, chunkSize, TAIL_CHUNKS);
      // The prefetched tail serves only if the length it was computed from was the file's.
      if (ahead?.tail && ahead.tail.begin === tail.begin && ahead.tail.end === tail.end) range.adopt(ahead.tail);
      else range.prefetch(tail.begin, tail.end);
    }
    task = !range
      ? getDocument({ data: first.data, worker })
      : getDocument({
          range,
          worker,
          rangeChunkSize: chunkSize,
          disableStream: true,
          disableAutoFetch: true,
        });
    if (onProgress) task.onProgress = ({ loaded, total }: { loaded: number; total?: number }) => onProgress(progressFraction(loaded, total));
    const pdf = await Promise.race([task.promise, openingFailed]);
    opened = true;
    onProgress?.(1);
    return pdf;
  })();

  let destroying: Promise<void> | null = null;
  return {
    promise,
    destroy: () => {
      // Aborting was asked for: the load's rejection needs no handler of its own.
      promise.catch(() => {});
      controller.abort();
      return (destroying ??= task ? task.destroy() : Promise.resolve());
    },
  };
}
