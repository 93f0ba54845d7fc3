/**
 * The form import's task in the PDF pool (docs/form-fields.md): reading an upload's AcroForm fields and writing the
 * PDF without them runs in a worker process, never on the event loop (docs/decisions.md, "The PDF pool runs
 * registered tasks").
 */
import type { PdfTaskDefinitions } from '../../pdf/pool/index.js';
import type { FormImport } from './extract.js';

declare module '../../pdf/pool/tasks.js' {
  interface PdfTasks {
    /** Reads a PDF's form fields and removes its form (`extractFormFields`). */
    formImport: { input: undefined; result: FormImport };
  }
}

/** The handler a worker loads for `formImport`, on its first use: uploads without `formFields` never load it. */
export const formImportPdfTasks = {
  formImport: {
    load: async () => {
      const { extractFormFields } = await import('./extract.js');
      return (pdf) => extractFormFields(pdf);
    },
  },
} satisfies PdfTaskDefinitions;
