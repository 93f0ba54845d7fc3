/**
 * Right-to-left values in the sealed PDF, judged by poppler: the words `pdftotext -bbox` finds are the glyphs as
 * drawn, left to right, so an Arabic word comes out as its joined presentation forms in visual order, and its box
 * shows which edge of the field the line starts at.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { formPdf, sealInput } from '../../test/sealing/render/test-pdfs.js';
import { pageBoxes, pageWords, pdfText, type PageBox, type TopLeftRect, type Word } from '../../test/sealing/render/test-poppler.js';
import { renderSeal } from './seal-pdf.js';

type TestField = Parameters<typeof sealInput>[0][number];

const STYLE = { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'left' } as const;
/** The viewer's input pads its text by 0.35em on each side (text-layout.ts). */
const PADDING = 0.35 * STYLE.fontSize;
/** pdftotext's word boxes are the glyphs' advances: the line's ends, give or take rounding. */
const TOLERANCE = 1;

const PARAGRAPH = 'هذا نص طويل جدا في حقل متعدد الأسطر يجب أن يلتف على عدة أسطر داخل الصندوق';

function field(id: string, page: number, y: number, value: TestField['value'], height = 0.035): TestField {
  return { id, type: value.type, page, box: { x: 0.1, y, width: 0.5, height }, value, style: STYLE };
}

const FIELDS: TestField[] = [
  field('name', 1, 0.38, { type: 'text', content: 'أحمد بن علي' }),
  field('street', 1, 0.43, { type: 'text', content: 'شارع الملك فهد 12' }),
  field('mixed', 1, 0.48, { type: 'text', content: 'Ahmed أحمد' }),
  field('ltr', 1, 0.53, { type: 'text', content: 'Jane Q. Signer' }),
  field('hebrew', 1, 0.58, { type: 'text', content: 'גדעון (כהן) 25' }),
  field('choice', 1, 0.63, { type: 'select', value: 'محمد (الأول) سلام' }),
  field('notes', 1, 0.68, { type: 'textarea', content: `${PARAGRAPH}\nسطر ثان 2025` }, 0.12),
  field('consent', 1, 0.84, { type: 'radio', value: 'yes' }, 0.06),
  field('turned', 2, 0.6, { type: 'text', content: 'أحمد بن علي' }),
];

/**
 * Words of `text` as drawn, left to right. An Arabic word is its glyphs' characters left to right: أحمد (alef-hamza
 * alone, hah initial, meem medial, dal final) is dal first.
 */
const DRAWN: Record<string, string[]> = {
  name: ['\uFEF2\uFEE0\uFECB', '\uFEE6\uFE91', '\uFEAA\uFEE4\uFEA3\u0623'],
  street: ['12', '\uFEAA\uFEEC\uFED3', '\uFEDA\uFEE0\uFEE4\uFEDF\u0627', '\u0639\u0631\uFE8E\uFEB7'],
  mixed: ['Ahmed', '\uFEAA\uFEE4\uFEA3\u0623'],
  ltr: ['Jane', 'Q.', 'Signer'],
  hebrew: ['25', '(ןהכ)', 'ןועדג'],
  // The brackets mirrored; lam-alef-hamza and lam-alef ligatures (U+FEF7, U+FEFC).
  choice: ['\u0645\uFEFC\uFEB3', '(\u0644\u0648\uFEF7\u0627)', '\uFEAA\uFEE4\uFEA4\uFEE3'],
  turned: ['\uFEF2\uFEE0\uFECB', '\uFEE6\uFE91', '\uFEAA\uFEE4\uFEA3\u0623'],
  // The radio group's labels, one a row: "نعم، أوافق" (the Arabic comma at the left of نعم) and "لا".
  consent: ['\uFED6\uFED3\u0627\u0648\u0623', '\u060C\uFEE2\uFECC\uFEE7', '\uFEFB'],
};
const CONSENT_OPTIONS = [
  { value: 'yes', label: 'نعم، أوافق' },
  { value: 'no', label: 'لا' },
];

let original: Uint8Array;
let rendered: Uint8Array;
let boxes: PageBox[];
let words: Word[][];

beforeAll(async () => {
  original = await formPdf();
  const input = sealInput(FIELDS, 3, {
    signers: [{ name: 'أحمد بن علي', email: 'ahmed@example.com', submission: sealInput(FIELDS).submission }],
    document: { ...sealInput(FIELDS).document, filename: 'عقد الإيجار.pdf' },
  });
  input.fields = input.fields.map((definition) => (definition.id === 'consent' ? { ...definition, options: CONSENT_OPTIONS } : definition));
  rendered = await renderSeal(original, input);
  boxes = await pageBoxes(original, 3);
  words = await pageWords(rendered);
});

function rectOf(id: string): TopLeftRect {
  const { page, box } = FIELDS.find((candidate) => candidate.id === id)!;
  const { width, height } = boxes[page - 1]!;
  return { left: box.x * width, top: box.y * height, right: (box.x + box.width) * width, bottom: (box.y + box.height) * height };
}

/** The words inside field `id`, in reading order of lines (top to bottom), each line left to right. */
function wordsIn(id: string): Word[] {
  const rect = rectOf(id);
  const page = FIELDS.find((candidate) => candidate.id === id)!.page;
  return words[page - 1]!.filter(
    (word) => word.left >= rect.left - 2 && word.right <= rect.right + 2 && word.top >= rect.top - 2 && word.bottom <= rect.bottom + 2,
  ).sort((a, b) => a.top - b.top || a.left - b.left);
}

function lines(found: Word[]): Word[][] {
  const rows = new Map<number, Word[]>();
  for (const word of found) rows.set(Math.round(word.top), [...(rows.get(Math.round(word.top)) ?? []), word]);
  return [...rows.values()];
}

/** An Arabic word as drawn, back in logical order: its glyphs read right to left, presentation forms to letters. */
function logical(word: string): string {
  return /[\u0590-\u08FF\uFB1D-\uFEFF]/.test(word) ? [...word].reverse().join('').normalize('NFKC') : word;
}

describe('renderSeal, right to left', () => {
  it('joins Arabic letters and lays each line out in visual order (UAX #9), Hebrew and mixed values too', () => {
    for (const [id, drawn] of Object.entries(DRAWN)) {
      expect(wordsIn(id).map((word) => word.text), id).toEqual(drawn);
    }
    // Shaped: the contextual forms are there, not the letters as stored.
    expect(wordsIn('name').map((word) => word.text).join(' ')).not.toContain('أحمد');
  });

  it('starts a right-to-left value at its field’s right edge, and a left-to-right one at its left edge, as before', () => {
    for (const id of ['name', 'street', 'hebrew', 'choice', 'turned']) {
      const found = wordsIn(id);
      expect(Math.abs(rectOf(id).right - PADDING - Math.max(...found.map((word) => word.right))), id).toBeLessThan(TOLERANCE);
    }
    for (const id of ['mixed', 'ltr']) {
      const found = wordsIn(id);
      expect(Math.abs(Math.min(...found.map((word) => word.left)) - rectOf(id).left - PADDING), id).toBeLessThan(TOLERANCE);
    }
  });

  it('wraps an Arabic textarea in logical order and reorders each line, every line at the right edge', () => {
    const rows = lines(wordsIn('notes'));
    expect(rows.length).toBeGreaterThan(2);
    // Read right to left, line after line, the words are the paragraphs as written.
    const read = rows.map((row) => row.map((word) => logical(word.text)).reverse().join(' '));
    expect(read.join(' ')).toBe(`${PARAGRAPH} سطر ثان 2025`);
    expect(read[0]!.startsWith('هذا نص')).toBe(true);
    expect(read.at(-1)).toBe('سطر ثان 2025');
    for (const row of rows) {
      expect(Math.abs(rectOf('notes').right - PADDING - Math.max(...row.map((word) => word.right)))).toBeLessThan(TOLERANCE);
    }
  });

  it('shapes the signer’s name and the file name on the audit trail, the file name at its column’s right edge', async () => {
    const audit = words[3]!;
    const lineOf = (label: string) => {
      const top = audit.find((word) => word.text === label)!.top;
      return audit.filter((word) => Math.abs(word.top - top) < 1).sort((a, b) => a.left - b.left);
    };
    expect(lineOf('Signer:').map((word) => word.text)).toEqual(['Signer:', ...DRAWN.name!]);
    // عقد الإيجار.pdf: a right-to-left paragraph, so ".pdf" (at its end) is at the left, the line ending at the right.
    const fileName = lineOf('File').slice(2);
    expect(fileName.map((word) => word.text)).toEqual(['pdf.\u0631\uFE8E\uFEA0\uFEF3\uFEF9\u0627', '\uFEAA\uFED8\uFECB']);
    expect(Math.abs(612 - 54 - Math.max(...fileName.map((word) => word.right)))).toBeLessThan(TOLERANCE);
    expect(await pdfText(rendered, 4, 4)).toContain('ahmed@example.com');
  });

  it('draws text the font lacks (Japanese) as before, next to shaped Arabic, without failing', async () => {
    const fields = [field('cjk', 1, 0.3, { type: 'text', content: '東京タワー Tokyo' }), field('both', 1, 0.4, { type: 'text', content: '東京 أحمد' })];
    const found = (await pageWords(await renderSeal(original, sealInput(fields))))[0]!.map((word) => word.text);
    expect(found).toEqual(expect.arrayContaining(['Tokyo', '\uFEAA\uFEE4\uFEA3\u0623']));
  });
});
