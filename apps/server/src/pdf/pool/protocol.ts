import type { ErrorCode, ErrorDetails } from '@signet/contract';
import type { PdfSignatureCheck } from '../../sealing/signing/verify-pdf.js';
import type { SealInput } from '../../sealing/types.js';
import type { ImageCheckInput, ImageCheckResult } from '../../submissions/decode-image.js';
import type { DocumentPreview } from '../../storage/types.js';
import type { PdfInfo } from '../inspect.js';

/** The PDF tasks a worker runs: what each takes besides the PDF (`input`) and what it returns (`result`). */
export interface PdfTasks {
  /** Checks an upload and counts its pages (`inspectPdf`). */
  inspect: { input: undefined; result: PdfInfo };
  /** Draws page 1 (`renderPreview`). */
  preview: { input: undefined; result: DocumentPreview };
  /** Draws a submission's values and the audit trail into the PDF and signs it (`sealPdf`): the sealed bytes. */
  seal: { input: SealInput; result: Uint8Array };
  /** Checks each signature of a PDF against the bytes it covers (`verifyPdfSignatures`). */
  verify: { input: undefined; result: PdfSignatureCheck[] };
  /**
   * Decodes a submitted image (its bytes in place of the PDF) and normalises one over what a seal may decode
   * (`decodeSubmittedImage`): its size, and the seal's copy when it made one.
   */
  image: { input: ImageCheckInput; result: ImageCheckResult };
}
export type PdfTaskKind = keyof PdfTasks;
export type PdfTaskInput<K extends PdfTaskKind> = PdfTasks[K]['input'];
export type PdfTaskResult<K extends PdfTaskKind> = PdfTasks[K]['result'];

/** Parent → worker. */
export type TaskRequest = {
  [K in PdfTaskKind]: { id: number; kind: K; pdf: Uint8Array; input: PdfTaskInput<K> };
}[PdfTaskKind];

/** How a task failed inside the worker. */
export type TaskFailure =
  | { kind: 'api'; code: ErrorCode; message: string; status: number; details: ErrorDetails | undefined }
  | { kind: 'limit'; limit: 'memory' | 'image'; message: string }
  | { kind: 'seal'; message: string; retryable: boolean }
  | { kind: 'failed'; message: string };

/** Worker → parent: a task's outcome; `exit` when the worker stops after it (its PDFium may be broken). */
export type TaskReply =
  | { id: number; ok: true; value: PdfTaskResult<PdfTaskKind>; exit?: boolean }
  | { id: number; ok: false; error: TaskFailure; exit?: boolean };
