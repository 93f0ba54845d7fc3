import { PDF } from '@libpdf/core';

/**
 * A text-only PDF of `pages` US Letter pages made with @libpdf/core, each with a heading and a few lines of body
 * text: 10,000 pages come to about 17 MB, inside the default upload limit (`MAX_PDF_BYTES`, 25 MiB). For the
 * sealing tests and the benchmark's large document.
 * @example const pdf = await largeTextPdf(10_000)
 */
export async function largeTextPdf(pages: number): Promise<Uint8Array> {
  const pdf = PDF.create();
  for (let index = 0; index < pages; index++) {
    const page = pdf.addPage({ size: 'letter' });
    page.drawText(`Schedule ${index + 1} of ${pages}`, { x: 72, y: 740, size: 16, font: 'Helvetica-Bold' });
    for (let line = 0; line < 4; line++) {
      page.drawText(`Clause ${index + 1}.${line + 1}: the parties agree to the terms set out on this page.`, { x: 72, y: 700 - line * 16, size: 11 });
    }
  }
  return pdf.save();
}
