import { PDF } from '@libpdf/core';
import { SealError } from './errors.js';
import { appendAuditPages } from './render/audit-pages.js';
import { drawValues } from './render/draw-values.js';
import { embedSealFonts } from './render/fonts.js';
import { normalizePages } from './render/page-geometry.js';
import { signPdfAtLevel, type SignedPdf } from './signing/sign-pdf.js';
import type { SealInput } from './types.js';
import { sealReason } from './seal-reason.js';

export { parseSealReason, sealReason } from './seal-reason.js';

/**
 * Seals a completed submission: `renderSeal` (values drawn in, forms and annotations flattened, audit trail
 * appended), then a PAdES signature over the whole file at `input.sealedAt`. Runs in a PDF pool worker
 * (`pool.run('seal', pdf, input)`), never on the event loop. Throws `SealError`: not retryable for a PDF that cannot
 * be read or drawn on (encrypted, damaged beyond repair) or a bad key; retryable when the timestamp authority fails.
 * @example const sealed = await sealPdf(original, input)
 */
export async function sealPdf(original: Uint8Array, input: SealInput): Promise<Uint8Array> {
  return (await sealPdfAtLevel(original, input)).bytes;
}

/**
 * `sealPdf`, saying which PAdES level the seal reached (`signPdfAtLevel`): the pool's `seal` task.
 * @example const { bytes, level, levelReason } = await sealPdfAtLevel(original, input)
 */
export async function sealPdfAtLevel(original: Uint8Array, input: SealInput): Promise<SignedPdf> {
  const rendered = await renderSeal(original, input);
  const { signing } = input;
  return signPdfAtLevel(rendered, {
    key: signing,
    tsaUrl: signing.tsaUrl,
    tsaTimeoutMs: signing.tsaTimeoutMs,
    signingTime: new Date(input.sealedAt),
    reason: sealReason(input.document.id, input.submission.id),
    ...(signing.level ? { level: signing.level } : {}),
    ...(signing.revocationTimeoutMs ? { revocationTimeoutMs: signing.revocationTimeoutMs } : {}),
    ...(signing.finalAttempt ? { finalAttempt: true } : {}),
  });
}

/**
 * Everything a seal does but the signature: into a copy of `original`, flattens its form fields and annotations
 * (so the result looks the same in every viewer and cannot be edited), draws each submitted value at its field's
 * rectangle, and appends the audit trail pages. Saved as an incremental update where the file allows it, so the
 * original stays a byte prefix of the sealed file; fonts are subset.
 * @example const unsigned = await renderSeal(original, input)
 */
export async function renderSeal(original: Uint8Array, input: SealInput): Promise<Uint8Array> {
  const pdf = await load(original);
  try {
    normalizePages(pdf);
    // Flattened first, so that what the forms showed lies under the values rather than over them.
    pdf.flattenAll({ annotations: { removeLinks: true } });
    const fonts = embedSealFonts(pdf);
    await drawValues(pdf, input.fields, input.submission.values, fonts);
    appendAuditPages(pdf, input, fonts);
    return await pdf.save({ incremental: pdf.canSaveIncrementally() === null, subsetFonts: true });
  } catch (error) {
    if (error instanceof SealError) throw error;
    throw new SealError(`the PDF could not be drawn on: ${(error as Error).message}`, { retryable: false, cause: error });
  }
}

async function load(original: Uint8Array): Promise<PDF> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(original);
  } catch (error) {
    const encrypted = /authenticat|password|encrypt/i.test((error as Error).message);
    const reason = encrypted ? 'it is encrypted' : (error as Error).message;
    throw new SealError(`the PDF cannot be sealed: ${reason}`, { retryable: false, cause: error });
  }
  // An owner-password file opens, but its signature would not cover the whole file: refuse it like the others.
  if (pdf.isEncrypted) throw new SealError('the PDF cannot be sealed: it is encrypted', { retryable: false });
  if (pdf.getPageCount() === 0) throw new SealError('the PDF cannot be sealed: it has no pages', { retryable: false });
  return pdf;
}
