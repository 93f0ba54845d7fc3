/**
 * PDFs and seal inputs for the sealing tests: the cases that break naive drawing (a page turned by `/Rotate` with a
 * crop box inset from its media box, AcroForm fields, annotations, page attributes inherited from the page tree).
 */
import { PDF, PdfArray, PdfDict, PdfName, PdfNumber, PdfRef, rgb } from '@libpdf/core';
import type { FieldDefinition, SubmittedField } from '@signet/contract';
import sharp from 'sharp';
import type { SealInput } from '../../../src/sealing/types.js';

/** Page 2's crop box: inset 36 pt from its US Letter media box, and the page turned 90° clockwise. */
export const ROTATED_CROP_BOX = [36, 36, 576, 756] as const;

/**
 * Three US Letter pages: page 1 holds an AcroForm text field ("ACME Prefilled Ltd") and a ticked checkbox, page 2
 * has `/Rotate 90` and `ROTATED_CROP_BOX`, page 3 a link and a square annotation. Every page has body text.
 */
export async function formPdf(): Promise<Uint8Array> {
  const pdf = PDF.create();
  for (let index = 0; index < 3; index++) {
    const page = pdf.addPage({ size: 'letter' });
    page.drawText(`Original page ${index + 1}`, { x: 72, y: 740, size: 18, font: 'Helvetica-Bold' });
    for (let line = 0; line < 8; line++) {
      page.drawText(`Body text of page ${index + 1}, line ${line + 1}: the terms both parties agree to.`, { x: 72, y: 700 - line * 16, size: 11 });
    }
  }
  const form = pdf.getOrCreateForm();
  const company = form.createTextField('company', { defaultValue: 'ACME Prefilled Ltd', fontSize: 11, borderColor: rgb(0.4, 0.4, 0.4) });
  pdf.getPage(0)!.drawField(company, { x: 72, y: 520, width: 200, height: 24 });
  const agree = form.createCheckbox('agree', { defaultChecked: true, borderColor: rgb(0.4, 0.4, 0.4) });
  pdf.getPage(0)!.drawField(agree, { x: 300, y: 524, width: 16, height: 16 });

  const rotated = pdf.getPage(1)!;
  rotated.dict.set('CropBox', PdfArray.of(...ROTATED_CROP_BOX.map((value) => PdfNumber.of(value))));
  rotated.setRotation(90);

  const last = pdf.getPage(2)!;
  const link = last.addLinkAnnotation({ rect: { x: 72, y: 400, width: 120, height: 14 }, uri: 'https://example.com/terms' });
  // Borderless, as authoring tools write links (the default border is drawn by viewers, and goes with the link).
  link.dict.set('Border', PdfArray.of(PdfNumber.of(0), PdfNumber.of(0), PdfNumber.of(0)));
  const square = last.addSquareAnnotation({ rect: { x: 300, y: 380, width: 80, height: 40 }, color: rgb(1, 0, 0) });
  // As a PDF editor writes it: with its appearance (libpdf drops an annotation it has no appearance for).
  const appearance = pdf.createStream(
    { Type: PdfName.of('XObject'), Subtype: PdfName.of('Form'), BBox: PdfArray.of(...[0, 0, 80, 40].map((value) => PdfNumber.of(value))) },
    new TextEncoder().encode('1 0 0 RG 2 w 1 1 78 38 re S'),
  );
  square.dict.set('AP', PdfDict.of({ N: appearance }));
  return pdf.save();
}

/**
 * Two pages whose `/MediaBox`, `/Rotate` and `/Resources` live only on the page tree's root (legal, and ignored by
 * @libpdf/core 0.4.2 unless pushed down): page text uses a font from the inherited resources.
 */
export async function inheritedAttributesPdf(): Promise<Uint8Array> {
  const pdf = await PDF.load(await formPdf());
  const pages = pdf.getPages().slice(0, 2);
  const root = pdf.getObject(pages[0]!.dict.getRef('Parent')!) as PdfDict;
  const shared = pages[0]!.dict.get('Resources')!;
  root.set('Resources', shared instanceof PdfRef ? shared : pdf.register(shared));
  root.set('MediaBox', PdfArray.of(...[0, 0, 612, 792].map((value) => PdfNumber.of(value))));
  root.set('Rotate', PdfNumber.of(90));
  for (const page of pages) {
    // Both pages draw with page 1's font names; page 2's own resources name the same fonts the same way.
    for (const key of ['Resources', 'MediaBox', 'Rotate', 'CropBox', 'Annots']) page.dict.delete(key);
  }
  return pdf.save();
}

/** A PNG of `width` × `height` with a dark stroke across it on a transparent ground: a signature. */
export async function signaturePng(width: number, height: number): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 100 40">
    <path d="M5 30 C 20 5, 30 5, 40 25 S 60 40, 70 15 S 90 10, 95 20" fill="none" stroke="#1a237e" stroke-width="3"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

interface TestField {
  id: string;
  type: FieldDefinition['type'];
  page: number;
  box: { x: number; y: number; width: number; height: number };
  value: SubmittedField['value'];
  style?: SubmittedField['style'];
}

/** The submitted fields of `sealInput`, as fractions of the displayed page (page 2 is 792 × 540 once turned). */
export async function testFields(): Promise<TestField[]> {
  const signature = await signaturePng(400, 160);
  return [
    { id: 'name', type: 'text', page: 1, box: { x: 0.1, y: 0.55, width: 0.4, height: 0.035 }, value: { type: 'text', content: 'Jane Q. Signer' }, style: { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'left' } },
    { id: 'city', type: 'text', page: 1, box: { x: 0.55, y: 0.55, width: 0.35, height: 0.035 }, value: { type: 'text', content: 'Αθήνα Ελλάδα' }, style: { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'center' } },
    { id: 'signature', type: 'signature', page: 1, box: { x: 0.1, y: 0.75, width: 0.35, height: 0.08 }, value: { type: 'signature', imageData: signature } },
    { id: 'agree', type: 'checkbox', page: 1, box: { x: 0.55, y: 0.76, width: 0.03, height: 0.023 }, value: { type: 'checkbox', checked: true } },
    { id: 'date', type: 'date', page: 1, box: { x: 0.65, y: 0.75, width: 0.2, height: 0.035 }, value: { type: 'date', content: '2025-01-31' } },
    { id: 'street', type: 'text', page: 2, box: { x: 0.5, y: 0.6, width: 0.4, height: 0.06 }, value: { type: 'text', content: 'Москва, Тверская улица' }, style: { fontSize: 12, fontFamily: 'Helvetica', textAlign: 'right' } },
    { id: 'initials', type: 'initials', page: 2, box: { x: 0.1, y: 0.7, width: 0.12, height: 0.12 }, value: { type: 'initials', imageData: signature } },
    { id: 'notes', type: 'text', page: 3, box: { x: 0.1, y: 0.7, width: 0.3, height: 0.1 }, value: { type: 'text', content: 'A longer note that must wrap onto several lines inside its box' }, style: { fontSize: 10, fontFamily: 'Helvetica', textAlign: 'left' } },
  ];
}

/** A seal's input for `fields` on a `pageCount`-page document, with a full timeline and a placeholder key. */
export function sealInput(fields: TestField[], pageCount = 3, overrides: Partial<SealInput> = {}): SealInput {
  return {
    document: { id: 'doc_01JTEST0000000000000000000', filename: 'service-agreement.pdf', pageCount, sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
    fields: fields.map(({ id, type, page, box }) => ({ id, type, page, ...box, required: false, editable: true, label: id })),
    submission: {
      id: 'sub_01JTEST0000000000000000000',
      checksum: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      receivedAt: '2025-01-31T14:05:09.000Z',
      clientIp: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36',
      values: fields.map(({ id, type, page, box, value, style }) => ({ id, type, page, position: box, value, ...(style ? { style } : {}) })),
    },
    events: [
      { type: 'document.created', occurredAt: '2025-01-30T09:00:00.000Z', ip: null, userAgent: null },
      { type: 'document.opened', occurredAt: '2025-01-31T14:01:00.000Z', ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36' },
      { type: 'document.submitted', occurredAt: '2025-01-31T14:05:09.000Z', ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36' },
    ],
    sealedAt: '2025-01-31T14:05:11.000Z',
    signing: { p12: new Uint8Array(), password: '' },
    ...overrides,
  };
}
