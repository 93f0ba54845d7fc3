import { PDF } from '@libpdf/core';
import { describe, expect, it } from 'vitest';
import { embedSealFonts } from './fonts.js';
import { layoutField, textLine, wrap, type TextLine } from './text-layout.js';

const font = embedSealFonts(PDF.create()).regular;
const visual = (line: TextLine) => (line.glyphs ? line.glyphs.map((glyph) => glyph.char).join('') : line.text);

const PARAGRAPH = 'هذا نص طويل جدا في حقل متعدد الأسطر يجب أن يلتف على عدة أسطر داخل الصندوق';

describe('wrap', () => {
  it('wraps left-to-right text as libpdf does, drawn as it is stored', () => {
    const lines = wrap('a very long line', font, 12, 40);
    expect(lines.map((line) => line.text)).toEqual(['a very', 'long', 'line']);
    expect(lines.every((line) => !line.rtl && line.glyphs === undefined)).toBe(true);
    expect(lines[0]!.width).toBeCloseTo(font.widthOfTextAtSize('a very', 12), 6);
  });

  it('wraps a right-to-left paragraph in logical order, shaped, each line within the width', () => {
    const lines = wrap(PARAGRAPH, font, 11, 150);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.map((line) => line.text).join(' ')).toBe(PARAGRAPH);
    expect(lines[0]!.text.startsWith('هذا نص')).toBe(true);
    for (const line of lines) {
      expect(line.rtl).toBe(true);
      expect(line.width).toBeLessThanOrEqual(150);
      expect(line.width).toBeCloseTo(line.glyphs!.reduce((sum, glyph) => sum + glyph.advance, 0), 6);
    }
    // Drawn right to left: the line's first word, هذا (heh initial, thal final, alef alone), is its rightmost.
    expect(visual(lines[0]!).endsWith('\u0627\uFEAC\uFEEB')).toBe(true);
  });

  it('reorders each line on its own after wrapping (UAX #9, L1–L2 per line)', () => {
    // On one line: "Ahmed", then the Arabic run right to left, then "Smith". Cut between the Arabic words, each
    // line's own part of the run is reversed, not the paragraph's run as a whole.
    const text = 'Ahmed أحمد بن علي Smith';
    const width = Math.max(textLine('Ahmed أحمد', font, 12).width, textLine('بن علي Smith', font, 12).width) + 1;
    expect(textLine('Ahmed أحمد بن', font, 12).width).toBeGreaterThan(width);
    const lines = wrap(text, font, 12, width);
    expect(lines.map((line) => line.text)).toEqual(['Ahmed أحمد', 'بن علي Smith']);
    expect(lines.map(visual)).toEqual(['Ahmed \uFEAA\uFEE4\uFEA3\u0623', '\uFEF2\uFEE0\uFECB \uFEE6\uFE91 Smith']);
    expect(lines.every((line) => !line.rtl)).toBe(true);
  });

  it('gives each paragraph its own direction', () => {
    expect(wrap('Hello\nمرحبا\n\n12', font, 12, 200).map((line) => [line.text, line.rtl])).toEqual([
      ['Hello', false],
      ['مرحبا', true],
      ['', false],
      ['12', false],
    ]);
  });

  it('breaks a word too wide for a line between graphemes: never before a vowel mark, each piece within the width', () => {
    const word = 'بِ'.repeat(60);
    const lines = wrap(word, font, 12, 60);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.map((line) => line.text).join('')).toBe(word);
    for (const line of lines) {
      expect(line.width).toBeLessThanOrEqual(60);
      expect(line.text).toMatch(/^\u0628/);
    }
  });
});

describe('layoutField', () => {
  const rect = { x: 100, y: 500, width: 200, height: 20 };
  const padding = 0.35 * 12;

  it('starts a right-to-left value at the right edge, a left-to-right one at the left edge', () => {
    const [arabic] = layoutField('أحمد بن علي', rect, { fontSize: 12, textAlign: 'left' }, font);
    expect(arabic!.x + arabic!.width).toBeCloseTo(rect.x + rect.width - padding, 6);
    const [mixed] = layoutField('Ahmed أحمد', rect, { fontSize: 12, textAlign: 'left' }, font);
    expect(mixed!.x).toBeCloseTo(rect.x + padding, 6);
    const [latin] = layoutField('Jane Q. Signer', rect, { fontSize: 12, textAlign: 'left' }, font);
    expect(latin!.x).toBeCloseTo(rect.x + padding, 6);
  });

  it('keeps an explicit centre or right alignment whatever the direction', () => {
    for (const text of ['أحمد بن علي', 'Jane Q. Signer']) {
      const [centred] = layoutField(text, rect, { fontSize: 12, textAlign: 'center' }, font);
      expect(centred!.x - rect.x).toBeCloseTo(rect.x + rect.width - (centred!.x + centred!.width), 6);
      const [right] = layoutField(text, rect, { fontSize: 12, textAlign: 'right' }, font);
      expect(right!.x + right!.width).toBeCloseTo(rect.x + rect.width - padding, 6);
    }
  });
});
