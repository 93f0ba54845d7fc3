import './iterator-global.js'; // before pdf.js: see iterator-global.ts
import { PDFDataRangeTransport } from 'pdfjs-dist';

/**
 * The file request was answered with an HTTP error (e.g. 403 for an expired or forged document token).
 * @example if (error instanceof PdfResponseError && error.status === 403) showExpiredLinkMessage();
 */
export class PdfResponseError extends Error {
  override name = 'PdfResponseError';
  constructor(readonly status: number) {
    // No URL in the message: Signet's file URL carries its access token.
    super(`The PDF request failed with HTTP ${status}`);
  }
}

/** The start of a file, and how long the whole file is. */
export interface FirstChunk {
  length: number;
  data: Uint8Array;
  /** True when `data` is the whole file (small file, or a server that ignores ranges). */
  complete: boolean;
}

interface FetchOptions {
  headers?: Record<string, string> | undefined;
  signal: AbortSignal;
}

/**
 * Asks for bytes [begin, end) of `url`. The answer is 206 with those bytes, or 200 with the whole file from a server
 * that ignores `Range`; any other status is a `PdfResponseError`.
 */
async function fetchRange(url: string, begin: number, end: number, { headers, signal }: FetchOptions): Promise<Response> {
  const response = await fetch(url, { headers: { ...headers, Range: `bytes=${begin}-${end - 1}` }, signal });
  if (response.status !== 200 && response.status !== 206) throw new PdfResponseError(response.status);
  return response;
}

/**
 * Fetches bytes [0, chunkSize) and learns the file's length from `Content-Range`, so that the document opens with
 * range requests only (pdf.js's own loader starts with a full GET that it aborts, by which time a fast connection
 * has carried much of the file).
 * @example const first = await fetchFirstChunk(url, 131072, { signal });
 */
export async function fetchFirstChunk(url: string, chunkSize: number, options: FetchOptions): Promise<FirstChunk> {
  const response = await fetchRange(url, 0, chunkSize, options);
  const data = new Uint8Array(await response.arrayBuffer());
  const total = response.status === 206 ? Number(/\/(\d+)\s*$/.exec(response.headers.get('Content-Range') ?? '')?.[1]) : data.length;
  const length = Number.isFinite(total) && total > 0 ? total : data.length;
  return { length, data, complete: data.length >= length };
}

export interface FetchRangeTransportOptions {
  headers?: Record<string, string> | undefined;
  /** A range request failed; pdf.js has no way to hear of it, so whoever waits on the document must. */
  onError: (error: Error) => void;
}

/** Bytes [begin, end) of a file, asked for ahead of pdf.js. */
export interface Prefetch {
  begin: number;
  end: number;
  bytes: Promise<Uint8Array>;
}

/** Bytes [begin, end) of `url`; a server that ignores Range sends the whole file, and they are cut out of it. */
async function fetchBytes(url: string, begin: number, end: number, options: FetchOptions): Promise<Uint8Array> {
  const response = await fetchRange(url, begin, end, options);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return response.status === 200 ? bytes.subarray(begin, end) : bytes;
}

/**
 * Starts fetching bytes [begin, end) of `url`, for a `FetchRangeTransport` to answer pdf.js's requests from.
 * @example const tail = prefetchRange(url, 524288, 715950, { signal });
 */
export function prefetchRange(url: string, begin: number, end: number, options: FetchOptions): Prefetch {
  const bytes = fetchBytes(url, begin, end, options);
  bytes.catch(() => {}); // a request it would have answered reports the failure
  return { begin, end, bytes };
}

/**
 * Serves pdf.js's range requests with `fetch` (`Range: bytes=begin-end`), cancelled together by `abort()`, which
 * pdf.js calls when the document is destroyed. Ranges fetched ahead with `prefetch` answer the requests they cover.
 * @example getDocument({ range: new FetchRangeTransport(url, first, { onError }), disableAutoFetch: true, disableStream: true })
 */
export class FetchRangeTransport extends PDFDataRangeTransport {
  readonly #url: string;
  readonly #options: FetchRangeTransportOptions;
  readonly #controller = new AbortController();
  readonly #prefetched: Prefetch[] = [];

  constructor(url: string, first: FirstChunk, options: FetchRangeTransportOptions) {
    // progressiveDone: nothing more arrives except by range; pdf.js then reads the first chunk and stops waiting.
    super(first.length, first.data, true);
    this.#url = url;
    this.#options = options;
  }

  /**
   * Starts fetching bytes [begin, end) now. A PDF's cross-reference data and trailer are at its end, and pdf.js
   * asks for them, then for what they point to, one round trip after another, once its worker has started; fetching
   * the end while the worker boots takes those round trips off the first paint.
   */
  prefetch(begin: number, end: number): void {
    if (begin >= end) return;
    this.#prefetched.push(prefetchRange(this.#url, begin, end, this.#fetchOptions()));
  }

  /** Answers the requests that `ahead` covers from it: bytes fetched before this transport existed. */
  adopt(ahead: Prefetch): void {
    this.#prefetched.push(ahead);
  }

  /** Every request of this transport: its headers, and the signal that `abort()` fires. */
  #fetchOptions(): FetchOptions {
    return { headers: this.#options.headers, signal: this.#controller.signal };
  }

  override requestDataRange(begin: number, end: number): void {
    void this.#serve(begin, end);
  }

  override abort(): void {
    this.#controller.abort();
  }

  async #serve(begin: number, end: number): Promise<void> {
    const { signal } = this.#controller;
    try {
      const ahead = this.#prefetched.find((prefetch) => prefetch.begin <= begin && end <= prefetch.end);
      const bytes = ahead
        ? (await ahead.bytes).subarray(begin - ahead.begin, end - ahead.begin)
        : await fetchBytes(this.#url, begin, end, this.#fetchOptions());
      if (!signal.aborted) this.onDataRange(begin, bytes);
    } catch (error) {
      if (signal.aborted) return;
      this.#options.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/**
 * The last `chunks` whole chunks of a `length`-byte file (pdf.js fetches in chunks aligned to `chunkSize`), not
 * reaching into the first chunk, which the caller already has.
 * @example tailRange(715_950, 131_072, 2) // { begin: 524288, end: 715950 }
 */
export function tailRange(length: number, chunkSize: number, chunks: number): { begin: number; end: number } {
  const lastChunk = Math.floor((length - 1) / chunkSize);
  return { begin: Math.max(1, lastChunk - chunks + 1) * chunkSize, end: length };
}
