import type { FieldDefinition } from '@signet/contract';
import { ApiError, validationError } from '../../errors.js';
import { PdfLimitError, type PdfPool } from '../../pdf/pool/index.js';

/**
 * Imports a PDF's AcroForm fields (`formFields: "import"` on an upload; docs/form-fields.md): each text, checkbox,
 * radio group, combo or list box and signature field becomes a Signet field definition with its name, place, options,
 * value and flags, and the PDF comes back without its form (no `/AcroForm`, no widget annotations), so the signer
 * sees Signet's fields only and the seal draws each value once. A PDF without a form comes back unchanged, with no
 * fields. The work runs in the PDF pool; a PDF the pool stops at its time or memory limit, or whose form is over the
 * import's limits, is a 422 `VALIDATION_ERROR` on `file` naming the limit; a full pool answers 503.
 * @example const { bytes, fields } = await importFormFields(pdfPool, upload)
 */
export async function importFormFields(pdfPool: PdfPool, bytes: Uint8Array): Promise<{ bytes: Uint8Array; fields: FieldDefinition[] }> {
  try {
    return await pdfPool.run('formImport', bytes);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // Over a limit, or a worker that failed on this file: either way the file is what the uploader can change.
    const reason = error instanceof PdfLimitError ? error.message : 'its form could not be read';
    throw validationError('file', `the PDF's form fields cannot be imported within the server's limits: ${reason}`, 422);
  }
}
