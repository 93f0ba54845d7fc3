import { PDF } from '@libpdf/core';
import { validationError } from '../errors.js';

/** What Signet needs to know about an uploaded PDF. */
export interface PdfInfo {
  pageCount: number;
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
/** Readers (pdf.js, Acrobat) accept a header anywhere in the first kilobyte; so does Signet. */
const HEADER_SEARCH_BYTES = 1024;

function headerOffset(bytes: Uint8Array): number {
  const last = Math.min(bytes.length, HEADER_SEARCH_BYTES) - PDF_MAGIC.length;
  for (let start = 0; start <= last; start++) {
    if (PDF_MAGIC.every((byte, i) => bytes[start + i] === byte)) return start;
  }
  return -1;
}

/**
 * Checks that `bytes` are a PDF that can be read (not encrypted, at least one page) and counts its pages.
 * Anything else is a 400 `VALIDATION_ERROR` with `details.field` `file`.
 * @example const { pageCount } = await inspectPdf(await readFile('contract.pdf'))
 */
export async function inspectPdf(bytes: Uint8Array): Promise<PdfInfo> {
  if (bytes.length === 0) throw validationError('file', 'the file is empty');
  if (headerOffset(bytes) < 0) throw validationError('file', 'not a PDF (no %PDF- header)');

  let pdf: PDF;
  let pageCount: number;
  try {
    // @libpdf/core reads the cross-reference table and walks the page tree only: objects are parsed (and their
    // streams inflated) when something asks for them. A damaged table falls back to scanning the objects.
    pdf = await PDF.load(bytes);
    pageCount = pdf.getPageCount();
  } catch {
    throw validationError('file', 'the PDF cannot be parsed (damaged or not a PDF)');
  }
  if (pdf.isEncrypted) throw validationError('file', 'the PDF is encrypted or password-protected');
  if (pageCount < 1) throw validationError('file', 'the PDF has no pages');
  return { pageCount };
}
