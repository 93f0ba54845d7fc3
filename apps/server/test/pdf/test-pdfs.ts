import { PDF, rgb } from '@libpdf/core';

/**
 * A PDF of one `width` × `height` point page, blank but for a black square in the top-left corner of its unrotated
 * content, and turned by `rotation` degrees (`/Rotate`), for tests of what a preview shows.
 * @example const pdf = await markedPdf({ width: 612, height: 792, rotation: 90 })
 */
export async function markedPdf({
  width,
  height,
  rotation = 0,
}: {
  width: number;
  height: number;
  rotation?: number;
}): Promise<Uint8Array> {
  const pdf = PDF.create();
  const page = pdf.addPage({ width, height });
  page.drawRectangle({ x: 0, y: height - 100, width: 100, height: 100, color: rgb(0, 0, 0) });
  page.setRotation(rotation as 0 | 90 | 180 | 270);
  return pdf.save();
}

/**
 * A PDF that @libpdf/core reads (it finds the catalog by scanning the objects) but PDFium refuses: it has neither a
 * cross-reference table nor a trailer, as a file cut short at the end may look.
 */
export const PDF_WITHOUT_TRAILER = new TextEncoder().encode(`%PDF-1.7
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj
%%EOF
`);

/**
 * A PDF whose only page sits below 1,100 levels of page tree: @libpdf/core finds it, PDFium opens the file but stops
 * looking for pages at 1,024 levels, so its first page cannot be loaded.
 */
export function deepPageTreePdf(depth = 1100): Uint8Array {
  const objects = ['1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj'];
  for (let level = 0; level < depth; level++) {
    objects.push(`${level + 2} 0 obj << /Type /Pages /Kids [${level + 3} 0 R] /Count 1 >> endobj`);
  }
  objects.push(`${depth + 2} 0 obj << /Type /Page /MediaBox [0 0 612 792] >> endobj`);
  return new TextEncoder().encode(
    `%PDF-1.7\n${objects.join('\n')}\ntrailer << /Root 1 0 R /Size ${depth + 3} >>\n%%EOF\n`,
  );
}
