import type { PreviewLimits } from '../preview.js';

/**
 * The tasks a PDF worker runs, by name: what each takes besides the PDF (`input`) and what it returns (`result`).
 * Empty here: the pool knows no task. Each domain adds its own from its side, by augmenting this interface in its
 * `pdf-tasks.ts` (documents: `inspect`, `preview`; sealing: `seal`, `verify`; submissions: `image`), where it also
 * names the handler the worker loads for each (docs/decisions.md, "The PDF pool runs registered tasks").
 * @example
 * declare module '../pdf/pool/tasks.js' {
 *   interface PdfTasks { verify: { input: undefined; result: PdfSignatureCheck[] } }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface PdfTasks {}

export type PdfTaskKind = keyof PdfTasks & string;
export type PdfTaskInput<K extends PdfTaskKind> = PdfTasks[K] extends { input: infer I } ? I : never;
export type PdfTaskResult<K extends PdfTaskKind> = PdfTasks[K] extends { result: infer R } ? R : never;

/** What every task of a worker is given besides its PDF and input: PDFium's caps, the same for the whole process. */
export interface PdfTaskContext {
  preview: PreviewLimits;
}

/** Runs one task inside a worker process. */
export type PdfTaskHandler<K extends PdfTaskKind> = (pdf: Uint8Array, input: PdfTaskInput<K>, context: PdfTaskContext) => Promise<PdfTaskResult<K>>;

/**
 * How a worker runs a task: its handler, loaded on the task's first use (a worker that only inspects never loads the
 * seal's code), or with `preload` when the worker starts, before it takes a task.
 */
export interface PdfTaskDefinition<K extends PdfTaskKind> {
  load(): Promise<PdfTaskHandler<K>>;
  /**
   * Loaded before the worker says it is ready: for the tasks every worker runs, whose first run must not spend its
   * time limit loading modules (an upload's inspection has the pool's default limit, 10 s, under any load).
   */
  preload?: boolean;
  /**
   * The worker exits after this task failed with an unexpected error: the task's native code (PDFium) may have been
   * left broken, and the pool starts a fresh process.
   */
  exitOnFailure?: boolean;
}

/** Some of the tasks' definitions, as one domain registers them; the worker's entry merges every domain's. */
export type PdfTaskDefinitions = { [K in PdfTaskKind]?: PdfTaskDefinition<K> };

/**
 * A domain's own error that crosses from a worker to the pool's caller as itself (a `SealError` keeps its
 * `retryable`): in the worker `encode` recognises it and returns what the parent needs to rebuild it (cloneable
 * data; `undefined` for an error that is not this kind), and in the parent `decode` rebuilds it.
 */
export interface PdfTaskErrorCodec {
  /** Names the kind of error across the process boundary; unique among a worker's codecs. */
  code: string;
  encode(error: unknown): unknown;
  decode(message: string, data: unknown): Error;
}

/**
 * Where a pool's workers come from: the entry module each process runs (it calls `serveTasks` with every domain's
 * task definitions) and the error codecs of those tasks. A `.ts` entry (the source, in tests and `pnpm signet`)
 * runs through tsx; a `.js` entry (the built server) runs with plain node.
 */
export interface PdfWorkerEntry {
  module: URL;
  errors: readonly PdfTaskErrorCodec[];
}
