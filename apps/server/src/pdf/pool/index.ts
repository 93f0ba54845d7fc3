import { PdfPool } from './pool.js';

export { DEFAULT_PDF_POOL_OPTIONS, PdfLimitError, PdfPool, PdfPoolBusyError, type PdfPoolOptions, type PdfTaskLimits } from './pool.js';
export type { PdfTaskInput, PdfTaskKind, PdfTaskResult, PdfTasks } from './protocol.js';

let shared: PdfPool | undefined;

/**
 * The process's PDF pool with the default limits, for callers that are not a configured server (the command line,
 * the seed, tests). Its workers start on the first task and do not keep the process alive while idle.
 */
export function sharedPdfPool(): PdfPool {
  shared ??= new PdfPool();
  return shared;
}
