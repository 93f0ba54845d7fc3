import type { Context } from 'hono';
import { ApiError } from '../errors.js';
import { parseRange } from '../documents/range.js';
import type { AppEnv } from './env.js';
import { readDocumentContent } from '../storage/queries/document-files.js';

/** Size of the slices a whole-file response is streamed in. */
const STREAM_SLICE = 256 * 1024;

/** A stored file to answer with: its size, its strong ETag and how to read a span of it. */
export interface StoredFile {
  size: number;
  /** Quoted, strong. */
  etag: string;
  /** Bytes `start` to `end` inclusive. */
  read(start: number, end: number): Promise<Uint8Array>;
}

/**
 * `Content-Disposition` naming `filename` for every browser: an ASCII fallback and the UTF-8 name (RFC 6266).
 * @example contentDisposition('attachment', 'Lease – signed.pdf')
 */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Whether the request's `If-None-Match` names `etag` (then a 304 answers it): by weak comparison, as RFC 9110
 * §13.1.2 says (`W/"x"` matches `"x"`), and `*` matches, the file being there.
 * @example if (etagMatches(c, etag)) return c.body(null, 304);
 */
export function etagMatches(c: Context<AppEnv>, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return c.req.header('If-None-Match')?.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag)) ?? false;
}

/**
 * Answers with a stored PDF: 304 for a matching `If-None-Match`, 206 for one satisfiable `Range` (unless an
 * `If-Range` names another version), 416 for an unsatisfiable one, HEAD without a body, else the whole file
 * streamed a slice at a time. The caller has set `ETag`-independent headers (caching, disposition) already.
 * @example return sendStoredFile(c, { size, etag, read: (start, end) => readDocumentContent(storage.db.query, id, start, end) })
 */
export async function sendStoredFile(c: Context<AppEnv>, file: StoredFile): Promise<Response> {
  const { size, etag } = file;
  c.header('Content-Type', 'application/pdf');
  c.header('Accept-Ranges', 'bytes');
  c.header('ETag', etag);
  if (etagMatches(c, etag)) return c.body(null, 304);

  const ifRange = c.req.header('If-Range');
  const range = ifRange && ifRange !== etag ? null : parseRange(c.req.header('Range'), size);
  if (range === 'unsatisfiable') {
    throw new ApiError('VALIDATION_ERROR', 'Range not satisfiable', {
      status: 416,
      details: { field: 'Range', reason: `the file has ${size} bytes` },
      headers: { 'Content-Range': `bytes */${size}` },
    });
  }
  if (c.req.method === 'HEAD') {
    c.header('Content-Length', String(range ? range.end - range.start + 1 : size));
    if (range) c.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    return c.body(null, range ? 206 : 200);
  }
  if (range) {
    const bytes = await file.read(range.start, range.end);
    c.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    c.header('Content-Length', String(bytes.byteLength));
    return c.body(bytes as Uint8Array<ArrayBuffer>, 206);
  }
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= size) return controller.close();
      const end = Math.min(offset + STREAM_SLICE, size) - 1;
      controller.enqueue(await file.read(offset, end));
      offset = end + 1;
    },
  });
  c.header('Content-Length', String(size));
  return c.body(stream, 200);
}
