/**
 * A page's text as its content stream shows it, glyph by glyph: each glyph's Unicode text, its box in user space,
 * and the operator and bytes that drew it, so that a tag found in the text can be taken out of the stream
 * (docs/text-tags.md, "How a tag is found"). Text state and matrices as ISO 32000-1 §9.3, §9.4.
 */
import { PdfDict, type PdfObject } from '@libpdf/core';
import type { Operation } from './content-stream.js';
import { asDict, fontDecoder, type FontDecoder, type Resolve } from './fonts.js';

/** `[a b c d e f]`, a PDF transformation matrix. */
export type Matrix = [number, number, number, number, number, number];

export interface Glyph {
  /** The operation that drew it, and which of its strings (0 for `Tj`, `'`, `"`; the array index for `TJ`). */
  operation: number;
  segment: number;
  byteStart: number;
  byteEnd: number;
  /** How far it moved the text position, as a `TJ` adjustment would (thousandths of the font size, positive). */
  advance: number;
  /** Its box in user space: lower-left and upper-right. */
  box: [number, number, number, number];
  /** Its text's range in the page's text. */
  textStart: number;
  textEnd: number;
}

export interface PageText {
  text: string;
  /** For each UTF-16 unit of `text`, the glyph it came from, or -1 for a space inferred from a gap. */
  owners: number[];
  glyphs: Glyph[];
}

export class PageTextLimitError extends Error {
  constructor(
    readonly limit: 'tags' | 'glyphs',
    message: string,
  ) {
    super(message);
  }
}

interface TextLimits {
  /** Stop once the text holds more than this many `{{`: the caller refuses the document. */
  maxTagOpenings: number;
  /** Stop past this many glyphs on the page. */
  maxGlyphs: number;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `m1 × m2`: apply `m1`, then `m2`. */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/**
 * Reads the text of a page's content stream (not of the form XObjects it draws). A gap between two glyphs wider
 * than a fifth of the font size, or a jump to another line, reads as one space, as text extraction does.
 * @throws PageTextLimitError past `limits`
 */
export function readPageText(operations: Operation[], resources: PdfDict | undefined, resolve: Resolve, fonts: Map<PdfObject, FontDecoder>, limits: TextLimits): PageText {
  const fontDicts = asDict(resolve(resources?.get('Font')));
  const glyphs: Glyph[] = [];
  const owners: number[] = [];
  // The text as pieces, joined once: reading back a string grown by `+=` flattens it every time.
  const pieces: string[] = [];
  let length = 0;
  let lastChar = '';
  let openings = 0;
  let ctm: Matrix = IDENTITY;
  const stack: { ctm: Matrix; state: TextState }[] = [];
  let state = initialState();
  let tm: Matrix = IDENTITY;
  let tlm: Matrix = IDENTITY;
  let last: { x: number; y: number; size: number } | undefined;

  const show = (index: number, segment: number, bytes: Uint8Array) => {
    const font = state.font;
    if (!font) return;
    const { size, charSpacing, wordSpacing, scale, rise } = state;
    // Text space to user space for this string; each glyph is `tx` further along its x axis.
    const [a, b, c, d, e, f] = multiply(tm, ctm);
    const hx = size * scale;
    // Math.hypot is several times slower than this in V8, and it runs for every glyph.
    const height = Math.sqrt(c * c + d * d) * Math.abs(size);
    const bottom = font.descent * size + rise;
    const top = font.ascent * size + rise;
    let tx = 0;
    for (const code of font.decode(bytes)) {
      const spacing = charSpacing + (code.wordSpace ? wordSpacing : 0);
      if (size === 0) {
        tx += spacing * scale;
        continue;
      }
      const advance = code.width + spacing / size;
      const x = a * tx + c * rise + e;
      const y = b * tx + d * rise + f;
      if (last && lastChar !== ' ') {
        const dx = x - last.x;
        const dy = y - last.y;
        const gap = 0.2 * Math.max(height, last.size);
        if (dx * dx + dy * dy > gap * gap) {
          pieces.push(' ');
          owners.push(-1);
          length++;
          lastChar = ' ';
        }
      }
      const unicode = code.unicode;
      const textStart = length;
      pieces.push(unicode);
      length += unicode.length;
      for (let i = 0; i < unicode.length; i++) owners.push(glyphs.length);
      if (unicode === '{' && lastChar === '{' && ++openings > limits.maxTagOpenings) {
        throw new PageTextLimitError('tags', `more than ${limits.maxTagOpenings} tags`);
      }
      if (unicode !== '') lastChar = unicode === '{' && lastChar === '{' ? '' : unicode[unicode.length - 1]!;
      const right = tx + code.width * hx;
      // The glyph's corners: (tx | right, bottom | top) in text space, through [a b c d e f].
      const xs0 = a * tx + c * bottom;
      const xs1 = a * right + c * bottom;
      const xs2 = a * tx + c * top;
      const xs3 = a * right + c * top;
      const ys0 = b * tx + d * bottom;
      const ys1 = b * right + d * bottom;
      const ys2 = b * tx + d * top;
      const ys3 = b * right + d * top;
      glyphs.push({
        operation: index,
        segment,
        byteStart: code.byteStart,
        byteEnd: code.byteEnd,
        advance: advance * 1000,
        box: [Math.min(xs0, xs1, xs2, xs3) + e, Math.min(ys0, ys1, ys2, ys3) + f, Math.max(xs0, xs1, xs2, xs3) + e, Math.max(ys0, ys1, ys2, ys3) + f],
        textStart,
        textEnd: length,
      });
      if (glyphs.length > limits.maxGlyphs) throw new PageTextLimitError('glyphs', `a page shows more than ${limits.maxGlyphs} characters`);
      tx += advance * hx;
      last = { x: a * tx + c * rise + e, y: b * tx + d * rise + f, size: height };
    }
    if (tx !== 0) tm = multiply([1, 0, 0, 1, tx, 0], tm);
  };
  const moveTo = (tx: number, ty: number) => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
  };

  operations.forEach((operation, index) => {
    const { operator, operands } = operation;
    const numbers = operands.map((operand) => (operand.kind === 'number' ? operand.value : Number.NaN));
    switch (operator) {
      case 'q':
        if (stack.length < 256) stack.push({ ctm, state: { ...state } });
        break;
      case 'Q': {
        const saved = stack.pop();
        if (saved) ({ ctm, state } = saved);
        break;
      }
      case 'cm':
        if (numbers.length === 6 && numbers.every(Number.isFinite)) ctm = multiply(numbers as Matrix, ctm);
        break;
      case 'BT':
        tm = tlm = IDENTITY;
        break;
      case 'Tf': {
        const name = operands[0];
        const font = name?.kind === 'name' ? resolve(fontDicts?.get(name.value)) : undefined;
        if (font instanceof PdfDict) {
          let decoder = fonts.get(font);
          if (!decoder) fonts.set(font, (decoder = fontDecoder(font, resolve)));
          state.font = decoder;
        }
        if (Number.isFinite(numbers[1])) state.size = numbers[1]!;
        break;
      }
      case 'Tc':
        if (Number.isFinite(numbers[0])) state.charSpacing = numbers[0]!;
        break;
      case 'Tw':
        if (Number.isFinite(numbers[0])) state.wordSpacing = numbers[0]!;
        break;
      case 'Tz':
        if (Number.isFinite(numbers[0])) state.scale = numbers[0]! / 100;
        break;
      case 'TL':
        if (Number.isFinite(numbers[0])) state.leading = numbers[0]!;
        break;
      case 'Ts':
        if (Number.isFinite(numbers[0])) state.rise = numbers[0]!;
        break;
      case 'Td':
      case 'TD':
        if (numbers.length === 2 && numbers.every(Number.isFinite)) {
          if (operator === 'TD') state.leading = -numbers[1]!;
          moveTo(numbers[0]!, numbers[1]!);
        }
        break;
      case 'Tm':
        if (numbers.length === 6 && numbers.every(Number.isFinite)) tm = tlm = numbers as Matrix;
        break;
      case 'T*':
        moveTo(0, -state.leading);
        break;
      case 'Tj':
        if (operands[0]?.kind === 'string') show(index, 0, operands[0].bytes);
        break;
      case "'":
        moveTo(0, -state.leading);
        if (operands[0]?.kind === 'string') show(index, 0, operands[0].bytes);
        break;
      case '"':
        if (operands.length === 3 && Number.isFinite(numbers[0]) && Number.isFinite(numbers[1])) {
          state.wordSpacing = numbers[0]!;
          state.charSpacing = numbers[1]!;
        }
        moveTo(0, -state.leading);
        if (operands[2]?.kind === 'string') show(index, 2, operands[2].bytes);
        break;
      case 'TJ': {
        const array = operands[0];
        if (array?.kind !== 'array') break;
        array.items.forEach((item, segment) => {
          if (item.kind === 'string') show(index, segment, item.bytes);
          else if (item.kind === 'number') tm = multiply([1, 0, 0, 1, (-item.value / 1000) * state.size * state.scale, 0], tm);
        });
        break;
      }
    }
  });
  return { text: pieces.join(''), owners, glyphs };
}

interface TextState {
  font: FontDecoder | undefined;
  size: number;
  charSpacing: number;
  wordSpacing: number;
  scale: number;
  leading: number;
  rise: number;
}

function initialState(): TextState {
  return { font: undefined, size: 0, charSpacing: 0, wordSpacing: 0, scale: 1, leading: 0, rise: 0 };
}
