import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { inspectPdf } from './inspect.js';
import { generateSamplePdf } from './sample.js';

async function refusal(bytes: Uint8Array): Promise<ApiError> {
  const error = await inspectPdf(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** A one-page PDF whose trailer names an encryption dictionary, as password-protected files do. */
async function encryptedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  pdf.context.trailerInfo.Encrypt = pdf.context.obj({ Filter: PDFName.of('Standard'), V: 2, R: 3, Length: 128 });
  return pdf.save({ useObjectStreams: false });
}

describe('inspectPdf', () => {
  it('counts the pages of a PDF', async () => {
    expect(await inspectPdf(await generateSamplePdf({ pages: 4 }))).toEqual({ pageCount: 4 });
  });

  it('accepts a header after a little leading junk, as PDF readers do', async () => {
    const pdf = await generateSamplePdf({ pages: 1 });
    const padded = new Uint8Array([...new TextEncoder().encode('\r\n\r\n'), ...pdf]);
    expect(await inspectPdf(padded)).toEqual({ pageCount: 1 });
  });

  it.each([
    ['an empty file', new Uint8Array()],
    ['HTML', new TextEncoder().encode('<!doctype html><title>x</title>')],
    ['a PNG', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['a header and nothing else', new TextEncoder().encode('%PDF-1.7\n')],
    ['a header followed by garbage', new TextEncoder().encode(`%PDF-1.7\n${'x'.repeat(2000)}`)],
  ])('refuses %s with a 400 naming the file', async (_case, bytes) => {
    const error = await refusal(bytes);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: { field: 'file' } });
  });

  it('refuses an encrypted PDF, saying so', async () => {
    const error = await refusal(await encryptedPdf());
    expect(error.details).toMatchObject({ field: 'file', reason: expect.stringMatching(/encrypted/) });
  });

  it('refuses a PDF without pages', async () => {
    const empty = await (await PDFDocument.create()).save({ addDefaultPage: false });
    const error = await refusal(empty);
    expect(error.details).toMatchObject({ field: 'file', reason: 'the PDF has no pages' });
  });
});
