/**
 * The sealing's tasks in the PDF pool: drawing and signing a seal (`seal`) and checking a PDF's signatures
 * (`verify`, `pades`), and how a `SealError` crosses from the worker to the seal's caller with its `retryable`
 * (docs/decisions.md, "The PDF pool runs registered tasks").
 */
import type { PdfTaskDefinitions, PdfTaskErrorCodec } from '../pdf/pool/index.js';
import { SealError } from './errors.js';
import type { PadesReport } from '@signet/contract';
import type { SignedPdf } from './signing/sign-pdf.js';
import type { PdfSignatureCheck } from './signing/verify-pdf.js';
import type { SealInput } from './types.js';

declare module '../pdf/pool/tasks.js' {
  interface PdfTasks {
    /** Draws a submission's values and the audit trail into the PDF and signs it (`sealPdfAtLevel`). */
    seal: { input: SealInput; result: SignedPdf };
    /** Checks each signature of a PDF against the bytes it covers (`verifyPdfSignatures`). */
    verify: { input: undefined; result: PdfSignatureCheck[] };
    /** What a PDF's PAdES signature proves from the file alone (`padesReport`). */
    pades: { input: undefined; result: PadesReport | null };
  }
}

/** The handlers a worker loads for `seal` and `verify`, on first use: a worker that only inspects never loads them. */
export const sealingPdfTasks = {
  seal: {
    load: async () => {
      const { sealPdfAtLevel } = await import('./seal-pdf.js');
      return (pdf, input) => sealPdfAtLevel(pdf, input);
    },
  },
  verify: {
    load: async () => {
      const { verifyPdfSignatures } = await import('./signing/verify-pdf.js');
      return (pdf) => verifyPdfSignatures(pdf);
    },
  },
  pades: {
    load: async () => {
      const { padesReport } = await import('./signing/pades-report.js');
      return (pdf) => padesReport(pdf);
    },
  },
} satisfies PdfTaskDefinitions;

/** A `SealError` thrown in a worker reaches the pool's caller as a `SealError`, its `retryable` kept. */
export const sealErrorCodec: PdfTaskErrorCodec = {
  code: 'seal',
  encode: (error) => (error instanceof SealError ? { retryable: error.retryable } : undefined),
  decode: (message, data) => new SealError(message, { retryable: (data as { retryable: boolean }).retryable }),
};
