/**
 * Text tags (docs/text-tags.md): `{{signature;signer=tenant;required}}` written in a PDF becomes a field on its box
 * and disappears from the stored PDF.
 */
import type { FieldDefinition } from '@signet/contract';
import { refusingFile, type PdfPool } from '../../pdf/pool/index.js';
import './pdf-tasks.js';

export { MAX_TAGS } from './apply-tags.js';
export { parseTag, type TextTag } from './grammar.js';

/**
 * Finds the text tags of an uploaded PDF in the PDF pool: the PDF without them, and their fields in document order.
 * A PDF without tags comes back as it was, with no fields. A malformed tag, more tags than a document may have
 * fields, or a PDF the pool stops at its time or memory limit: 422 `VALIDATION_ERROR` on `file` naming the page and
 * the tag, or the limit; a full pool: 503 (`PdfPoolBusyError`).
 * @example const { bytes, fields } = await applyTextTags(pool, upload) // fields: [{ id: 'signature_1', type: 'signature', … }]
 */
export function applyTextTags(pdfPool: PdfPool, bytes: Uint8Array): Promise<{ bytes: Uint8Array; fields: FieldDefinition[] }> {
  return refusingFile(() => pdfPool.run('textTags', bytes), {
    cannot: 'the PDF cannot be processed',
    failed: 'the PDF could not be read for text tags',
  });
}
