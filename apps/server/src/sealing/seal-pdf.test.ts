import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PDF, PdfArray, PdfRef, type PdfDict, type PdfName, type PdfObject } from '@libpdf/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { SealError } from './errors.js';
import { formPdf, inheritedAttributesPdf, sealInput, testFields } from '../../test/sealing/render/test-pdfs.js';
import { pageBoxes, pageWords, pdfFonts, pdfText, renderPages, withPdfFile, type PageBox, type Raster, type TopLeftRect } from '../../test/sealing/render/test-poppler.js';
import { parseSealReason, renderSeal, sealPdf, sealReason } from './seal-pdf.js';
import { createTestPki, type TestPki } from '../../test/sealing/signing/test-pki.js';
import type { SealInput } from './types.js';

const run = promisify(execFile);
/** How far a word may stick out of its field: pdftotext's word boxes are the font's, not the glyphs'. */
const TOLERANCE = 2;

let original: Uint8Array;
let fields: Awaited<ReturnType<typeof testFields>>;
let input: SealInput;
let rendered: Uint8Array;
let boxes: PageBox[];

beforeAll(async () => {
  original = await formPdf();
  fields = await testFields();
  input = sealInput(fields);
  rendered = await renderSeal(original, input);
  boxes = await pageBoxes(original, 3);
});

/** Where a field must be, from pdfinfo's crop box and rotation (not from the renderer's own geometry). */
function expectedRect(field: (typeof fields)[number]): TopLeftRect {
  const page = boxes[field.page - 1]!;
  const { x, y, width, height } = field.box;
  return { left: x * page.width, top: y * page.height, right: (x + width) * page.width, bottom: (y + height) * page.height };
}

function inside(word: TopLeftRect, rect: TopLeftRect, tolerance = TOLERANCE): boolean {
  return (
    word.left >= rect.left - tolerance &&
    word.right <= rect.right + tolerance &&
    word.top >= rect.top - tolerance &&
    word.bottom <= rect.bottom + tolerance
  );
}

describe('renderSeal', () => {
  it('draws each text value inside its field rectangle, on the plain page and on the turned, cropped one', async () => {
    expect(boxes[1]).toMatchObject({ rotation: 90, cropBox: [36, 36, 576, 756], width: 720, height: 540 });
    const words = await pageWords(rendered);
    const textFields = fields.filter((field) => field.value.type === 'text' || field.value.type === 'date');
    expect(textFields.map((field) => field.page)).toEqual(expect.arrayContaining([1, 2, 3]));
    for (const field of textFields) {
      const content = (field.value as { content: string }).content;
      const rect = expectedRect(field);
      const found = words[field.page - 1]!.filter((word) => inside(word, rect));
      expect(found.map((word) => word.text).join(' '), field.id).toBe(content);

      const left = Math.min(...found.map((word) => word.left)) - rect.left;
      const right = rect.right - Math.max(...found.map((word) => word.right));
      const align = field.style?.textAlign ?? 'left';
      if (align === 'left') expect(left, field.id).toBeLessThan(8);
      if (align === 'right') expect(right, field.id).toBeLessThan(8);
      if (align === 'center') expect(Math.abs(left - right), field.id).toBeLessThan(TOLERANCE);
    }
  });

  it('wraps a long value onto several lines inside its box', async () => {
    const notes = fields.find((field) => field.id === 'notes')!;
    const found = (await pageWords(rendered))[2]!.filter((word) => inside(word, expectedRect(notes)));
    expect(new Set(found.map((word) => word.top)).size).toBeGreaterThan(1);
    expect(found.map((word) => word.text).join(' ')).toBe((notes.value as { content: string }).content);
  });

  it('embeds DejaVu Sans as a subset, and Greek and Cyrillic values extract as written', async () => {
    const text = await pdfText(rendered, 1, 3);
    expect(text).toContain('Αθήνα Ελλάδα');
    expect(text).toContain('Москва, Тверская улица');
    expect(await pdfFonts(rendered)).toMatch(/[A-Z]{6}\+DejaVuSans\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  it('changes no pixel outside the fields, and puts ink in every signature box', async () => {
    const dpi = 36;
    const [before, after] = await Promise.all([renderPages(original, 3, dpi), renderPages(rendered, 3, dpi)]);
    const scale = dpi / 72;
    for (let page = 0; page < 3; page++) {
      const [a, b] = [before[page]!, after[page]!];
      expect([b.width, b.height]).toEqual([a.width, a.height]);
      const rects = fields.filter((field) => field.page === page + 1).map((field) => scaled(expectedRect(field), scale));
      let outside = 0;
      for (let y = 0; y < a.height; y++) {
        for (let x = 0; x < a.width; x++) {
          if (differs(a, b, x, y) && !rects.some((rect) => x >= rect.left - 1 && x <= rect.right + 1 && y >= rect.top - 1 && y <= rect.bottom + 1)) outside++;
        }
      }
      expect(outside, `page ${page + 1}`).toBe(0);
    }
    for (const field of fields.filter((field) => field.type === 'signature' || field.type === 'initials')) {
      const rect = scaled(expectedRect(field), scale);
      const raster = after[field.page - 1]!;
      let ink = 0;
      for (let y = Math.ceil(rect.top); y < rect.bottom; y++) {
        for (let x = Math.ceil(rect.left); x < rect.right; x++) if (dark(raster, x, y)) ink++;
      }
      expect(ink, field.id).toBeGreaterThan(10);
    }
  });

  it('leaves no form field or widget annotation: forms and annotations are flattened into the pages', async () => {
    const before = await PDF.load(original);
    expect(before.getForm()?.getFields().length).toBe(2);
    expect(annotationTypes(before)).toEqual(['Widget', 'Widget', 'Link', 'Square']);
    const after = await PDF.load(rendered);
    expect(after.getForm()?.getFields() ?? []).toEqual([]);
    expect(annotationTypes(after)).toEqual([]);
    // What the fields showed is still there, now page content.
    expect(await pdfText(rendered, 1, 1)).toContain('ACME Prefilled Ltd');
  });

  it('keeps the original file as a byte prefix (an incremental update)', () => {
    expect(Buffer.from(rendered.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
  });

  it('appends an audit trail page with the document, the submission and every event', async () => {
    expect(await PDF.load(rendered).then((pdf) => pdf.getPageCount())).toBe(4);
    const text = (await pdfText(rendered, 4, 4)).replace(/\s+/g, ' ');
    for (const expected of [
      'Audit trail',
      input.document.id,
      input.document.filename,
      input.document.sha256,
      input.submission.id,
      input.submission.checksum,
      '2025-01-31 14:05:09 UTC',
      input.submission.clientIp!,
      input.submission.userAgent!,
      'Document created',
      '2025-01-30 09:00:00 UTC',
      'First opened by the signer',
      '2025-01-31 14:01:00 UTC',
      'Submitted by the signer',
      'Sealed with a digital signature',
      '2025-01-31 14:05:11 UTC',
      'sealed with a digital signature',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('flows a long timeline onto more audit pages, each event once', async () => {
    const events = Array.from({ length: 60 }, (_, index) => ({
      type: 'document.opened' as const,
      occurredAt: new Date(Date.UTC(2025, 0, 31, 10, index)).toISOString(),
      ip: `198.51.100.${index}`,
      userAgent: `Agent/${index} (a browser with a long user agent string that wraps across the value column)`,
    }));
    const sealed = await renderSeal(original, { ...input, events });
    const pages = await PDF.load(sealed).then((pdf) => pdf.getPageCount());
    expect(pages).toBeGreaterThan(4 + 1);
    const text = (await pdfText(sealed, 4, pages)).replace(/\s+/g, ' ');
    for (const event of events) expect(text.split(`IP address: ${event.ip} `).length - 1).toBe(1);
    expect(text).toContain(`page ${pages - 3} of ${pages - 3}`);
  });

  it('draws on pages whose attributes are inherited from the page tree, and keeps their text', async () => {
    const inherited = await inheritedAttributesPdf();
    const turned = await pageBoxes(inherited, 2);
    expect(turned.map((page) => page.rotation)).toEqual([90, 90]);
    const street = { ...fields.find((field) => field.id === 'street')!, page: 1 };
    const sealed = await renderSeal(inherited, sealInput([street], 3));
    const text = await pdfText(sealed, 1, 2);
    expect(text).toContain('Body text of page 1, line 1');
    expect(text).toContain('Body text of page 2, line 1');
    const page = turned[0]!;
    const rect = { left: street.box.x * page.width, top: street.box.y * page.height, right: (street.box.x + street.box.width) * page.width, bottom: (street.box.y + street.box.height) * page.height };
    const found = (await pageWords(sealed))[0]!.filter((word) => inside(word, rect));
    expect(found.map((word) => word.text).join(' ')).toBe('Москва, Тверская улица');
  });

  it('refuses an encrypted PDF, and one that cannot be read, as not retryable', async () => {
    const encrypted = await PDF.load(original);
    encrypted.setProtection({ userPassword: 'secret', ownerPassword: 'owner' });
    const ownerOnly = await PDF.load(original);
    ownerOnly.setProtection({ ownerPassword: 'owner' });
    const garbage = new TextEncoder().encode('%PDF-1.7\n' + 'not a pdf at all '.repeat(200));
    for (const [name, pdf] of [
      ['user password', await encrypted.save()],
      ['owner password only', await ownerOnly.save()],
      ['garbage', garbage],
    ] as const) {
      const error = await renderSeal(pdf, input).then(() => null, (caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(SealError);
      expect((error as SealError).retryable, name).toBe(false);
    }
  });

  it('refuses a field on a page the PDF does not have', async () => {
    const far = { ...fields[0]!, page: 9 };
    const error = await renderSeal(original, sealInput([far])).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SealError);
    expect(error).toMatchObject({ retryable: false, message: expect.stringMatching(/page 9/) });
  });
});

describe('sealPdf', () => {
  let pki: TestPki;
  beforeAll(async () => {
    pki = await createTestPki();
  });

  it('signs the rendered file: pdfsig finds the whole document signed and the signature valid, with our reason', async () => {
    const sealedAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    const sealed = await sealPdf(original, { ...input, sealedAt, signing: pki.signer });
    const { stdout } = await withPdfFile(sealed, (path) => run('pdfsig', [path]));
    expect(stdout).toContain('Total document signed');
    expect(stdout).toContain('Signature Validation: Signature is Valid.');
    expect(stdout).toContain('Signature Type: ETSI.CAdES.detached');
    expect(Buffer.from(sealed).toString('latin1')).toContain(`(${sealReason(input.document.id, input.submission.id)})`);

    const flipped = sealed.slice();
    flipped[1000] = flipped[1000]! ^ 0x01;
    const tampered = await withPdfFile(flipped, (path) => run('pdfsig', [path]));
    expect(tampered.stdout).toContain('Digest Mismatch');
  });
});

describe('sealReason', () => {
  it('reads back the ids it wrote, and nothing else', () => {
    const reason = sealReason('doc_01JABC', 'sub_01JDEF');
    expect(reason).toBe('Sealed by Signet: document doc_01JABC, submission sub_01JDEF');
    expect(parseSealReason(reason)).toEqual({ documentId: 'doc_01JABC', submissionId: 'sub_01JDEF' });
    expect(parseSealReason('Approved by Jane')).toBeNull();
    expect(parseSealReason(`${reason} (edited)`)).toBeNull();
  });
});

/** Every page's `/Annots` entries by `/Subtype`, widgets included (libpdf's getAnnotations() leaves them out). */
function annotationTypes(pdf: PDF): string[] {
  const resolve = (object: PdfObject | undefined) => (object instanceof PdfRef ? (pdf.getObject(object) ?? undefined) : object);
  return pdf.getPages().flatMap((page) => {
    const annots = resolve(page.dict.get('Annots'));
    if (!(annots instanceof PdfArray)) return [];
    return annots.toArray().map((item) => ((resolve(item) as PdfDict).get('Subtype') as PdfName).value);
  });
}

function scaled(rect: TopLeftRect, scale: number): TopLeftRect {
  return { left: rect.left * scale, top: rect.top * scale, right: rect.right * scale, bottom: rect.bottom * scale };
}

function differs(a: Raster, b: Raster, x: number, y: number): boolean {
  const at = (y * a.width + x) * 3;
  return Math.abs(a.rgb[at]! - b.rgb[at]!) + Math.abs(a.rgb[at + 1]! - b.rgb[at + 1]!) + Math.abs(a.rgb[at + 2]! - b.rgb[at + 2]!) > 24;
}

function dark(raster: Raster, x: number, y: number): boolean {
  const at = (y * raster.width + x) * 3;
  return raster.rgb[at]! + raster.rgb[at + 1]! + raster.rgb[at + 2]! < 3 * 160;
}
