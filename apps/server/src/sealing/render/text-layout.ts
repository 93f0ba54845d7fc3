import { layoutText, type EmbeddedFont } from '@libpdf/core';
import type { TextStyle } from '@signet/contract';
import type { DisplayedRect } from './page-geometry.js';
import { bidiParagraph, shapeLine, type BidiParagraph, type PlacedGlyph } from './text-shaping.js';

/**
 * One line of text, measured. Left-to-right text is drawn as it is stored (`text`); a line with right-to-left text
 * in it carries its `glyphs`, reordered and shaped, which are what is drawn.
 */
export interface TextLine {
  /** The line's characters in logical (stored) order. */
  text: string;
  width: number;
  /** Its paragraph's base direction is right to left: the line starts at the right edge. */
  rtl: boolean;
  glyphs?: PlacedGlyph[];
}

/** One line of a text field, placed: its baseline's left end in displayed points. */
export interface PlacedLine extends TextLine {
  x: number;
  y: number;
}

/** Lines after the first are this many font sizes apart. */
const LINE_HEIGHT = 1.2;
/** The viewer's input pads its text by 0.35em left and right (`.signet-input`). */
const PADDING_EM = 0.35;
/** The viewer's input text takes this share of its field's height (`textStyle` in the viewer's field-geometry.ts). */
const TEXT_HEIGHT_RATIO = 0.62;

/**
 * The style a text field was shown with when the submission does not carry one: the viewer's rule (font size from
 * the field's height on the page, 6 to 24 pt by halves, left aligned).
 * @example defaultTextStyle(22) // { fontSize: 13.5, fontFamily: 'Helvetica', textAlign: 'left' }
 */
export function defaultTextStyle(fieldHeightPoints: number): TextStyle {
  const fontSize = Math.max(6, Math.min(24, Math.round(fieldHeightPoints * TEXT_HEIGHT_RATIO * 2) / 2));
  return { fontSize, fontFamily: 'Helvetica', textAlign: 'left' };
}

/** The space above a multi-line field's first line, in ems (the viewer's textarea: `padding: 0.25em`). */
const TOP_PADDING_EM = 0.25;

/**
 * Lays `text` out in `rect` as the viewer shows a field: padded left and right, aligned by `style.textAlign` (`left`
 * is the start: the right edge for a paragraph whose base direction is right to left), wrapped at spaces (and inside
 * a word too long for a line), centred vertically while it fits and from the top when it does not, or from the top
 * always when `vertical` is `top` (the caller clips what runs past the bottom).
 * @example layoutField('Jane Doe', rect, { fontSize: 12, textAlign: 'left', fontFamily: 'Helvetica' }, font)
 */
export function layoutField(
  text: string,
  rect: DisplayedRect,
  style: Pick<TextStyle, 'fontSize' | 'textAlign'>,
  font: EmbeddedFont,
  vertical: 'middle' | 'top' = 'middle',
): PlacedLine[] {
  const size = style.fontSize;
  const padding = Math.min(PADDING_EM * size, rect.width / 4);
  const width = Math.max(rect.width - 2 * padding, size);
  const lines = wrap(text, font, size, width);
  const lineHeight = size * LINE_HEIGHT;
  const { ascent, descent } = metrics(font, size);
  const blockHeight = lines.length === 1 ? ascent - descent : lines.length * lineHeight;
  // A multi-line field (`top`) starts under its top edge, as the viewer's textarea does.
  const top =
    vertical === 'top'
      ? rect.y + rect.height - TOP_PADDING_EM * size
      : blockHeight <= rect.height
        ? rect.y + (rect.height + blockHeight) / 2
        : rect.y + rect.height;
  // The first baseline sits its ascent below the block's top; one line is centred on its glyphs' full height.
  const firstBaseline = lines.length === 1 ? top - ascent : top - (lineHeight + ascent + descent) / 2;
  return lines.map((line, index) => {
    const free = width - line.width;
    // The viewer reports `left` for its default, CSS's `start`: a right-to-left paragraph starts at the right edge.
    const end = style.textAlign === 'right' || (style.textAlign === 'left' && line.rtl);
    const offset = style.textAlign === 'center' ? free / 2 : end ? free : 0;
    return { ...line, x: rect.x + padding + offset, y: firstBaseline - index * lineHeight };
  });
}

/** A font's ascent and (negative) descent at `size`, from its descriptor. */
export function metrics(font: EmbeddedFont, size: number): { ascent: number; descent: number } {
  const descriptor = font.descriptor;
  return {
    ascent: ((descriptor?.ascent ?? 800) * size) / 1000,
    descent: (-Math.abs(descriptor?.descent ?? 200) * size) / 1000,
  };
}

/**
 * `text` in lines of at most `width` points, paragraph by paragraph (a line break starts one). A left-to-right
 * paragraph takes libpdf's word wrap, then any word still too wide is broken between code points, as a browser's
 * `overflow-wrap: anywhere` would. A paragraph with right-to-left text is wrapped the same way in logical order,
 * measured as it will be drawn (shaped), and each line is then reordered on its own (UAX #9, rules L1–L2).
 * @example wrap('a very long line', font, 12, 40).map((line) => line.text) // ['a very', 'long', 'line']
 */
export function wrap(text: string, font: EmbeddedFont, size: number, width: number): TextLine[] {
  return text.split(/\r\n|\r|\n/).flatMap((paragraph) => {
    const bidi = bidiParagraph(paragraph.split(/\s+/).filter((word) => word !== '').join(' '));
    return bidi.bidi ? wrapBidi(bidi, font, size, width) : wrapLeftToRight(paragraph, font, size, width);
  });
}

/**
 * `text` as one line, unwrapped (reordered and shaped when it has right-to-left text in it).
 * @example textLine('Signer: أحمد', font, 11).width
 */
export function textLine(text: string, font: EmbeddedFont, size: number): TextLine {
  const bidi = bidiParagraph(text);
  return bidi.bidi ? { text, rtl: bidi.rtl, ...shapeLine(bidi, 0, text.length, font, size) } : { text, rtl: false, width: font.widthOfTextAtSize(text, size) };
}

function wrapLeftToRight(paragraph: string, font: EmbeddedFont, size: number, width: number): TextLine[] {
  const lines: string[] = [];
  for (const line of layoutText(paragraph, font, size, width, size).lines) {
    if (line.width <= width) {
      lines.push(line.text);
      continue;
    }
    let current = '';
    for (const character of line.text) {
      if (current !== '' && font.widthOfTextAtSize(current + character, size) > width) {
        lines.push(current.trimEnd());
        current = character.trimStart();
      } else {
        current += character;
      }
    }
    if (current !== '') lines.push(current);
  }
  return lines.map((line) => ({ text: line, rtl: false, width: font.widthOfTextAtSize(line, size) }));
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Greedy word wrap of a paragraph whose words are one space apart. The paragraph is shaped once to estimate each
 * line's width (an Arabic join never crosses a space, so a line is about as wide as its characters were), and each
 * line is shaped again to be drawn: where its own end forms made it wider than `width`, it gives a break back.
 */
function wrapBidi(paragraph: BidiParagraph, font: EmbeddedFont, size: number, width: number): TextLine[] {
  const { text, rtl } = paragraph;
  // `before[i]`: the width of the characters before `i`, each glyph counted at the first character it stands for.
  const before = new Float64Array(text.length + 1);
  for (const glyph of shapeLine(paragraph, 0, text.length, font, size).glyphs) before[glyph.index + 1]! += glyph.advance;
  for (let index = 1; index < before.length; index++) before[index]! += before[index - 1]!;
  const span = (start: number, end: number) => before[end]! - before[start]!;
  const line = (start: number, end: number): TextLine => ({ text: text.slice(start, end), rtl, ...shapeLine(paragraph, start, end, font, size) });

  // Where a line may end (`end`) and the next begin (`next`): at each space, and between the graphemes of a word too
  // wide for a line of its own, as `overflow-wrap: anywhere` does.
  const breaks: Array<{ end: number; next: number }> = [];
  for (let start = 0; start < text.length; ) {
    const space = text.indexOf(' ', start);
    const end = space === -1 ? text.length : space;
    if (span(start, end) > width) for (const at of graphemeEnds(text, start, end)) if (at < end) breaks.push({ end: at, next: at });
    breaks.push({ end, next: end + 1 });
    start = end + 1;
  }
  const lines: TextLine[] = [];
  for (let from = 0, first = 0; first < breaks.length; ) {
    let last = first;
    while (last + 1 < breaks.length && span(from, breaks[last + 1]!.end) <= width) last++;
    let shaped = line(from, breaks[last]!.end);
    while (shaped.width > width && last > first) shaped = line(from, breaks[--last]!.end);
    lines.push(shaped);
    from = breaks[last]!.next;
    first = last + 1;
  }
  return lines;
}

/**
 * Where each grapheme cluster of `text[start, end)` ends (UAX #29), `end` last. Read a window at a time: V8 segments
 * a long string in quadratic time, and one word can be as long as a whole submission.
 */
function* graphemeEnds(text: string, start: number, end: number): Generator<number> {
  for (let from = start; from < end; ) {
    const stop = Math.min(end, from + 256);
    const ends = [...graphemes.segment(text.slice(from, stop))].map((grapheme) => from + grapheme.index).slice(1);
    // The window's last grapheme may go on past it: the next window starts with it (unless it is the only one).
    if (stop === end || ends.length === 0) ends.push(stop);
    yield* ends;
    from = ends.at(-1)!;
  }
}
