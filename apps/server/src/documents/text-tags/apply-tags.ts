/**
 * Text tags, inside a PDF worker: finds every `{{…}}` tag of every page, turns it into a field on its box and
 * removes its glyphs from the page (docs/text-tags.md). Runs as the pool task `textTags`, never on the event loop.
 */
import { FieldDefinitionSchema, type FieldDefinition } from '@signet/contract';
import { PDF, PdfArray, PdfDict, PdfRef, PdfStream, type PDFPage, type PdfObject } from '@libpdf/core';
import { validationError } from '../../errors.js';
import { displayedPage } from '../../sealing/render/page-geometry.js';
import { ContentSyntaxError, parseOperations } from './content-stream.js';
import { asDict, resolver, type FontDecoder, type Resolve } from './fonts.js';
import { DEFAULT_LABELS, parseTag, tagEnd, type TextTag } from './grammar.js';
import { apply, PageTextLimitError, readPageText, type Glyph, type Matrix } from './page-text.js';
import { removeGlyphs } from './remove.js';

/** The most fields a document may have (the contract's list of field definitions), and so the most tags. */
export const MAX_TAGS = 500; // FieldDefinitionListSchema's maximum: a test holds them equal
/** The most glyphs one page may show; past it the document is refused rather than read. */
const MAX_GLYPHS_PER_PAGE = 500_000;
/** How much of a tag an error quotes. */
const QUOTE_LENGTH = 120;

export interface TextTagsResult {
  /** The PDF without its tags: the same bytes when it had none. */
  bytes: Uint8Array;
  fields: FieldDefinition[];
}

interface FoundTag {
  page: number;
  source: string;
  tag: TextTag;
  /** Its box as fractions of the displayed page, top-left origin (docs/api.md, "Fields"). */
  box: { x: number; y: number; width: number; height: number };
}

/**
 * Turns a PDF's text tags into fields and removes them from its pages.
 * @throws a 422 `VALIDATION_ERROR` on `file` naming the page and the tag, for a tag that does not parse, and past
 * `MAX_TAGS` tags
 * @example const { bytes, fields } = await applyTextTagsToPdf(pdf) // fields[0]: { id: 'signature_1', type: 'signature', page: 1, … }
 */
export async function applyTextTagsToPdf(bytes: Uint8Array): Promise<TextTagsResult> {
  const pdf = await PDF.load(bytes);
  const resolve = resolver((ref) => pdf.getObject(ref));
  const fonts = new Map<PdfObject, FontDecoder>();
  const found: FoundTag[] = [];
  let changed = false;
  const pages = pdf.getPages();
  for (let index = 0; index < pages.length; index++) {
    const page = pages[index]!;
    const pageNumber = index + 1;
    const data = pageContent(page, resolve);
    if (data.length === 0) continue;
    let operations;
    let text;
    try {
      operations = parseOperations(data);
      text = readPageText(operations, asDict(resolve(inherited(page.dict, 'Resources', resolve))), resolve, fonts, {
        maxTagOpenings: MAX_TAGS - found.length,
        maxGlyphs: MAX_GLYPHS_PER_PAGE,
      });
    } catch (error) {
      if (error instanceof PageTextLimitError) throw refuse(pageNumber, error.limit === 'tags' ? tooManyTags() : error.message);
      if (error instanceof ContentSyntaxError) throw refuse(pageNumber, `its content cannot be read for tags: ${error.message}`);
      throw error;
    }
    const removed: Glyph[] = [];
    for (let start = text.text.indexOf('{{'); start >= 0; start = text.text.indexOf('{{', start)) {
      const end = tagEnd(text.text, start);
      if (end === undefined) throw refuse(pageNumber, `${quote(text.text.slice(start, start + 60))} is not a tag: it has no closing }}`);
      const source = text.text.slice(start, end);
      const parsed = parseTag(source);
      if (!parsed.ok) throw refuse(pageNumber, `${quote(source)} is not a tag: ${parsed.reason}`);
      const glyphs = glyphsOf(text, start, end);
      if (glyphs.length === 0) throw refuse(pageNumber, `${quote(source)} is not a tag: it is not drawn`);
      removed.push(...glyphs);
      found.push({ page: pageNumber, source, tag: parsed.tag, box: tagBox(pdf, page, glyphs, parsed.tag) });
      start = end;
    }
    if (removed.length === 0) continue;
    setPageContent(pdf, page, removeGlyphs(data, operations, removed));
    changed = true;
  }
  if (!changed) return { bytes, fields: [] };
  return { bytes: await pdf.save(), fields: toFields(found) };
}

function tooManyTags(): string {
  return `the document has more than ${MAX_TAGS} tags, the most fields a document may have`;
}

function refuse(page: number, reason: string) {
  return validationError('file', `page ${page}: ${reason}`, 422);
}

function quote(source: string): string {
  return source.length > QUOTE_LENGTH ? `${source.slice(0, QUOTE_LENGTH)}…` : source;
}

/** The glyphs that drew `text[start, end)`. */
function glyphsOf(text: { owners: number[]; glyphs: Glyph[] }, start: number, end: number): Glyph[] {
  const glyphs: Glyph[] = [];
  for (let i = start; i < end; i++) {
    const owner = text.owners[i]!;
    if (owner >= 0 && glyphs.at(-1) !== text.glyphs[owner]) glyphs.push(text.glyphs[owner]!);
  }
  return glyphs;
}

/**
 * The tag's box on the displayed page (crop box, `/Rotate` applied: docs/api.md, "Fields"), as fractions from its
 * top-left corner. A tag's `width` and `height` replace its own size, its bottom-left corner staying where it is
 * (a signature grows up from the line it is written on), kept within the page.
 */
function tagBox(pdf: PDF, page: PDFPage, glyphs: Glyph[], tag: TextTag): FoundTag['box'] {
  const displayed = displayedPage(pdf, pageWithInheritedBoxes(page, pdf));
  const toDisplayed = invert(displayed.matrix);
  let [left, bottom, right, top] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { box } of glyphs) {
    for (const [x, y] of [
      [box[0], box[1]],
      [box[2], box[1]],
      [box[0], box[3]],
      [box[2], box[3]],
    ] as const) {
      const [dx, dy] = apply(toDisplayed, x, y);
      left = Math.min(left, dx);
      right = Math.max(right, dx);
      bottom = Math.min(bottom, dy);
      top = Math.max(top, dy);
    }
  }
  const { width: pageWidth, height: pageHeight } = displayed;
  const width = Math.min(tag.width ?? right - left, pageWidth);
  const height = Math.min(tag.height ?? top - bottom, pageHeight);
  const x = clamp(left, 0, pageWidth - width);
  const y = clamp(bottom, 0, pageHeight - height);
  const fraction = (value: number) => Math.round(value * 1e6) / 1e6;
  const fx = fraction(x / pageWidth);
  const fy = fraction((pageHeight - y - height) / pageHeight);
  return {
    x: fx,
    y: fy,
    width: Math.max(1e-6, Math.min(fraction(width / pageWidth), 1 - fx)),
    height: Math.max(1e-6, Math.min(fraction(height / pageHeight), 1 - fy)),
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, Math.max(low, high)));
}

function invert([a, b, c, d, e, f]: Matrix): Matrix {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/** The fields of the tags: ids given, or `<type>_<n>` counted per type in document order past the ids taken. */
function toFields(found: FoundTag[]): FieldDefinition[] {
  const taken = new Map<string, FoundTag>();
  for (const item of found) {
    if (item.tag.id === undefined) continue;
    const other = taken.get(item.tag.id);
    if (other) throw refuse(item.page, `${quote(item.source)} is not a tag: id "${item.tag.id}" is already the id of ${quote(other.source)} on page ${other.page}`);
    taken.set(item.tag.id, item);
  }
  const counters = new Map<string, number>();
  return found.map((item) => {
    const { tag } = item;
    let id = tag.id;
    while (id === undefined || (tag.id === undefined && taken.has(id))) {
      const n = (counters.get(tag.type) ?? 0) + 1;
      counters.set(tag.type, n);
      id = `${tag.type}_${n}`;
    }
    taken.set(id, item);
    const field: FieldDefinition = {
      id,
      type: tag.type,
      page: item.page,
      ...item.box,
      required: tag.required,
      editable: !tag.readonly,
      label: tag.label ?? DEFAULT_LABELS[tag.type],
      ...(tag.placeholder !== undefined ? { placeholder: tag.placeholder } : {}),
      ...(tag.options ? { options: tag.options } : {}),
      ...(tag.fontSize !== undefined ? { fontSize: tag.fontSize } : {}),
      ...(tag.signerId !== undefined ? { signerId: tag.signerId } : {}),
    };
    const checked = FieldDefinitionSchema.safeParse(field);
    if (!checked.success) throw refuse(item.page, `${quote(item.source)} is not a tag: ${checked.error.issues[0]?.message ?? 'not a valid field'}`);
    return checked.data;
  });
}

/** A page's content: its streams decoded and joined, as a reader sees them (ISO 32000-1 §7.8.2). */
function pageContent(page: PDFPage, resolve: Resolve): Uint8Array {
  const contents = resolve(page.dict.get('Contents'));
  const streams = contents instanceof PdfArray ? contents.toArray().map((item) => resolve(item)) : [contents];
  const parts: Uint8Array[] = [];
  for (const stream of streams) {
    if (stream instanceof PdfStream) parts.push(stream.getDecodedData(), new Uint8Array([0x0a]));
  }
  return parts.length === 0 ? new Uint8Array() : Buffer.concat(parts);
}

/** Gives the page one new content stream of its own: another page that shared the old one keeps it. */
function setPageContent(pdf: PDF, page: PDFPage, data: Uint8Array): void {
  page.dict.set('Contents', pdf.context.register(new PdfStream([], data)));
}

/** An attribute the page inherits from the page tree when it does not hold its own (ISO 32000-1 §7.7.3.4). */
function inherited(dict: PdfDict, key: string, resolve: Resolve): PdfObject | undefined {
  const seen = new Set<PdfDict>();
  let node: PdfObject | undefined = dict;
  while (node instanceof PdfDict && !seen.has(node)) {
    seen.add(node);
    const value = node.get(key);
    if (value !== undefined) return value;
    node = resolve(node.get('Parent'));
  }
  return undefined;
}

/** `displayedPage` reads the boxes and `/Rotate` from the page itself: the page gets its inherited ones. */
function pageWithInheritedBoxes(page: PDFPage, pdf: PDF): PDFPage {
  const resolve = resolver((ref: PdfRef) => pdf.getObject(ref));
  for (const key of ['MediaBox', 'CropBox', 'Rotate']) {
    if (page.dict.has(key)) continue;
    const value = inherited(page.dict, key, resolve);
    if (value !== undefined) page.dict.set(key, value);
  }
  return page;
}
