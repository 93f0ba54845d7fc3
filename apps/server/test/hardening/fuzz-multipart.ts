import { createHash } from 'node:crypto';
import { chance, pick, randomBytes, uniform, weighted, type Draw } from './fuzz-draw.js';
import { hostileString, hostileValue, label, mutateText, mutateTree, nested, serialize, utf8, NESTING_DEPTHS, type JsonTree } from './fuzz-json.js';
import type { FuzzTargets } from './fuzz-requests.js';

/** One part of a multipart/form-data body, written out by hand so that any of it can be wrong. */
interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Uint8Array;
  /** Header lines after Content-Disposition and Content-Type. */
  headerLines?: string[];
}

interface Encoding {
  boundary: string;
  /** The boundary the Content-Type header announces (another one to mismatch). */
  announced: string | undefined;
  contentType: (announced: string | undefined) => string | undefined;
  lineEnd: string;
  closing: boolean;
  preamble: string;
}

const concat = (parts: Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));

function encode(parts: Part[], encoding: Encoding): Uint8Array {
  const { boundary, lineEnd } = encoding;
  const chunks: Uint8Array[] = [utf8(encoding.preamble)];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const lines = [`--${boundary}`, disposition, ...(part.contentType ? [`Content-Type: ${part.contentType}`] : []), ...(part.headerLines ?? []), '', ''];
    chunks.push(utf8(lines.join(lineEnd)), part.data, utf8(lineEnd));
  }
  chunks.push(utf8(encoding.closing ? `--${boundary}--${lineEnd}` : ''));
  return concat(chunks);
}

function mutatePdf(g: Draw, pdf: Uint8Array, targets: FuzzTargets, recipe: string[]): Uint8Array {
  return weighted<Uint8Array>(g, [
    [4, () => { const at = uniform(g, pdf.length); recipe.push(`PDF cut at byte ${at}`); return pdf.slice(0, at); }],
    [4, () => {
      const copy = pdf.slice();
      const flips = copy.length === 0 ? 0 : 1 + uniform(g, 19);
      for (let i = 0; i < flips; i++) copy[uniform(g, copy.length - 1)] = uniform(g, 255);
      recipe.push(`PDF with ${flips} bytes changed`);
      return copy;
    }],
    [2, () => { recipe.push('random bytes for the PDF'); return randomBytes(g, uniform(g, 4096)); }],
    [1, () => { recipe.push('empty file'); return new Uint8Array(0); }],
    [1, () => { recipe.push('a PDF header only'); return utf8(pick(g, ['%PDF-1.7\n', '%PDF-1.7\n%%EOF\n', '%PDF-', '%PDF-2.0\ntrailer<<>>\n%%EOF'])); }],
    [1, () => { recipe.push('junk before the PDF'); return concat([randomBytes(g, 1 + uniform(g, 2000)), pdf]); }],
    [1, () => { recipe.push('a file one byte over MAX_PDF_BYTES'); return concat([pdf, new Uint8Array(targets.maxPdfBytes + 1 - pdf.length)]); }],
  ]);
}

function fieldsText(g: Draw, fields: unknown, recipe: string[]): Uint8Array {
  const text = JSON.stringify(fields);
  return weighted<Uint8Array>(g, [
    [10, () => utf8(serialize(mutateTree(g, fields as JsonTree, 1 + uniform(g, 2), recipe)))],
    [4, () => mutateText(g, text, recipe)],
    [3, () => { const value = hostileValue(g); recipe.push(`fields ${label(value)}`); return utf8(serialize(value)); }],
    [2, () => { const deep = nested(pick(g, NESTING_DEPTHS), pick(g, ['array', 'object', 'mixed'] as const)); recipe.push(`fields ${deep.label}`); return utf8(deep.text); }],
  ]);
}

const PART_NAMES = ['File', 'file ', ' file', 'fields[]', 'FIELDS', '', 'file\u0000', 'é', '__proto__', 'constructor'];
const FILENAMES = ['', '.', '..', '../../etc/passwd', 'C:\\Windows\\evil.pdf', 'a"b.pdf', 'a;b.pdf', 'x\r\nContent-Type: text/html', '\u202egpj.pdf', 'é.pdf', '%00.pdf', 'x'.repeat(5000)];

function mutateParts(g: Draw, parts: Part[], recipe: string[]): void {
  const index = uniform(g, Math.max(0, parts.length - 1));
  const part = parts[index];
  weighted(g, [
    [3, () => { if (part) { parts.splice(index, 1); recipe.push(`part ${part.name} left out`); } }],
    [2, () => { if (part) { parts.push({ ...part }); recipe.push(`part ${part.name} twice`); } }],
    [2, () => { if (part) { const name = pick(g, PART_NAMES); recipe.push(`part ${part.name} named ${JSON.stringify(name)}`); part.name = name; } }],
    [2, () => { if (part) { delete part.filename; recipe.push(`part ${part.name} as a text value`); } }],
    [2, () => { if (part) { part.filename = pick(g, ['fields.json', 'x']); recipe.push(`part ${part.name} as a file`); } }],
    [3, () => { if (part) { part.filename = chance(g, 0.5) ? pick(g, FILENAMES) : hostileString(g).slice(0, 3000); recipe.push(`part ${part.name} with an odd file name`); } }],
    [3, () => { const name = hostileString(g).slice(0, 2000); parts.push({ name: 'filename', data: utf8(name) }); recipe.push(`filename ${label(name)}`); }],
    [1, () => { for (let i = 0; i < 200; i++) parts.push({ name: `extra${i}`, data: utf8('x') }); recipe.push('200 extra parts'); }],
    [2, () => {
      if (!part) return;
      part.contentType = pick(g, ['text/plain', 'application/json', 'application/octet-stream', '', 'multipart/mixed; boundary=inner', 'application/pdf; charset=utf-16']);
      recipe.push(`part ${part.name} of type ${JSON.stringify(part.contentType)}`);
    }],
    [2, () => {
      if (!part) return;
      part.headerLines = [pick(g, ['Content-Transfer-Encoding: base64', 'Content-Length: 1', 'X-Junk: \u0000', `X-Long: ${'x'.repeat(20_000)}`, 'no colon here', ' folded: line'])];
      recipe.push(`part ${part.name} with header ${JSON.stringify(part.headerLines[0]!.slice(0, 30))}`);
    }],
  ]);
}

function encoding(g: Draw, recipe: string[]): Encoding {
  const boundary = chance(g, 0.9) ? `----fuzz${uniform(g, 1e9)}` : pick(g, ['x', 'a'.repeat(71), 'a b', '"quoted"', '--', 'é']);
  const plain: Encoding = {
    boundary,
    announced: boundary,
    contentType: (announced) => `multipart/form-data; boundary=${announced}`,
    lineEnd: '\r\n',
    closing: true,
    preamble: '',
  };
  if (chance(g, 0.75)) return plain;
  return weighted<Encoding>(g, [
    [2, () => { recipe.push('another boundary announced'); return { ...plain, announced: `${boundary}x` }; }],
    [2, () => { recipe.push('no boundary parameter'); return { ...plain, contentType: () => 'multipart/form-data' }; }],
    [1, () => { recipe.push('boundary quoted'); return { ...plain, contentType: (b) => `multipart/form-data; boundary="${b}"` }; }],
    [2, () => { recipe.push('LF line ends'); return { ...plain, lineEnd: '\n' }; }],
    [2, () => { recipe.push('no closing boundary'); return { ...plain, closing: false }; }],
    [1, () => { recipe.push('a preamble'); return { ...plain, preamble: `${hostileString(g).slice(0, 500)}\r\n` }; }],
    [3, () => {
      const type = pick(g, [undefined, 'text/plain', 'application/json', 'application/x-www-form-urlencoded', 'multipart/mixed; boundary=B', 'MULTIPART/FORM-DATA; boundary=B', 'multipart/form-data; boundary=']);
      recipe.push(`Content-Type ${JSON.stringify(type)}`);
      return { ...plain, contentType: (b) => type?.replace(/B$/, b ?? '') };
    }],
  ]);
}

/**
 * A `POST /documents` body drawn from `g`: the real PDF and fields, then mutated — the PDF's bytes, the fields'
 * JSON, the parts (left out, doubled, renamed, retyped), the encoding (boundary, line ends, truncation).
 */
export function multipartBody(g: Draw, targets: FuzzTargets, recipe: string[]): { contentType: string | undefined; body: Uint8Array } {
  const pdf = pick(g, targets.pdfs);
  const file: Part = { name: 'file', filename: 'contract.pdf', contentType: 'application/pdf', data: pdf.bytes };
  const fields: Part = { name: 'fields', data: utf8(JSON.stringify(pdf.fields)) };
  const parts = [file, fields];
  if (chance(g, 0.3)) parts.push({ name: 'filename', data: utf8(pick(g, ['Lease.pdf', 'é.pdf'])) });
  const mutations = chance(g, 0.1) ? 0 : 1 + uniform(g, 2);
  if (mutations === 0) recipe.push('valid upload');
  for (let i = 0; i < mutations; i++) {
    weighted(g, [
      [3, () => (file.data = mutatePdf(g, file.data, targets, recipe))],
      [4, () => (fields.data = fieldsText(g, pdf.fields, recipe))],
      [3, () => mutateParts(g, parts, recipe)],
    ]);
  }
  const how = encoding(g, recipe);
  let body = encode(parts, how);
  if (chance(g, 0.08)) {
    const at = uniform(g, body.length);
    recipe.push(`body cut at byte ${at} of ${body.length}`);
    body = body.slice(0, at);
  }
  return { contentType: how.contentType(how.announced), body };
}

/** A sealed PDF with one byte changed where it counts (inside the signed ranges), or appended to. */
function alteredSeal(g: Draw, sealed: Uint8Array, recipe: string[]): Uint8Array {
  return weighted<Uint8Array>(g, [
    [3, () => {
      const copy = sealed.slice();
      const at = uniform(g, copy.length - 1);
      copy[at] = copy[at]! ^ (1 + uniform(g, 254));
      recipe.push(`sealed PDF with byte ${at} flipped`);
      return copy;
    }],
    [1, () => { recipe.push('sealed PDF with a revision appended'); return concat([sealed, utf8('\n1 0 obj\n<< >>\nendobj\n%%EOF\n')]); }],
    [1, () => { recipe.push('sealed PDF twice'); return concat([sealed, sealed]); }],
  ]);
}

/**
 * A `POST /verify` body drawn from `g`: a real sealed PDF, one altered, an unsealed one, or garbage and truncated
 * files, then the parts and the encoding mutated as for uploads. `files` are the SHA-256 of every `file` part sent
 * with a file name (or of its base64 decoding, when it says so): the verdict's `sha256` must be one of them.
 * @example const { contentType, body, files } = verifyBody(g, targets, recipe)
 */
export function verifyBody(g: Draw, targets: FuzzTargets, recipe: string[]): { contentType: string | undefined; body: Uint8Array; files: string[] } {
  const sealed = pick(g, targets.documents.sealed).pdf;
  const data = weighted<Uint8Array>(g, [
    [40, () => { recipe.push('the sealed PDF'); return sealed; }],
    [20, () => alteredSeal(g, sealed, recipe)],
    [10, () => { recipe.push('an unsealed PDF'); return pick(g, targets.pdfs).bytes; }],
    [30, () => mutatePdf(g, chance(g, 0.7) ? sealed : pick(g, targets.pdfs).bytes, targets, recipe)],
  ]);
  const file: Part = { name: 'file', filename: chance(g, 0.9) ? 'check.pdf' : pick(g, FILENAMES), contentType: 'application/pdf', data };
  const parts = [file];
  if (chance(g, 0.1)) parts.push({ name: 'fields', data: utf8('[]') });
  if (chance(g, 0.3)) mutateParts(g, parts, recipe);
  const how = encoding(g, recipe);
  let body = encode(parts, how);
  if (chance(g, 0.05)) {
    const at = uniform(g, body.length);
    recipe.push(`body cut at byte ${at} of ${body.length}`);
    body = body.slice(0, at);
  }
  const files = parts.filter((part) => part.name === 'file' && part.filename !== undefined).flatMap(readings).map(sha256);
  return { contentType: how.contentType(how.announced), body, files };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What a part's file may be as the server reads it: its bytes, or their decoding if it says it is base64 (undici). */
function readings(part: Part): Uint8Array[] {
  const base64 = part.headerLines?.some((line) => /^content-transfer-encoding:\s*base64/i.test(line));
  return base64 ? [part.data, Buffer.from(Buffer.from(part.data).toString(), 'base64')] : [part.data];
}
