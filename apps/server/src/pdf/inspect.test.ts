import { PDF } from '@libpdf/core';
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

/** A one-page PDF encrypted with `userPassword` (empty: it opens without one, but is still encrypted). */
async function encryptedPdf(userPassword: string): Promise<Uint8Array> {
  const pdf = PDF.create();
  pdf.addPage();
  pdf.setProtection({ userPassword, ownerPassword: 'owner-secret' });
  return pdf.save();
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

  it.each([
    ['a password to open', 'open-secret'],
    ['an owner password only', ''],
  ])('refuses an encrypted PDF with %s, saying so', async (_case, userPassword) => {
    const error = await refusal(await encryptedPdf(userPassword));
    expect(error.details).toMatchObject({ field: 'file', reason: expect.stringMatching(/encrypted/) });
  });

  it('refuses a PDF without pages', async () => {
    const empty = await PDF.create().save();
    const error = await refusal(empty);
    expect(error.details).toMatchObject({ field: 'file', reason: 'the PDF has no pages' });
  });
});
