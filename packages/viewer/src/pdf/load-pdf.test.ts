import { getDocument } from 'pdfjs-dist';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { bandPdf, documentUrlOf, sdkDocumentOf } from '../Page/test-harness.js';
import { DEFAULT_RANGE_CHUNK_SIZE, loadPdf, prefetchPdf, progressFraction, type PdfLoad } from './load-pdf.js';
import { measurePages, mergeGeometries, placeholderGeometries, readPageGeometry, type PageGeometry } from './page-geometry.js';
import { firstPagePainted, notePagePainted } from './paint-signal.js';
import { sharedPdfWorker } from './pdf-worker.js';
import { tailRange } from './range-transport.js';

const loads: PdfLoad[] = [];
afterEach(async () => {
  await Promise.all(loads.splice(0).map((load) => load.destroy()));
});
function open(url: string, onProgress?: (progress: number | null) => void): PdfLoad {
  const load = loadPdf(url, onProgress ? { onProgress } : {});
  loads.push(load);
  return load;
}

describe('loadPdf', () => {
  it('opens a 300-page document by range requests and reports progress up to 1', async () => {
    const doc = await commands.createDocument({ pages: 300 });
    const url = await documentUrlOf(doc);
    await commands.takeRequests(doc.documentId);
    const progress: Array<number | null> = [];

    const pdf = await open(url, (value) => progress.push(value)).promise;

    expect(pdf.numPages).toBe(300);
    const fileRequests = (await commands.takeRequests(doc.documentId)).filter((request) => request.path.endsWith(`${doc.documentId}/file`));
    // Range requests only: the first asks for the first chunk (and learns the length), the rest for what pdf.js needs.
    expect(fileRequests.length).toBeGreaterThan(1);
    expect(fileRequests[0]!.range).toBe(`bytes=0-${DEFAULT_RANGE_CHUNK_SIZE - 1}`);
    expect(fileRequests.every((request) => request.range?.startsWith('bytes='))).toBe(true);
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((value) => value === null || (value >= 0 && value <= 1))).toBe(true);
  });

  it('a prefetched first chunk is taken by the load of that URL: it is fetched once', async () => {
    const doc = await commands.createDocument({ pages: 300 });
    const url = await documentUrlOf(doc);
    await commands.takeRequests(doc.documentId);

    prefetchPdf(url);
    const pdf = await open(url).promise;

    expect(pdf.numPages).toBe(300);
    const fileRequests = (await commands.takeRequests(doc.documentId)).filter((request) => request.path.endsWith('/file'));
    expect(fileRequests.filter((request) => request.range === `bytes=0-${DEFAULT_RANGE_CHUNK_SIZE - 1}`)).toHaveLength(1);
  });

  it('with the file length, the first chunk and the tail are prefetched at once, and the load takes both', async () => {
    const doc = await commands.createDocument({ pages: 300 });
    const { documentUrl: url, metadata } = await sdkDocumentOf(doc);
    await commands.takeRequests(doc.documentId);
    const tail = tailRange(metadata.fileSize, DEFAULT_RANGE_CHUNK_SIZE, 2);
    const ranges = async () =>
      (await commands.takeRequests(doc.documentId)).filter((request) => request.path.endsWith('/file')).map((request) => request.range);

    prefetchPdf(url, metadata.fileSize);
    // Both before any load: the tail does not wait for the first chunk's answer.
    const seen: Array<string | null> = [];
    const poll = async () => {
      seen.push(...(await ranges()));
      return seen;
    };
    await expect.poll(poll, { timeout: 10_000 }).toEqual(
      expect.arrayContaining([`bytes=0-${DEFAULT_RANGE_CHUNK_SIZE - 1}`, `bytes=${tail.begin}-${tail.end - 1}`]),
    );
    const pdf = await open(url).promise;
    expect(pdf.numPages).toBe(300);
    const later = await ranges();
    expect(later).not.toContain(`bytes=0-${DEFAULT_RANGE_CHUNK_SIZE - 1}`);
    expect(later).not.toContain(`bytes=${tail.begin}-${tail.end - 1}`);
  });

  it('a prefetch given a wrong length still opens the document: the load fetches the real tail', async () => {
    const doc = await commands.createDocument({ pages: 300 });
    const { documentUrl: url, metadata } = await sdkDocumentOf(doc);
    await commands.takeRequests(doc.documentId);

    prefetchPdf(url, metadata.fileSize + 3 * DEFAULT_RANGE_CHUNK_SIZE);
    const pdf = await open(url).promise;

    expect(pdf.numPages).toBe(300);
    const tail = tailRange(metadata.fileSize, DEFAULT_RANGE_CHUNK_SIZE, 2);
    const fileRequests = (await commands.takeRequests(doc.documentId)).filter((request) => request.path.endsWith('/file'));
    expect(fileRequests.map((request) => request.range)).toContain(`bytes=${tail.begin}-${tail.end - 1}`);
  });

  it('reads all 300 page geometries without fetching the pages themselves', async () => {
    const doc = await commands.createDocument({ pages: 300 });
    const { documentUrl: url, metadata } = await sdkDocumentOf(doc);
    await commands.takeRequests(doc.documentId);

    const pdf = await open(url).promise;
    const batches: PageGeometry[][] = [];
    const first = readPageGeometry(await pdf.getPage(1));
    await measurePages(pdf, { onBatch: (batch) => batches.push(batch) });

    const all = [first, ...batches.flat()];
    expect(all.map((page) => page.pageNumber)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(all.every((page) => page.width === 612 && page.height === 792 && page.rotation === 0)).toBe(true);
    // Page content streams fill most of the file; the page dictionaries sit together near its start, so only the
    // first chunk and the tail (the cross-reference table) are fetched: no range in between, where the pages' contents are.
    const ranges = (await commands.takeRequests(doc.documentId))
      .filter((request) => request.path.endsWith(`${doc.documentId}/file`))
      .map((request) => /bytes=(\d+)-(\d+)/.exec(request.range!)!.slice(1).map(Number) as [number, number]);
    const fetched = ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0);
    const tail = tailRange(metadata.fileSize, DEFAULT_RANGE_CHUNK_SIZE, 2);
    expect(fetched).toBeGreaterThan(0);
    expect(fetched).toBeLessThan(metadata.fileSize);
    expect(ranges.filter(([from, to]) => to >= DEFAULT_RANGE_CHUNK_SIZE && from < tail.begin)).toEqual([]);
  });

  it('rejects with the HTTP status of a refused file request', async () => {
    const doc = await commands.createDocument({ pages: 1 });
    await expect(open(`${doc.baseUrl}/sdk/documents/${doc.documentId}/file?token=forged`).promise).rejects.toMatchObject({
      name: 'PdfResponseError',
      status: 403,
    });
  });

  it('rejects with pdf.js’s error for a response that is not a PDF (request headers are sent)', async () => {
    const doc = await commands.createDocument({ pages: 1 });
    const load = loadPdf(`${doc.baseUrl}/sdk/documents/${doc.documentId}`, { httpHeaders: { 'X-API-Key': doc.apiKey } });
    loads.push(load);
    await expect(load.promise).rejects.toMatchObject({ name: 'InvalidPDFException' });
  });

  it('fetches a small file whole with its first request', async () => {
    const doc = await commands.createDocument({ pages: 1 });
    const url = await documentUrlOf(doc);
    await commands.takeRequests(doc.documentId);
    const progress: Array<number | null> = [];
    expect((await open(url, (value) => progress.push(value)).promise).numPages).toBe(1);
    const fileRequests = (await commands.takeRequests(doc.documentId)).filter((request) => request.path.endsWith(`${doc.documentId}/file`));
    expect(fileRequests).toHaveLength(1);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((value) => value === 1)).toBe(true);
  });

  it('closing one document leaves another that shares the worker working', async () => {
    const doc = await commands.createDocument({ pages: 2 });
    const url = await documentUrlOf(doc);
    const first = open(url);
    const second = open(url);
    await first.destroy();
    await expect(first.promise).rejects.toThrow();
    const pdf = await second.promise;
    expect((await pdf.getPage(2)).pageNumber).toBe(2);
    // And a document opened after the close works too.
    expect((await open(url).promise).numPages).toBe(2);
  });
});

describe('page geometry', () => {
  it('is the size as displayed, with the page’s own rotation', async () => {
    const task = getDocument({ data: bandPdf(200, 100, 90), worker: sharedPdfWorker() });
    try {
      const pdf = await task.promise;
      expect(readPageGeometry(await pdf.getPage(1))).toEqual({ pageNumber: 1, width: 100, height: 200, rotation: 90 });
    } finally {
      await task.destroy();
    }
  });

  it('placeholders take page 1’s size; merging keeps unchanged pages', () => {
    const first = { pageNumber: 1, width: 612, height: 792, rotation: 0 };
    const pages = placeholderGeometries(first, 3);
    expect(pages.map((page) => page.pageNumber)).toEqual([1, 2, 3]);
    expect(mergeGeometries(pages, [{ ...first, pageNumber: 2 }])).toBe(pages);
    const merged = mergeGeometries(pages, [{ pageNumber: 3, width: 792, height: 612, rotation: 90 }]);
    expect(merged[2]).toEqual({ pageNumber: 3, width: 792, height: 612, rotation: 90 });
    expect(merged[1]).toBe(pages[1]);
  });

  it('the tail fetched ahead is the last whole chunks, never the first one', () => {
    expect(tailRange(715_950, 131_072, 2)).toEqual({ begin: 262_144 * 2, end: 715_950 });
    expect(tailRange(300_000, 131_072, 2)).toEqual({ begin: 131_072, end: 300_000 });
    expect(tailRange(200_000, 131_072, 2)).toEqual({ begin: 131_072, end: 200_000 });
  });

  it('background work waits for the first paint of its document, or a timeout', async () => {
    const doc = await commands.createDocument({ pages: 1 });
    const pdf = await open(await documentUrlOf(doc)).promise;
    let waited = false;
    const waiting = firstPagePainted(pdf, 60_000).then(() => (waited = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(waited).toBe(false);
    notePagePainted(pdf);
    await waiting;
    expect(waited).toBe(true);
    // Another document that is never painted: the timeout lets the work go ahead.
    const other = await open(await documentUrlOf(doc)).promise;
    await firstPagePainted(other, 10);
  });

  it('progress is a fraction, or null when the size is unknown', () => {
    expect(progressFraction(50, 200)).toBe(0.25);
    expect(progressFraction(300, 200)).toBe(1);
    expect(progressFraction(10, undefined)).toBeNull();
    expect(progressFraction(10, 0)).toBeNull();
  });
});
