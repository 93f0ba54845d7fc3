import { layoutText, type EmbeddedFont } from '@libpdf/core';
import type { TextStyle } from '@signet/contract';
import type { DisplayedRect } from './page-geometry.js';

/** One line of a text field, placed: its baseline's start in displayed points. */
export interface PlacedLine {
  text: string;
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
 * Lays `text` out in `rect` as the viewer shows a field: padded left and right, aligned by `style.textAlign`,
 * wrapped at spaces (and inside a word too long for a line), centred vertically while it fits and from the top when
 * it does not, or from the top always when `vertical` is `top` (the caller clips what runs past the bottom).
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
    const lineWidth = font.widthOfTextAtSize(line, size);
    const free = width - lineWidth;
    const offset = style.textAlign === 'center' ? free / 2 : style.textAlign === 'right' ? free : 0;
    return { text: line, x: rect.x + padding + offset, y: firstBaseline - index * lineHeight };
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
 * `text` in lines of at most `width` points: libpdf's word wrap, then any word still too wide broken between code
 * points, as a browser's `overflow-wrap: anywhere` would.
 * @example wrap('a very long line', font, 12, 40) // ['a very', 'long', 'line']
 */
export function wrap(text: string, font: EmbeddedFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const line of layoutText(text, font, size, width, size).lines) {
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
  return lines;
}
