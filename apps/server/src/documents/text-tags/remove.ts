/**
 * Takes glyphs out of a content stream without moving any other (docs/text-tags.md, "How a tag is removed"): each
 * text-showing operation that drew a removed glyph becomes a `TJ` whose strings keep the other glyphs' bytes and
 * whose numbers advance the text position by exactly the removed glyphs' widths. Every other byte stays as it was.
 */
import { hexOperand, pdfNumber, type Operand, type Operation } from './content-stream.js';
import type { Glyph } from './page-text.js';

/**
 * The content stream `data` (parsed as `operations`) without `removed`.
 * @example removeGlyphs(data, operations, tagGlyphs) // the same stream, `(Tenant: {{signature}} Date)Tj` as `[<54656e616e743a20> -6450.2 <2044617465>]TJ`
 */
export function removeGlyphs(data: Uint8Array, operations: Operation[], removed: readonly Glyph[]): Uint8Array {
  const byOperation = new Map<number, Glyph[]>();
  for (const glyph of removed) {
    const list = byOperation.get(glyph.operation);
    if (list) list.push(glyph);
    else byOperation.set(glyph.operation, [glyph]);
  }
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const index of [...byOperation.keys()].sort((a, b) => a - b)) {
    const operation = operations[index]!;
    parts.push(data.subarray(at, operation.start), encoder.encode(rewrite(operation, byOperation.get(index)!)));
    at = operation.end;
  }
  parts.push(data.subarray(at));
  return Buffer.concat(parts);
}

function rewrite(operation: Operation, removed: Glyph[]): string {
  const { operator, operands } = operation;
  const segments: Operand[] = operator === 'TJ' && operands[0]?.kind === 'array' ? operands[0].items : [];
  const items: string[] = [];
  const pushSegment = (operand: Operand | undefined, segment: number) => {
    if (operand?.kind === 'string') items.push(...split(operand.bytes, removed.filter((glyph) => glyph.segment === segment)));
    else if (operand?.kind === 'number') items.push(pdfNumber(operand.value));
  };
  let prefix = '';
  if (operator === 'TJ') segments.forEach((operand, segment) => pushSegment(operand, segment));
  else if (operator === 'Tj') pushSegment(operands[0], 0);
  else if (operator === "'") {
    prefix = 'T* ';
    pushSegment(operands[0], 0);
  } else if (operator === '"') {
    const [wordSpacing, charSpacing] = operands;
    if (wordSpacing?.kind === 'number' && charSpacing?.kind === 'number') prefix = `${pdfNumber(wordSpacing.value)} Tw ${pdfNumber(charSpacing.value)} Tc `;
    prefix += 'T* ';
    pushSegment(operands[2], 2);
  }
  return `${prefix}[${items.join(' ')}] TJ`;
}

/** A string's kept bytes as strings, and each run of removed glyphs as the number that advances past them. */
function split(bytes: Uint8Array, removed: Glyph[]): string[] {
  if (removed.length === 0) return [hexOperand(bytes)];
  const sorted = [...removed].sort((a, b) => a.byteStart - b.byteStart);
  const items: string[] = [];
  let at = 0;
  let i = 0;
  while (i < sorted.length) {
    const first = sorted[i]!;
    if (first.byteStart > at) items.push(hexOperand(bytes.subarray(at, first.byteStart)));
    let advance = 0;
    let end = first.byteStart;
    while (i < sorted.length && sorted[i]!.byteStart === end) {
      advance += sorted[i]!.advance;
      end = sorted[i]!.byteEnd;
      i++;
    }
    items.push(pdfNumber(-advance));
    at = end;
  }
  if (at < bytes.length) items.push(hexOperand(bytes.subarray(at)));
  return items;
}
