/**
 * A content stream as a list of operations, each with the byte range it occupies, so that a rewrite replaces only
 * the operations it changes and leaves every other byte as it was (docs/text-tags.md, "How a tag is removed").
 * Also reads CMaps, which share the syntax (ISO 32000-1 §7.8.2, §9.10.3).
 */

export type Operand =
  | { kind: 'number'; value: number }
  | { kind: 'name'; value: string }
  | { kind: 'string'; bytes: Uint8Array }
  | { kind: 'array'; items: Operand[] }
  | { kind: 'other' };

export interface Operation {
  operator: string;
  operands: Operand[];
  /** Where the operation's first operand (or its operator) starts, and where its operator ends. */
  start: number;
  end: number;
}

const WHITESPACE = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITESPACE[byte] = 1;
const DELIMITER = new Uint8Array(256);
for (const char of '()<>[]{}/%') DELIMITER[char.charCodeAt(0)] = 1;

/** The most operands one operation may carry, and the deepest array: past them the stream is refused. */
const MAX_OPERANDS = 10_000;
const MAX_DEPTH = 64;

export class ContentSyntaxError extends Error {}

/**
 * Reads every operation of a content stream. Inline images (`BI … ID … EI`) are skipped as one operation, `BI`.
 * @example parseOperations(new TextEncoder().encode('BT /F1 12 Tf (Hi) Tj ET')).map((op) => op.operator) // ['BT', 'Tf', 'Tj', 'ET']
 */
export function parseOperations(data: Uint8Array): Operation[] {
  const reader = new Reader(data);
  const operations: Operation[] = [];
  let operands: Operand[] = [];
  let start = -1;
  for (;;) {
    reader.skipSpace();
    if (reader.at >= data.length) break;
    const tokenStart = reader.at;
    const token = reader.token(0);
    if (start < 0) start = tokenStart;
    if (token.kind === 'operator') {
      let end = reader.at;
      if (token.value === 'BI') end = reader.skipInlineImage();
      operations.push({ operator: token.value, operands, start, end });
      operands = [];
      start = -1;
    } else {
      if (operands.length >= MAX_OPERANDS) throw new ContentSyntaxError('an operation has too many operands');
      operands.push(token.operand);
    }
  }
  return operations;
}

type Token = { kind: 'operator'; value: string } | { kind: 'operand'; operand: Operand };

class Reader {
  at = 0;
  constructor(readonly data: Uint8Array) {}

  skipSpace(): void {
    const { data } = this;
    while (this.at < data.length) {
      const byte = data[this.at]!;
      if (WHITESPACE[byte]) this.at++;
      else if (byte === 0x25 /* % */) {
        while (this.at < data.length && data[this.at] !== 0x0a && data[this.at] !== 0x0d) this.at++;
      } else break;
    }
  }

  token(depth: number): Token {
    const { data } = this;
    const byte = data[this.at]!;
    if (byte === 0x28 /* ( */) return operand({ kind: 'string', bytes: this.literalString() });
    if (byte === 0x3c /* < */) {
      if (data[this.at + 1] === 0x3c) {
        this.skipDictionary();
        return operand({ kind: 'other' });
      }
      return operand({ kind: 'string', bytes: this.hexString() });
    }
    if (byte === 0x5b /* [ */) {
      if (depth >= MAX_DEPTH) throw new ContentSyntaxError('arrays nested too deep');
      this.at++;
      const items: Operand[] = [];
      for (;;) {
        this.skipSpace();
        if (this.at >= data.length) throw new ContentSyntaxError('an array is not closed');
        if (data[this.at] === 0x5d /* ] */) {
          this.at++;
          return operand({ kind: 'array', items });
        }
        const item = this.token(depth + 1);
        if (item.kind === 'operand') items.push(item.operand);
        else items.push({ kind: 'other' }); // true, false, null inside an array
        if (items.length > MAX_OPERANDS) throw new ContentSyntaxError('an array has too many items');
      }
    }
    if (byte === 0x2f /* / */) {
      this.at++;
      return operand({ kind: 'name', value: this.name(this.regular()) });
    }
    if (byte === 0x5d || byte === 0x3e || byte === 0x29 || byte === 0x7b || byte === 0x7d) {
      this.at++; // a stray delimiter: PDF readers skip it, so do we
      return operand({ kind: 'other' });
    }
    const word = this.regular();
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return operand({ kind: 'number', value: Number(word) });
    if (/^[+-]?[\d.]+$/.test(word)) return operand({ kind: 'number', value: Number.parseFloat(word.replace(/^([+-]?)\.*/, '$1')) || 0 });
    if (word === 'true' || word === 'false' || word === 'null') return operand({ kind: 'other' });
    return { kind: 'operator', value: word };
  }

  /** The bytes of a run of regular characters (neither whitespace nor a delimiter). */
  regular(): string {
    const { data } = this;
    const from = this.at;
    while (this.at < data.length && !WHITESPACE[data[this.at]!] && !DELIMITER[data[this.at]!]) this.at++;
    if (this.at === from) this.at++; // never stand still
    return latin1(data, from, this.at);
  }

  name(raw: string): string {
    return raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }

  literalString(): Uint8Array {
    const { data } = this;
    const out: number[] = [];
    let nesting = 0;
    this.at++;
    while (this.at < data.length) {
      const byte = data[this.at++]!;
      if (byte === 0x5c /* \ */) {
        const next = data[this.at++];
        if (next === undefined) break;
        const escaped = ESCAPES[next];
        if (escaped !== undefined) out.push(escaped);
        else if (next >= 0x30 && next <= 0x37) {
          let value = next - 0x30;
          for (let n = 0; n < 2 && data[this.at]! >= 0x30 && data[this.at]! <= 0x37; n++) value = value * 8 + data[this.at++]! - 0x30;
          out.push(value & 0xff);
        } else if (next === 0x0d) {
          if (data[this.at] === 0x0a) this.at++;
        } else if (next !== 0x0a) out.push(next);
      } else if (byte === 0x28) {
        nesting++;
        out.push(byte);
      } else if (byte === 0x29) {
        if (nesting === 0) return Uint8Array.from(out);
        nesting--;
        out.push(byte);
      } else out.push(byte);
    }
    throw new ContentSyntaxError('a string is not closed');
  }

  hexString(): Uint8Array {
    const { data } = this;
    const digits: number[] = [];
    this.at++;
    while (this.at < data.length && data[this.at] !== 0x3e) {
      const value = hexValue(data[this.at++]!);
      if (value >= 0) digits.push(value);
    }
    if (this.at >= data.length) throw new ContentSyntaxError('a hex string is not closed');
    this.at++;
    if (digits.length % 2) digits.push(0);
    const bytes = new Uint8Array(digits.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = digits[2 * i]! * 16 + digits[2 * i + 1]!;
    return bytes;
  }

  skipDictionary(): void {
    const { data } = this;
    let depth = 0;
    while (this.at < data.length) {
      if (data[this.at] === 0x3c && data[this.at + 1] === 0x3c) {
        depth++;
        this.at += 2;
      } else if (data[this.at] === 0x3e && data[this.at + 1] === 0x3e) {
        depth--;
        this.at += 2;
        if (depth === 0) return;
      } else if (data[this.at] === 0x28) this.literalString();
      else this.at++;
    }
    throw new ContentSyntaxError('a dictionary is not closed');
  }

  /** From just after `BI`: past its dictionary, `ID`, the image's bytes and `EI`; returns where `EI` ends. */
  skipInlineImage(): number {
    const { data } = this;
    for (;;) {
      this.skipSpace();
      if (this.at >= data.length) throw new ContentSyntaxError('an inline image is not closed');
      const token = this.token(0);
      if (token.kind === 'operator' && token.value === 'ID') break;
    }
    this.at++; // the single whitespace after ID
    while (this.at < data.length) {
      if (
        data[this.at] === 0x45 &&
        data[this.at + 1] === 0x49 &&
        WHITESPACE[data[this.at - 1]!] &&
        (this.at + 2 >= data.length || WHITESPACE[data[this.at + 2]!] || DELIMITER[data[this.at + 2]!])
      ) {
        this.at += 2;
        return this.at;
      }
      this.at++;
    }
    throw new ContentSyntaxError('an inline image is not closed');
  }
}

const ESCAPES: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c, 0x28: 0x28, 0x29: 0x29, 0x5c: 0x5c };

function operand(value: Operand): Token {
  return { kind: 'operand', operand: value };
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

function latin1(data: Uint8Array, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) text += String.fromCharCode(data[i]!);
  return text;
}

/** A string operand as PDF hex, which needs no escaping. */
export function hexOperand(bytes: Uint8Array): string {
  return `<${Buffer.from(bytes).toString('hex')}>`;
}

/** A number as PDF writes it: no exponent, at most 6 decimals. */
export function pdfNumber(value: number): string {
  const fixed = value.toFixed(6).replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
}
