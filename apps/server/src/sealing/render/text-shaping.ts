import { ops, PdfArray, PdfNumber, PdfString, type EmbeddedFont, type PDFPage, type PdfObject, type RGB } from '@libpdf/core';
import bidiFactory, { type EmbeddingLevels } from 'bidi-js';
import * as hb from 'harfbuzzjs';

const bidi = bidiFactory();

/**
 * One paragraph (no line break inside) with its embedding levels from the Unicode Bidirectional Algorithm (UAX #9),
 * its base direction taken from its first strong character, as a browser's `dir="auto"` does.
 */
export interface BidiParagraph {
  text: string;
  levels: EmbeddingLevels;
  /** Its base direction is right to left: it starts at the right edge. */
  rtl: boolean;
  /** Some of it runs right to left: it must be reordered and shaped, not drawn as stored. */
  bidi: boolean;
}

/** A glyph of a shaped line, in points: the character libpdf draws it as, its offset from the pen, the pen's advance. */
export interface PlacedGlyph {
  char: string;
  /** Where the first character it stands for is in its paragraph's text. */
  index: number;
  dx: number;
  dy: number;
  advance: number;
}

/**
 * `text`'s bidi levels and base direction.
 * @example bidiParagraph('شارع الملك فهد 12') // { rtl: true, bidi: true, … }
 */
export function bidiParagraph(text: string): BidiParagraph {
  const levels = bidi.getEmbeddingLevels(text, 'auto');
  return { text, levels, rtl: (levels.paragraphs[0]?.level ?? 0) % 2 === 1, bidi: levels.levels.some((level) => level % 2 === 1) };
}

/** A font as HarfBuzz shapes with it, and the character that reaches each of its glyphs through its cmap. */
interface Shaper {
  font: hb.Font;
  upem: number;
  buffer: hb.Buffer;
  charOf: Map<number, string>;
}

/** HarfBuzz's context: how many characters on either side of a run it looks at (`HB_BUFFER_CONTEXT_LENGTH`). */
const CONTEXT = 5;

/** One per font file and process: the seal fonts' bytes are read once (fonts.ts), so this is built once too. */
const shapers = new WeakMap<Uint8Array, Shaper>();

function shaperFor(font: EmbeddedFont): Shaper {
  let shaper = shapers.get(font.data);
  if (!shaper) {
    const face = new hb.Face(new hb.Blob(font.data));
    const hbFont = new hb.Font(face);
    const charOf = new Map<number, string>();
    // Lowest code point first: a glyph shared by a letter and its presentation form is written as the letter.
    for (const unicode of [...face.collectUnicodes()].sort((a, b) => a - b)) {
      const gid = hbFont.nominalGlyph(unicode);
      if (gid && !charOf.has(gid)) charOf.set(gid, String.fromCodePoint(unicode));
    }
    shaper = { font: hbFont, upem: face.upem, buffer: new hb.Buffer(), charOf };
    shapers.set(font.data, shaper);
  }
  return shaper;
}

/**
 * The line `paragraph.text[start, end)` in visual order (UAX #9 rules L1–L2 on the paragraph's levels), each of its
 * directional runs shaped by HarfBuzz with `font`'s OpenType tables (Arabic joining, lam-alef and other ligatures,
 * marks, mirrored brackets). Each glyph is written as the character the font's cmap maps to it (for Arabic, a
 * presentation form), which is how libpdf embeds and subsets it and how text extraction reads it back; a glyph no
 * character reaches (a rare letter's joining form, a shadda-and-vowel ligature) is drawn as its characters instead.
 * @example shapeLine(bidiParagraph('أحمد'), 0, 4, font, 12).glyphs.map((glyph) => glyph.char).join('') // 'ﺪﻤﺣأ'
 */
export function shapeLine(paragraph: BidiParagraph, start: number, end: number, font: EmbeddedFont, size: number): { glyphs: PlacedGlyph[]; width: number } {
  const shaper = shaperFor(font);
  const line = paragraph.text.slice(start, end);
  const glyphs = visualRuns(paragraph, start, end).flatMap((run) => shapeRun(shaper, font, size, line, { ...run, start: run.start - start, end: run.end - start }));
  for (const glyph of glyphs) glyph.index += start;
  return { glyphs, width: glyphs.reduce((sum, glyph) => sum + glyph.advance, 0) };
}

/** The line's directional runs, left to right: maximal stretches of one level whose characters stay together. */
function visualRuns(paragraph: BidiParagraph, start: number, end: number): Array<{ start: number; end: number; rtl: boolean }> {
  if (end <= start) return [];
  // The line's characters in visual order: bidi-js's reversals (rules L1–L2), applied to this line alone.
  const order = Array.from({ length: end - start }, (_, index) => start + index);
  for (const [first, last] of bidi.getReorderSegments(paragraph.text, paragraph.levels, start, end - 1)) {
    order.splice(first! - start, last! - first! + 1, ...order.slice(first! - start, last! - start + 1).reverse());
  }
  const levels = paragraph.levels.levels;
  const runs: Array<{ start: number; end: number; rtl: boolean }> = [];
  let first = 0;
  for (let index = 1; index <= order.length; index++) {
    const [previous, current] = [order[index - 1]!, order[index]];
    const step = levels[previous]! % 2 === 1 ? -1 : 1;
    if (current !== undefined && current === previous + step && levels[current] === levels[previous]) continue;
    const [a, b] = [order[first]!, previous];
    runs.push({ start: Math.min(a, b), end: Math.max(a, b) + 1, rtl: levels[a]! % 2 === 1 });
    first = index;
  }
  return runs;
}

/** The run `line[start, end)` shaped in its direction, its glyphs left to right (`index` counted in `line`). */
function shapeRun(shaper: Shaper, font: EmbeddedFont, size: number, line: string, { start, end, rtl }: { start: number; end: number; rtl: boolean }): PlacedGlyph[] {
  const { buffer, upem, charOf } = shaper;
  buffer.reset();
  // Each run is shaped with the characters around it as context (HarfBuzz looks at five on each side), so a letter
  // at the run's edge joins as it should; no more of the line is copied, which would make long lines quadratic.
  const offset = Math.max(0, start - CONTEXT);
  buffer.addText(line.slice(offset, end + CONTEXT), start - offset, end - start);
  buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
  // Bidi controls (isolates, marks) have no ink: dropped rather than drawn as zero-width spaces.
  buffer.setFlags(hb.BufferFlag.REMOVE_DEFAULT_IGNORABLES);
  // One cluster per character, so a glyph drawn as its characters knows exactly which they are.
  buffer.setClusterLevel(hb.ClusterLevel.MONOTONE_CHARACTERS);
  buffer.guessSegmentProperties();
  hb.shape(shaper.font, buffer);
  const [shaped, positions] = [buffer.getGlyphInfos(), buffer.getGlyphPositions()];
  const scale = size / upem;
  // A cluster's characters run from its index to the next cluster's (in logical order), or to the run's end.
  for (const glyph of shaped) glyph.cluster += offset;
  const clusters = [...new Set(shaped.map((glyph) => glyph.cluster)), end].sort((a, b) => a - b);
  const glyphs: PlacedGlyph[] = [];
  const drawnAsCharacters = new Set<number>();
  shaped.forEach((glyph, index) => {
    const position = positions[index]!;
    const [dx, dy] = [position.xOffset * scale, position.yOffset * scale];
    const char = charOf.get(glyph.codepoint);
    if (char !== undefined) {
      glyphs.push({ char, index: glyph.cluster, dx, dy, advance: position.xAdvance * scale });
      return;
    }
    if (drawnAsCharacters.has(glyph.cluster)) return;
    drawnAsCharacters.add(glyph.cluster);
    const text = line.slice(glyph.cluster, clusters[clusters.indexOf(glyph.cluster) + 1]);
    const chars = rtl ? [...text].reverse() : [...text];
    // Not in the font at all (CJK), or a glyph libpdf cannot reach by a character: nominal glyphs, as before shaping.
    for (const fallback of chars) glyphs.push({ char: fallback, index: glyph.cluster, dx, dy, advance: font.widthOfTextAtSize(fallback, size) });
  });
  return glyphs;
}

/**
 * Draws a line of text with its left end at `x` on the baseline `y`: its shaped `glyphs` where it has them, else its
 * `text` as libpdf draws it.
 * @example drawLine(page, textLine('أحمد', font, 12), { x: 72, y: 700, font, size: 12, color: rgb(0, 0, 0) })
 */
export function drawLine(page: PDFPage, line: { text: string; glyphs?: readonly PlacedGlyph[] }, at: GlyphsAt): void {
  if (line.glyphs) drawGlyphs(page, line.glyphs, at);
  else page.drawText(line.text, at);
}

interface GlyphsAt {
  x: number;
  y: number;
  font: EmbeddedFont;
  size: number;
  color: RGB;
}

/**
 * Draws shaped `glyphs` with their left end at `x` on the baseline `y`, in one text object: each glyph where
 * HarfBuzz put it, through `TJ` adjustments where that differs from the glyph's width (kerning, marks) and the text
 * rise for a raised or lowered mark. The glyphs are written through the font's character codes, so that libpdf
 * subsets them and maps them back to text.
 * @example drawGlyphs(page, shapeLine(paragraph, 0, paragraph.text.length, font, 12).glyphs, { x: 72, y: 700, font, size: 12, color })
 */
export function drawGlyphs(page: PDFPage, glyphs: readonly PlacedGlyph[], at: GlyphsAt): void {
  const { font, size, color } = at;
  const operators = [
    ops.pushGraphicsState(),
    ops.setNonStrokingRGB(color.red, color.green, color.blue),
    ops.beginText(),
    ops.setFont(page.registerFont(font), size),
    ops.setTextMatrix(1, 0, 0, 1, round(at.x), round(at.y)),
  ];
  // Where the text position is (after the last glyph shown) and where the pen is (HarfBuzz's), from `x`.
  let [cursor, pen, rise] = [0, 0, 0];
  let items: PdfObject[] = [];
  let gids: number[] = [];
  const show = () => {
    if (gids.length > 0) items.push(gidString(gids));
    if (items.length > 0) operators.push(ops.showTextArray(PdfArray.of(...items)));
    [items, gids] = [[], []];
  };
  for (const glyph of glyphs) {
    if (glyph.dy !== rise) {
      show();
      rise = glyph.dy;
      operators.push(ops.setTextRise(round(rise)));
    }
    const gap = pen + glyph.dx - cursor;
    if (Math.abs(gap) > 1e-3) {
      if (gids.length > 0) items.push(gidString(gids));
      items.push(PdfNumber.of(round((-gap * 1000) / size)));
      gids = [];
    }
    // `encodeText` records the glyph for the subset and its character for the ToUnicode map.
    const code = font.encodeText(glyph.char)[0]!;
    gids.push(font.codePointToGid(code));
    cursor = pen + glyph.dx + (font.getWidth(code) * size) / 1000;
    pen += glyph.advance;
  }
  show();
  operators.push(ops.endText(), ops.popGraphicsState());
  page.drawOperators(operators);
}

/** Glyph ids as a content stream string for an Identity-H font: two bytes each. */
function gidString(gids: readonly number[]): PdfString {
  const bytes = new Uint8Array(gids.length * 2);
  gids.forEach((gid, index) => {
    bytes[index * 2] = gid >> 8;
    bytes[index * 2 + 1] = gid & 0xff;
  });
  return PdfString.fromBytes(bytes);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
