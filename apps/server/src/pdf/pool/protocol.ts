import type { ErrorCode, ErrorDetails } from '@signet/contract';
import type { DocumentPreview } from '../../storage/types.js';
import type { PdfInfo } from '../inspect.js';

/** The PDF tasks a worker runs, with what each returns. */
export interface PdfTasks {
  /** Checks an upload and counts its pages (`inspectPdf`). */
  inspect: PdfInfo;
  /** Draws page 1 (`renderPreview`). */
  preview: DocumentPreview;
}
export type PdfTaskKind = keyof PdfTasks;

/** Parent → worker. */
export interface TaskRequest {
  id: number;
  kind: PdfTaskKind;
  pdf: Uint8Array;
}

/** How a task failed inside the worker. */
export type TaskFailure =
  | { kind: 'api'; code: ErrorCode; message: string; status: number; details: ErrorDetails | undefined }
  | { kind: 'limit'; limit: 'memory' | 'image'; message: string }
  | { kind: 'failed'; message: string };

/** Worker → parent: a task's outcome; `exit` when the worker stops after it (its PDFium may be broken). */
export type TaskReply =
  | { id: number; ok: true; value: PdfTasks[PdfTaskKind]; exit?: boolean }
  | { id: number; ok: false; error: TaskFailure; exit?: boolean };
