import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PDFiumLibrary, PDFiumPage } from '@hyzyla/pdfium';

/** A PDFium instance whose WebAssembly heap cannot grow past a limit. */
export interface CappedPdfium {
  library: PDFiumLibrary;
  /** Whether PDFium has asked for more memory than the limit since it was created. */
  overLimit(): boolean;
}

let compiled: Promise<WebAssembly.Module> | undefined;

/** PDFium's WebAssembly, compiled once a process and instantiated for each new PDFium. */
function pdfiumModule(): Promise<WebAssembly.Module> {
  compiled ??= readFile(createRequire(import.meta.url).resolve('@hyzyla/pdfium/pdfium.wasm')).then((bytes) =>
    WebAssembly.compile(bytes),
  );
  return compiled;
}

/**
 * A new PDFium whose heap stays under `heapLimitBytes`. Emscripten's PDFium grows its memory through the
 * `emscripten_resize_heap` import up to 2 GiB; this wraps that import to refuse growth past the limit, so that an
 * allocation over it fails inside PDFium (which then aborts) instead of taking the process's memory. A worker's
 * `resourceLimits` do not bound WebAssembly memory; this does. After an abort an instance is unusable: make another.
 * @example const { library, overLimit } = await createCappedPdfium(256 * 1024 * 1024)
 */
export async function createCappedPdfium(heapLimitBytes: number): Promise<CappedPdfium> {
  const [{ PDFiumLibrary }, module] = await Promise.all([import('@hyzyla/pdfium'), pdfiumModule()]);
  let refused = false;
  const library = await PDFiumLibrary.init({
    instantiateWasm(imports, receive) {
      const env = imports['env'] as Record<string, (size: number) => number>;
      const grow = env['emscripten_resize_heap']!;
      env['emscripten_resize_heap'] = (requested) => {
        if (requested >>> 0 > heapLimitBytes) {
          refused = true;
          return 0;
        }
        return grow(requested);
      };
      // Emscripten's callback takes the instance and its module, whatever the package's type says.
      const done = receive as unknown as (instance: WebAssembly.Instance, module: WebAssembly.Module) => void;
      void WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
      return {};
    },
  });
  return { library, overLimit: () => refused };
}

/** PDFium's raw functions that the package does not wrap, on the instance a page belongs to. */
interface RawPdfium {
  _malloc(size: number): number;
  _free(pointer: number): void;
  HEAP32: Int32Array;
  _FPDFPage_CountObjects(page: number): number;
  _FPDFPage_GetObject(page: number, index: number): number;
  _FPDFPageObj_GetType(object: number): number;
  _FPDFFormObj_CountObjects(form: number): number;
  _FPDFFormObj_GetObject(form: number, index: number): number;
  _FPDFImageObj_GetImagePixelSize(image: number, width: number, height: number): number;
}

const FPDF_PAGEOBJ_IMAGE = 3;
const FPDF_PAGEOBJ_FORM = 5;
/** Form XObjects nested deeper than this are not looked into (PDFium itself stops drawing them much earlier). */
const MAX_FORM_DEPTH = 32;

/**
 * The largest image on a page, in pixels (width × height as declared by the image, read without decoding it),
 * including images inside form XObjects. Lets a caller refuse to draw a page whose image alone would need gigabytes.
 * @example if (largestImagePixels(page) > 50_000_000) throw new Error('image too large')
 */
export function largestImagePixels(page: PDFiumPage): number {
  const internals = page as unknown as { module: RawPdfium; pageIdx: number };
  const raw = internals.module;
  const size = raw._malloc(8);
  let largest = 0;
  const visit = (count: number, objectAt: (index: number) => number, depth: number): void => {
    for (let index = 0; index < count; index++) {
      const object = objectAt(index);
      const type = raw._FPDFPageObj_GetType(object);
      if (type === FPDF_PAGEOBJ_IMAGE && raw._FPDFImageObj_GetImagePixelSize(object, size, size + 4)) {
        largest = Math.max(largest, (raw.HEAP32[size >> 2]! >>> 0) * (raw.HEAP32[(size >> 2) + 1]! >>> 0));
      } else if (type === FPDF_PAGEOBJ_FORM && depth < MAX_FORM_DEPTH) {
        visit(raw._FPDFFormObj_CountObjects(object), (i) => raw._FPDFFormObj_GetObject(object, i), depth + 1);
      }
    }
  };
  try {
    const page = internals.pageIdx;
    visit(raw._FPDFPage_CountObjects(page), (i) => raw._FPDFPage_GetObject(page, i), 0);
  } finally {
    raw._free(size);
  }
  return largest;
}
