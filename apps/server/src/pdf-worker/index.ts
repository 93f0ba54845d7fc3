import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PdfPool, type PdfPoolOptions, type PdfWorkerEntry } from '../pdf/pool/index.js';
import { PDF_TASK_ERRORS } from './registry.js';

/** The worker's source: present beside this file when the server runs from the source, absent from a build. */
const SOURCE_ENTRY = new URL('./entry.ts', import.meta.url);

/**
 * Signet's PDF worker: `entry.ts` beside this file when running from the source (tsx, Vitest, the browser suites'
 * server commands, whose module URLs need not end in `.ts`), `entry.js` when running built (`dist/pdf-worker/`,
 * which mirrors `src/`).
 */
export const PDF_WORKER: PdfWorkerEntry = {
  module: existsSync(fileURLToPath(SOURCE_ENTRY)) ? SOURCE_ENTRY : new URL('./entry.js', import.meta.url),
  errors: PDF_TASK_ERRORS,
};

/**
 * A PDF pool whose workers run every Signet task (`PDF_TASKS`), with `options` over the defaults.
 * @example const pool = createPdfPool(config.pdfPool);
 */
export function createPdfPool(options: Partial<PdfPoolOptions> = {}): PdfPool {
  return new PdfPool(options, PDF_WORKER);
}

let shared: PdfPool | undefined;

/**
 * The process's PDF pool with the default limits, for callers that are not a configured server (the command line,
 * the seed, tests). Its workers start on the first task and do not keep the process alive while idle.
 */
export function sharedPdfPool(): PdfPool {
  shared ??= createPdfPool();
  return shared;
}
