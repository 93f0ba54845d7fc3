import type { FieldDefinition } from '@signet/contract';
import { refusingFile, type PdfPool } from '../../pdf/pool/index.js';

/**
 * Imports a PDF's AcroForm fields (`formFields: "import"` on an upload; docs/form-fields.md): each text, checkbox,
 * radio group, combo or list box and signature field becomes a Signet field definition with its name, place, options,
 * value and flags, and the PDF comes back without its form (no `/AcroForm`, no widget annotations), so the signer
 * sees Signet's fields only and the seal draws each value once. A PDF without a form comes back unchanged, with no
 * fields. The work runs in the PDF pool; a PDF the pool stops at its time or memory limit, or whose form is over the
 * import's limits, is a 422 `VALIDATION_ERROR` on `file` naming the limit; a full pool answers 503.
 * @example const { bytes, fields } = await importFormFields(pdfPool, upload)
 */
export function importFormFields(pdfPool: PdfPool, bytes: Uint8Array): Promise<{ bytes: Uint8Array; fields: FieldDefinition[] }> {
  return refusingFile(() => pdfPool.run('formImport', bytes), {
    cannot: "the PDF's form fields cannot be imported",
    failed: 'its form could not be read',
  });
}
