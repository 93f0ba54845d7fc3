export { DEFAULT_PDF_POOL_OPTIONS, PdfLimitError, PdfPool, PdfPoolBusyError, type PdfPoolEvent, type PdfPoolOptions, type PdfTaskLimits } from './pool.js';
export { refusingFile, type FileRefusalWording } from './file-refusal.js';
export type {
  PdfTaskContext,
  PdfTaskDefinition,
  PdfTaskDefinitions,
  PdfTaskErrorCodec,
  PdfTaskHandler,
  PdfTaskInput,
  PdfTaskKind,
  PdfTaskResult,
  PdfTasks,
  PdfWorkerEntry,
} from './tasks.js';
