import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDF, PdfArray, PdfDict, PdfName, PdfNumber, PdfStream } from '@libpdf/core';

/** One page of a tagged test PDF: its content stream as written, with `/F1` (Helvetica, WinAnsi) to show text in. */
export interface TaggedPage {
  content: string;
  width?: number;
  height?: number;
  rotate?: 0 | 90 | 180 | 270;
  /** `[x0 y0 x1 y1]` */
  cropBox?: [number, number, number, number];
}

/**
 * A PDF whose pages' content streams are exactly `pages[i].content`, so that a test chooses how its text is split
 * into operators (one `Tj` for a whole line, one per word, `TJ` with kerning, `'` and `"`).
 * @example taggedPdf([{ content: 'BT /F1 12 Tf 72 700 Td (Tenant: {{signature}}) Tj ET' }])
 */
export async function taggedPdf(pages: TaggedPage[]): Promise<Uint8Array> {
  const pdf = PDF.create();
  const font = pdf.context.register(
    PdfDict.of({
      Type: PdfName.of('Font'),
      Subtype: PdfName.of('Type1'),
      BaseFont: PdfName.of('Helvetica'),
      Encoding: PdfName.of('WinAnsiEncoding'),
    }),
  );
  for (const spec of pages) {
    const page = pdf.addPage({ width: spec.width ?? 612, height: spec.height ?? 792 });
    page.dict.set('Resources', PdfDict.of({ Font: PdfDict.of({ F1: font }) }));
    page.dict.set('Contents', pdf.context.register(new PdfStream([], new TextEncoder().encode(spec.content))));
    if (spec.rotate) page.setRotation(spec.rotate);
    if (spec.cropBox) page.dict.set('CropBox', new PdfArray(spec.cropBox.map((value) => PdfNumber.of(value))));
  }
  return pdf.save();
}

/** A line of text in `/F1` at `size` points, its baseline's start at (`x`, `y`), as one `Tj`. */
export function line(x: number, y: number, text: string, size = 12): string {
  return `BT /F1 ${size} Tf ${x} ${y} Td (${escape(text)}) Tj ET\n`;
}

/** The same line with each word its own `Tj` and the spaces left out, each word placed by `Td` (as generators do). */
export function wordByWord(x: number, y: number, text: string, size = 12): string {
  const widthOf = (word: string) => helveticaWidth(word) * size;
  const space = helveticaWidth(' ') * size;
  let out = `BT /F1 ${size} Tf ${x} ${y} Td\n`;
  let previous = 0;
  for (const word of text.split(' ')) {
    out += `${previous} 0 Td (${escape(word)}) Tj\n`;
    previous = widthOf(word) + space;
  }
  return `${out}ET\n`;
}

function escape(text: string): string {
  return text.replace(/[\\()]/g, (char) => `\\${char}`);
}

let widths: Map<string, number> | undefined;

/** Helvetica's advance widths (per point of size) of ASCII, from its AFM metrics (Adobe's Core 14 font metrics). */
export function helveticaWidth(text: string): number {
  widths ??= new Map();
  let total = 0;
  for (const char of text) {
    let width = widths.get(char);
    if (width === undefined) {
      width = HELVETICA_WIDTHS[char.charCodeAt(0) - 32] ?? 556;
      widths.set(char, width);
    }
    total += width / 1000;
  }
  return total;
}

// Helvetica's AFM widths of the codes 32…126.
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556,
  278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
  611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833,
  556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/**
 * A PDF whose one page says `text` with DejaVu Sans embedded by @libpdf/core: a Type0 font, Identity-H, two bytes a
 * glyph and a ToUnicode CMap, as most generated PDFs with embedded fonts are.
 */
export async function embeddedFontPdf(text: string, size = 12): Promise<Uint8Array> {
  const pdf = PDF.create();
  const dir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const font = pdf.embedFont(readFileSync(join(dir, 'DejaVuSans.ttf')));
  const page = pdf.addPage({ width: 612, height: 792 });
  page.drawText(text, { x: 72, y: 700, size, font });
  return pdf.save();
}
