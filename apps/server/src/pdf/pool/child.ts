/**
 * A PDF worker process (see `pool.ts`): runs one task at a time, as the pool sends them, and answers each with its
 * result or its error. After an error that may have left PDFium broken it exits, and the pool starts a fresh one.
 */
import { ApiError } from '../../errors.js';
import { SealError } from '../../sealing/errors.js';
import { inspectPdf } from '../inspect.js';
import { PreviewLimitError, renderPreview, type PreviewLimits } from '../preview.js';
import type { PdfTaskResult, TaskReply, TaskRequest } from './protocol.js';

// @libpdf/core and PDFium report what they skip or abort on with console.log/warn, and a hostile file can have
// millions of such things: none reach the log.
console.log = console.warn = () => {};

/** PDFium's caps, the same for every task of this process: given once, as its argument, when the pool starts it. */
const limits = JSON.parse(process.argv[2]!) as PreviewLimits;

async function perform(request: TaskRequest): Promise<PdfTaskResult<TaskRequest['kind']>> {
  switch (request.kind) {
    case 'inspect':
      return inspectPdf(request.pdf);
    case 'preview':
      return renderPreview(request.pdf, limits);
    case 'seal': {
      // Loaded on the first seal: a worker that only inspects and draws previews does not pay for @libpdf/core.
      const { sealPdf } = await import('../../sealing/seal-pdf.js');
      return sealPdf(request.pdf, request.input);
    }
    case 'verify': {
      const { verifyPdfSignatures } = await import('../../sealing/signing/verify-pdf.js');
      return verifyPdfSignatures(request.pdf);
    }
    case 'image': {
      const { decodeSubmittedImage } = await import('../../submissions/decode-image.js');
      return decodeSubmittedImage(request.pdf, request.input);
    }
  }
}

async function run(request: TaskRequest): Promise<TaskReply> {
  try {
    return { id: request.id, ok: true, value: await perform(request) };
  } catch (error) {
    if (error instanceof ApiError) {
      return { id: request.id, ok: false, error: { kind: 'api', code: error.code, message: error.message, status: error.status, details: error.details } };
    }
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof SealError) {
      return { id: request.id, ok: false, error: { kind: 'seal', message, retryable: error.retryable } };
    }
    if (error instanceof PreviewLimitError) {
      // Past PDFium's heap cap the instance aborted and grew to its cap: a new process gives that memory back.
      return { id: request.id, ok: false, error: { kind: 'limit', limit: error.limit, message }, exit: error.limit === 'memory' };
    }
    // PDFium failed: renderPreview has already dropped its instance, but an abort may have left more behind it.
    return { id: request.id, ok: false, error: { kind: 'failed', message }, exit: request.kind === 'preview' };
  }
}

process.on('message', (request: TaskRequest) => {
  void run(request).then((reply) => {
    process.send!(reply, () => {
      if (reply.exit) process.exit(0);
    });
  });
});
process.send!({ ready: true });
