/**
 * Every task the Signet PDF workers run, as each domain registers it, and the codecs of the tasks' own errors: the
 * one place that knows both the generic pool (`pdf/pool`) and the domains (docs/decisions.md, "The PDF pool runs
 * registered tasks").
 */
import { documentPdfTasks } from '../documents/pdf-tasks.js';
import { formImportPdfTasks } from '../documents/form-import/pdf-tasks.js';
import type { PdfTaskDefinitions, PdfTaskErrorCodec } from '../pdf/pool/index.js';
import { sealErrorCodec, sealingPdfTasks } from '../sealing/pdf-tasks.js';
import { submissionPdfTasks } from '../submissions/pdf-tasks.js';
import { textTagPdfTasks } from '../documents/text-tags/pdf-tasks.js';

export const PDF_TASKS: PdfTaskDefinitions = { ...documentPdfTasks, ...formImportPdfTasks, ...sealingPdfTasks, ...submissionPdfTasks, ...textTagPdfTasks };

export const PDF_TASK_ERRORS: readonly PdfTaskErrorCodec[] = [sealErrorCodec];
