/**
 * The text tags' task in the PDF pool (docs/decisions.md, "The PDF pool runs registered tasks"): finding and
 * removing the tags of an upload runs in a worker process, never on the event loop.
 */
import type { PdfTaskDefinitions } from '../../pdf/pool/index.js';
import type { TextTagsResult } from './apply-tags.js';

declare module '../../pdf/pool/tasks.js' {
  interface PdfTasks {
    /** Turns an upload's text tags into fields and removes them from its pages (`applyTextTagsToPdf`). */
    textTags: { input: undefined; result: TextTagsResult };
  }
}

/** Loaded on first use: a worker that never sees `tags: true` never loads it. */
export const textTagPdfTasks = {
  textTags: {
    load: async () => {
      const { applyTextTagsToPdf } = await import('./apply-tags.js');
      return (pdf) => applyTextTagsToPdf(pdf);
    },
  },
} satisfies PdfTaskDefinitions;
