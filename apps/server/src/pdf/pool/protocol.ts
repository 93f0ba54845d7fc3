import type { ErrorCode, ErrorDetails } from '@signet/contract';

/** Parent → worker: a task by name, with its PDF (or other bytes) and its input. */
export interface TaskRequest {
  id: number;
  kind: string;
  pdf: Uint8Array;
  input: unknown;
}

/** How a task failed inside the worker. */
export type TaskFailure =
  | { kind: 'api'; code: ErrorCode; message: string; status: number; details: ErrorDetails | undefined }
  | { kind: 'limit'; limit: 'memory' | 'image'; message: string }
  /** A domain's own error, encoded by its codec (`PdfTaskErrorCodec`) under `code`. */
  | { kind: 'task'; code: string; message: string; data: unknown }
  | { kind: 'failed'; message: string };

/** Worker → parent: a task's outcome; `exit` when the worker stops after it (its PDFium may be broken). */
export type TaskReply =
  | { id: number; ok: true; value: unknown; exit?: boolean }
  | { id: number; ok: false; error: TaskFailure; exit?: boolean };
