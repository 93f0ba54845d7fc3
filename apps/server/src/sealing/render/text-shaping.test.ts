import { PDF } from '@libpdf/core';
import { describe, expect, it } from 'vitest';
import { embedSealFonts } from './fonts.js';
import { bidiParagraph, shapeLine } from './text-shaping.js';

const font = embedSealFonts(PDF.create()).regular;

/** `text` as drawn: its glyphs' characters, left to right. */
function visual(text: string): string {
  return shapeLine(bidiParagraph(text), 0, text.length, font, 12)
    .glyphs.map((glyph) => glyph.char)
    .join('');
}

describe('bidiParagraph', () => {
  it('takes the base direction from the first strong character, and says when anything runs right to left', () => {
    expect(bidiParagraph('أحمد بن علي')).toMatchObject({ rtl: true, bidi: true });
    expect(bidiParagraph('12 شارع')).toMatchObject({ rtl: true, bidi: true });
    expect(bidiParagraph('Ahmed أحمد')).toMatchObject({ rtl: false, bidi: true });
    expect(bidiParagraph('Jane Q. Signer')).toMatchObject({ rtl: false, bidi: false });
    expect(bidiParagraph('2025-01-31')).toMatchObject({ rtl: false, bidi: false });
    expect(bidiParagraph('')).toMatchObject({ rtl: false, bidi: false });
  });
});

describe('shapeLine', () => {
  it('joins Arabic letters (initial, medial, final and isolated forms) and lays the words out right to left', () => {
    // أحمد: alef-hamza (isolated: it joins nothing after it), hah initial, meem medial, dal final; drawn dal first.
    expect(visual('أحمد')).toBe('\uFEAA\uFEE4\uFEA3\u0623');
    expect(visual('أحمد بن علي')).toBe('\uFEF2\uFEE0\uFECB \uFEE6\uFE91 \uFEAA\uFEE4\uFEA3\u0623');
  });

  it('forms the lam-alef ligatures', () => {
    expect(visual('لا')).toBe('\uFEFB');
    // سلام: seen initial, lam-alef final, meem isolated.
    expect(visual('سلام')).toBe('\u0645\uFEFC\uFEB3');
    // الأول: alef, lam with alef-hamza (isolated ligature), waw, lam.
    expect(visual('الأول')).toBe('\u0644\u0648\uFEF7\u0627');
  });

  it('keeps digits and Latin left to right inside right-to-left text, and mirrors brackets', () => {
    expect(visual('شارع الملك فهد 12')).toBe('12 \uFEAA\uFEEC\uFED3 \uFEDA\uFEE0\uFEE4\uFEDF\u0627 \u0639\u0631\uFE8E\uFEB7');
    expect(visual('Ahmed أحمد')).toBe('Ahmed \uFEAA\uFEE4\uFEA3\u0623');
    expect(visual('محمد (الأول)')).toBe('(\u0644\u0648\uFEF7\u0627) \uFEAA\uFEE4\uFEA4\uFEE3');
    expect(visual('גדעון (כהן) 25')).toBe('25 (ןהכ) ןועדג');
  });

  it('measures the shaped glyphs: joined Arabic is narrower than its letters set apart', () => {
    const shaped = shapeLine(bidiParagraph('سلام'), 0, 4, font, 12);
    expect(shaped.width).toBeCloseTo(
      shaped.glyphs.reduce((sum, glyph) => sum + glyph.advance, 0),
      6,
    );
    expect(shaped.width).toBeLessThan(font.widthOfTextAtSize('سلام', 12) - 5);
  });

  it('draws a glyph no character reaches (a shadda-and-fatha ligature) as its characters, and text the font lacks as it is', () => {
    expect([...visual('مَّ')].sort()).toEqual(['\u0645', '\u064E', '\u0651'].sort());
    expect(visual('東京 أحمد')).toBe('東京 \uFEAA\uFEE4\uFEA3\u0623');
  });

  it('follows bidi controls and drops them, as they have no ink', () => {
    expect(visual('أحمد 12')).toBe('12 \uFEAA\uFEE4\uFEA3\u0623');
    // Isolated (RLI … PDI), the name does not decide the paragraph's direction: left to right, the number after it.
    expect(visual('\u2067أحمد\u2069 12')).toBe('\uFEAA\uFEE4\uFEA3\u0623 12');
  });
});
