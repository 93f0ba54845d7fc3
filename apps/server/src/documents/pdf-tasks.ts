/**
 * The documents' tasks in the PDF pool: an upload's check (`inspect`) and its page-1 preview (`preview`), each run
 * in a worker process, never on the event loop (docs/decisions.md, "The PDF pool runs registered tasks").
 */
import type { PdfInfo } from '../pdf/inspect.js';
import type { PdfTaskDefinitions } from '../pdf/pool/index.js';
import type { PagePreview } from '../pdf/preview.js';

declare module '../pdf/pool/tasks.js' {
  interface PdfTasks {
    /** Checks an upload and counts its pages (`inspectPdf`). */
    inspect: { input: undefined; result: PdfInfo };
    /** Draws page 1 (`renderPreview`). */
    preview: { input: undefined; result: PagePreview };
  }
}

/** The handlers a worker loads for `inspect` and `preview`, as it starts: every worker runs them. */
export const documentPdfTasks = {
  inspect: {
    load: async () => {
      const { inspectPdf } = await import('../pdf/inspect.js');
      return (pdf) => inspectPdf(pdf);
    },
    preload: true,
  },
  preview: {
    load: async () => {
      const { renderPreview } = await import('../pdf/preview.js');
      return (pdf, _input, context) => renderPreview(pdf, context.preview);
    },
    preload: true,
    // A PDFium failure may leave the instance broken: the worker exits after it.
    exitOnFailure: true,
  },
} satisfies PdfTaskDefinitions;
