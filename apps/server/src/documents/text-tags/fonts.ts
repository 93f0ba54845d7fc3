/**
 * What a text-showing operator's bytes are, in a given font: its character codes, each code's Unicode text (to find
 * tags) and its advance width (to keep the neighbours of a removed tag in place). Simple fonts (Type1, TrueType,
 * Type3) and composite fonts (Type0) with Identity or embedded CMaps (ISO 32000-1 §9.4.4, §9.6, §9.7, §9.10).
 */
import { PdfArray, PdfDict, PdfName, PdfNumber, PdfRef, PdfStream, Standard14Font, type PdfObject, type Standard14FontName } from '@libpdf/core';
import { parseOperations, type Operand } from './content-stream.js';

export type Resolve = (object: PdfObject | undefined) => PdfObject | undefined;

/** One character code of a string, where its bytes are, what it reads as and how far it advances. */
export interface DecodedCode {
  byteStart: number;
  byteEnd: number;
  unicode: string;
  /** The glyph's advance, in text space units per point of font size (a thousandth of the `/Widths` number). */
  width: number;
  /** A single-byte code 32, which word spacing (`Tw`) widens. */
  wordSpace: boolean;
}

export interface FontDecoder {
  decode(bytes: Uint8Array): DecodedCode[];
  /** Top and bottom of the glyphs, per point of font size (from the font's descriptor, or 0.8 and -0.2). */
  ascent: number;
  descent: number;
}

const STANDARD_14 = new Set<string>([
  'Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique', 'Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique',
  'Helvetica-BoldOblique', 'Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic', 'Symbol', 'ZapfDingbats',
]);
/** Names the standard fonts go by in the wild (Arial for Helvetica, as PDF readers substitute). */
const STANDARD_ALIASES: Record<string, string> = {
  Arial: 'Helvetica', 'Arial,Bold': 'Helvetica-Bold', 'Arial,Italic': 'Helvetica-Oblique', 'Arial,BoldItalic': 'Helvetica-BoldOblique',
  ArialMT: 'Helvetica', 'Arial-BoldMT': 'Helvetica-Bold', TimesNewRoman: 'Times-Roman', 'TimesNewRoman,Bold': 'Times-Bold',
  CourierNew: 'Courier', 'CourierNew,Bold': 'Courier-Bold',
};

const win1252 = new TextDecoder('windows-1252');
let macRoman: TextDecoder | undefined;

/**
 * A decoder for the font dictionary `font`; fonts are read once a document and shared across its pages.
 * @example fontDecoder(fontDict, resolve).decode(bytes) // [{ byteStart: 0, byteEnd: 1, unicode: '{', width: 0.334, wordSpace: false }, …]
 */
export function fontDecoder(font: PdfDict, resolve: Resolve): FontDecoder {
  const subtype = nameOf(resolve(font.get('Subtype')));
  return subtype === 'Type0' ? compositeFont(font, resolve) : simpleFont(font, resolve, subtype);
}

function simpleFont(font: PdfDict, resolve: Resolve, subtype: string | undefined): FontDecoder {
  const toUnicode = toUnicodeMap(resolve(font.get('ToUnicode')));
  const encoding = simpleEncoding(resolve(font.get('Encoding')), resolve);
  const firstChar = numberOf(resolve(font.get('FirstChar'))) ?? 0;
  const widthsArray = resolve(font.get('Widths'));
  const descriptor = asDict(resolve(font.get('FontDescriptor')));
  const missingWidth = numberOf(resolve(descriptor?.get('MissingWidth'))) ?? 0;
  // Type3 widths are in glyph space, which its font matrix maps to text space; the others' are thousandths.
  const matrix = resolve(font.get('FontMatrix'));
  const scale = subtype === 'Type3' && matrix instanceof PdfArray ? (numberOf(resolve(matrix.at(0))) ?? 0.001) : 0.001;
  const widths = new Float64Array(256).fill(Number.NaN);
  if (widthsArray instanceof PdfArray) {
    for (let i = 0; i < widthsArray.length && firstChar + i < 256; i++) {
      const width = numberOf(resolve(widthsArray.at(i)));
      if (width !== undefined && firstChar + i >= 0) widths[firstChar + i] = width * scale;
    }
  }
  const unicodes: string[] = [];
  for (let code = 0; code < 256; code++) {
    const bytes = String.fromCharCode(code);
    unicodes.push(toUnicode?.get(bytes) ?? encoding[code] ?? '');
  }
  const baseName = (nameOf(resolve(font.get('BaseFont'))) ?? '').replace(/^[A-Z]{6}\+/, '');
  const standardName = STANDARD_14.has(baseName) ? baseName : STANDARD_ALIASES[baseName];
  if (!(widthsArray instanceof PdfArray) && standardName) {
    const standard = Standard14Font.of(standardName as Standard14FontName);
    for (let code = 0; code < 256; code++) {
      const text = unicodes[code]!;
      if (text !== '') widths[code] = safeWidth(standard, text);
    }
  }
  for (let code = 0; code < 256; code++) if (Number.isNaN(widths[code]!)) widths[code] = missingWidth * 0.001;
  const { ascent, descent } = metrics(descriptor, resolve);
  return {
    ascent,
    descent,
    decode(bytes) {
      const codes: DecodedCode[] = [];
      for (let i = 0; i < bytes.length; i++) {
        const code = bytes[i]!;
        codes.push({ byteStart: i, byteEnd: i + 1, unicode: unicodes[code]!, width: widths[code]!, wordSpace: code === 32 });
      }
      return codes;
    },
  };
}

function safeWidth(font: Standard14Font, text: string): number {
  try {
    return font.widthOfTextAtSize(text, 1);
  } catch {
    return Number.NaN;
  }
}

function compositeFont(font: PdfDict, resolve: Resolve): FontDecoder {
  const toUnicode = toUnicodeMap(resolve(font.get('ToUnicode')));
  const encoding = resolve(font.get('Encoding'));
  const cmap = encoding instanceof PdfStream ? embeddedCMap(encoding) : undefined;
  const descendants = resolve(font.get('DescendantFonts'));
  const cidFont = asDict(descendants instanceof PdfArray ? resolve(descendants.at(0)) : undefined);
  const defaultWidth = (numberOf(resolve(cidFont?.get('DW'))) ?? 1000) * 0.001;
  const widths = cidWidths(resolve(cidFont?.get('W')), resolve);
  const { ascent, descent } = metrics(asDict(resolve(cidFont?.get('FontDescriptor'))), resolve);
  return {
    ascent,
    descent,
    decode(bytes) {
      const codes: DecodedCode[] = [];
      let i = 0;
      while (i < bytes.length) {
        const length = cmap ? cmap.codeLength(bytes, i) : 2;
        const end = Math.min(bytes.length, i + length);
        const key = String.fromCharCode(...bytes.subarray(i, end));
        let code = 0;
        for (let j = i; j < end; j++) code = code * 256 + bytes[j]!;
        const cid = cmap ? (cmap.cid(key, code) ?? 0) : code;
        codes.push({
          byteStart: i,
          byteEnd: end,
          unicode: toUnicode?.get(key) ?? '',
          width: widths.get(cid) ?? defaultWidth,
          wordSpace: end - i === 1 && code === 32,
        });
        i = end;
      }
      return codes;
    },
  };
}

/** `/W`: `c [w1 w2 …]` and `cFirst cLast w` (ISO 32000-1 §9.7.4.3). */
function cidWidths(array: PdfObject | undefined, resolve: Resolve): Map<number, number> {
  const widths = new Map<number, number>();
  if (!(array instanceof PdfArray)) return widths;
  const items = array.toArray().map((item) => resolve(item));
  for (let i = 0; i < items.length; ) {
    const first = numberOf(items[i]);
    const next = items[i + 1];
    if (first === undefined) break;
    if (next instanceof PdfArray) {
      next.toArray().forEach((width, offset) => {
        const value = numberOf(resolve(width));
        if (value !== undefined && widths.size < 65_536) widths.set(first + offset, value * 0.001);
      });
      i += 2;
    } else {
      const last = numberOf(next);
      const width = numberOf(items[i + 2]);
      if (last === undefined || width === undefined) break;
      for (let cid = first; cid <= last && cid - first < 65_536; cid++) widths.set(cid, width * 0.001);
      i += 3;
    }
  }
  return widths;
}

function metrics(descriptor: PdfDict | undefined, resolve: Resolve): { ascent: number; descent: number } {
  const ascent = numberOf(resolve(descriptor?.get('Ascent')));
  const descent = numberOf(resolve(descriptor?.get('Descent')));
  // Many fonts leave these out or give zeros; a tag's box then takes the usual proportions of Latin type.
  if (ascent === undefined || descent === undefined || ascent <= 0 || descent > 0 || ascent - descent > 3000) return { ascent: 0.8, descent: -0.2 };
  return { ascent: ascent / 1000, descent: descent / 1000 };
}

/** A simple font's code → Unicode from its `/Encoding`: a base encoding and its `/Differences`. */
function simpleEncoding(encoding: PdfObject | undefined, resolve: Resolve): string[] {
  const dict = asDict(encoding);
  const base = nameOf(dict ? resolve(dict.get('BaseEncoding')) : encoding);
  const table = baseEncoding(base);
  const differences = dict ? resolve(dict.get('Differences')) : undefined;
  if (differences instanceof PdfArray) {
    let code = 0;
    for (const item of differences.toArray()) {
      const value = resolve(item);
      if (value instanceof PdfNumber) code = value.value;
      else if (value instanceof PdfName) {
        if (code >= 0 && code < 256) table[code] = glyphNameUnicode(value.value);
        code++;
      }
    }
  }
  return table;
}

function baseEncoding(name: string | undefined): string[] {
  const table: string[] = [];
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  if (name === 'MacRomanEncoding') {
    macRoman ??= new TextDecoder('macintosh');
    const text = macRoman.decode(bytes);
    for (let i = 0; i < 256; i++) table.push(i < 32 ? '' : text[i]!);
  } else {
    // WinAnsi, and the standard encoding too where tags are concerned: both are ASCII in the printable range.
    const text = win1252.decode(bytes);
    for (let i = 0; i < 256; i++) table.push(i < 32 ? '' : text[i]!);
  }
  return table;
}

/** The glyph names of ASCII punctuation and digits (the Adobe Glyph List's), and `uniXXXX`/`uXXXX` names. */
const GLYPH_NAMES: Record<string, string> = {
  space: ' ', exclam: '!', quotedbl: '"', numbersign: '#', dollar: '$', percent: '%', ampersand: '&', quotesingle: "'",
  quoteright: '\u2019', quoteleft: '\u2018', parenleft: '(', parenright: ')', asterisk: '*', plus: '+', comma: ',',
  hyphen: '-', period: '.', slash: '/', colon: ':', semicolon: ';', less: '<', equal: '=', greater: '>', question: '?',
  at: '@', bracketleft: '[', backslash: '\\', bracketright: ']', asciicircum: '^', underscore: '_', grave: '`',
  braceleft: '{', bar: '|', braceright: '}', asciitilde: '~', zero: '0', one: '1', two: '2', three: '3', four: '4',
  five: '5', six: '6', seven: '7', eight: '8', nine: '9',
};

function glyphNameUnicode(name: string): string {
  const base = name.split('.')[0]!;
  if (GLYPH_NAMES[base] !== undefined) return GLYPH_NAMES[base];
  if (/^[A-Za-z]$/.test(base)) return base;
  const uni = /^uni([0-9A-F]{4})$/.exec(base) ?? /^u([0-9A-F]{4,6})$/.exec(base);
  if (uni) {
    const code = Number.parseInt(uni[1]!, 16);
    if (code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) return String.fromCodePoint(code);
  }
  return '';
}

/** The most entries a CMap may define: a range of 65,536 codes counts as that many. */
const MAX_CMAP_ENTRIES = 200_000;

/** A ToUnicode CMap: the bytes of a code (as a binary string) → its Unicode text. */
function toUnicodeMap(stream: PdfObject | undefined): Map<string, string> | undefined {
  if (!(stream instanceof PdfStream)) return undefined;
  const map = new Map<string, string>();
  const operations = parseOperations(stream.getDecodedData());
  for (const { operator, operands } of operations) {
    if (operator === 'endbfchar') {
      for (let i = 0; i + 1 < operands.length; i += 2) {
        const source = bytesOf(operands[i]);
        const target = bytesOf(operands[i + 1]);
        if (source && target) map.set(binary(source), utf16(target));
      }
    } else if (operator === 'endbfrange') {
      for (let i = 0; i + 2 < operands.length; i += 3) {
        const low = bytesOf(operands[i]);
        const high = bytesOf(operands[i + 1]);
        const target = operands[i + 2]!;
        if (!low || !high || low.length !== high.length) continue;
        const from = integer(low);
        const to = Math.min(integer(high), from + 65_535);
        for (let code = from; code <= to && map.size < MAX_CMAP_ENTRIES; code++) {
          const key = binary(codeBytes(code, low.length));
          if (target.kind === 'array') {
            const item = bytesOf(target.items[code - from]);
            if (item) map.set(key, utf16(item));
          } else {
            const start = bytesOf(target);
            if (!start || start.length === 0) continue;
            const shifted = Uint8Array.from(start);
            // The last byte counts up across the range (ISO 32000-1 §9.10.3).
            shifted[shifted.length - 1] = (start[start.length - 1]! + code - from) & 0xff;
            map.set(key, utf16(shifted));
          }
        }
      }
    }
    if (map.size >= MAX_CMAP_ENTRIES) break;
  }
  return map;
}

/** An embedded CMap of a Type0 font: how long each code is, and its CID. */
function embeddedCMap(stream: PdfStream): { codeLength(bytes: Uint8Array, at: number): number; cid(key: string, code: number): number | undefined } {
  const ranges: { low: Uint8Array; high: Uint8Array }[] = [];
  const cids = new Map<string, number>();
  const cidRanges: { length: number; from: number; to: number; cid: number }[] = [];
  for (const { operator, operands } of parseOperations(stream.getDecodedData())) {
    if (operator === 'endcodespacerange') {
      for (let i = 0; i + 1 < operands.length; i += 2) {
        const low = bytesOf(operands[i]);
        const high = bytesOf(operands[i + 1]);
        if (low && high && low.length === high.length && low.length > 0 && low.length <= 4) ranges.push({ low, high });
      }
    } else if (operator === 'endcidchar') {
      for (let i = 0; i + 1 < operands.length; i += 2) {
        const source = bytesOf(operands[i]);
        const cid = operands[i + 1];
        if (source && cid?.kind === 'number') cids.set(binary(source), cid.value);
      }
    } else if (operator === 'endcidrange') {
      for (let i = 0; i + 2 < operands.length; i += 3) {
        const low = bytesOf(operands[i]);
        const high = bytesOf(operands[i + 1]);
        const cid = operands[i + 2];
        if (low && high && cid?.kind === 'number') cidRanges.push({ length: low.length, from: integer(low), to: integer(high), cid: cid.value });
      }
    }
  }
  const identity = cids.size === 0 && cidRanges.length === 0;
  return {
    codeLength(bytes, at) {
      for (const { low, high } of ranges) {
        if (at + low.length > bytes.length) continue;
        let inside = true;
        for (let j = 0; j < low.length && inside; j++) inside = bytes[at + j]! >= low[j]! && bytes[at + j]! <= high[j]!;
        if (inside) return low.length;
      }
      return ranges[0]?.low.length ?? 2;
    },
    cid(key, code) {
      if (identity) return code;
      const single = cids.get(key);
      if (single !== undefined) return single;
      for (const range of cidRanges) if (range.length === key.length && code >= range.from && code <= range.to) return range.cid + code - range.from;
      return undefined;
    },
  };
}

function bytesOf(operand: Operand | undefined): Uint8Array | undefined {
  return operand?.kind === 'string' ? operand.bytes : undefined;
}

function integer(bytes: Uint8Array): number {
  let value = 0;
  for (const byte of bytes) value = value * 256 + byte;
  return value;
}

function codeBytes(code: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--) {
    bytes[i] = code & 0xff;
    code = Math.floor(code / 256);
  }
  return bytes;
}

function binary(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

function utf16(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode(bytes[i]! * 256 + bytes[i + 1]!);
  if (bytes.length % 2) text += String.fromCharCode(bytes[bytes.length - 1]!);
  return text;
}

export function nameOf(object: PdfObject | undefined): string | undefined {
  return object instanceof PdfName ? object.value : undefined;
}

export function numberOf(object: PdfObject | undefined): number | undefined {
  return object instanceof PdfNumber && Number.isFinite(object.value) ? object.value : undefined;
}

export function asDict(object: PdfObject | undefined): PdfDict | undefined {
  return object instanceof PdfDict ? object : undefined;
}

export function resolver(getObject: (ref: PdfRef) => PdfObject | null): Resolve {
  return (object) => (object instanceof PdfRef ? (getObject(object) ?? undefined) : object);
}

