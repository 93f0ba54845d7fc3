import { endpoints } from '@signet/contract';
import { tooLarge, validationError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import { sendEnvelope } from '../http/envelope.js';
import { pdfUploadLimit, readMultipartForm } from '../http/multipart.js';
import { refusingFile } from '../pdf/pool/index.js';
import { verifySeal } from '../sealing/verify-seal.js';
import { handler, type EndpointHandlers } from './serve.js';

/** The 422 of a file whose signatures the PDF pool cannot read within its limits. */
const UNREADABLE = { cannot: 'the PDF cannot be verified', failed: 'its signatures could not be read' };

/**
 * `POST /verify`: is this PDF one of the organization's sealed documents, unchanged? A file the PDF pool cannot read
 * within its limits is a 422 on `file`, as an upload's is.
 */
export function verifyHandler(deps: AppContext): Pick<EndpointHandlers, 'verifyDocument'> {
  return {
    verifyDocument: handler(endpoints.verifyDocument, {
      after: [pdfUploadLimit(deps.config.maxPdfBytes)],
      readsItself: ['body'],
      async handle(c) {
        const form = await readMultipartForm(c, '"file"');
        const file = form['file'];
        if (!(file instanceof File)) throw validationError('file', 'a PDF file is required');
        if (file.size > deps.config.maxPdfBytes) throw tooLarge('file', deps.config.maxPdfBytes);
        const pdf = new Uint8Array(await file.arrayBuffer());
        const verdict = await verifySeal(
          deps.storage,
          c.get('apiKey').organizationId,
          pdf,
          (bytes) => refusingFile(() => deps.pdfPool.run('verify', bytes), UNREADABLE),
          (bytes) => refusingFile(() => deps.pdfPool.run('pades', bytes), UNREADABLE),
        );
        return sendEnvelope(c, verdict, 200);
      },
    }),
  };
}
