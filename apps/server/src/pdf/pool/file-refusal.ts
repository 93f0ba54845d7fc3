import { ApiError, validationError } from '../../errors.js';
import { PdfLimitError } from './pool.js';

/** What a refusal says: the work that cannot be done (`the PDF cannot be verified`), and why when no limit was met. */
export interface FileRefusalWording {
  cannot: string;
  failed: string;
}

/**
 * Runs pool work on a file a client sent, refusing the file when the pool cannot process it: a task stopped at the
 * pool's time or memory limit, or a worker that failed on the file, is a 422 `VALIDATION_ERROR` on `file` naming the
 * limit, since the file is what the client can change. A full pool stays its 503 (`PdfPoolBusyError`), and a task's
 * own refusal its `ApiError`.
 * @example await refusingFile(() => pool.run('inspect', bytes), { cannot: 'the PDF cannot be processed', failed: 'the PDF could not be processed' })
 */
export async function refusingFile<T>(work: () => Promise<T>, wording: FileRefusalWording): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const reason = error instanceof PdfLimitError ? error.message : wording.failed;
    throw validationError('file', `${wording.cannot} within the server's limits: ${reason}`, 422);
  }
}
