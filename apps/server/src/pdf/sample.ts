import { createHash } from 'node:crypto';
import { PDF, PdfArray, PdfRef, PdfStream, PdfString, Standard14Font, StandardFonts, rgb, type PDFPage } from '@libpdf/core';
import type { FieldDefinition } from '@signet/contract';

/** US Letter, in PDF points. */
export const SAMPLE_PAGE_SIZE = { width: 612, height: 792 } as const;

const { width: PAGE_WIDTH, height: PAGE_HEIGHT } = SAMPLE_PAGE_SIZE;
const MARGIN_LEFT = 72;
const MARGIN_RIGHT = PAGE_WIDTH - 72;
const TEXT_WIDTH = MARGIN_RIGHT - MARGIN_LEFT;
const BODY_SIZE = 10.5;
const BODY_LEADING = 14.5;
const PARAGRAPH_GAP = 7;
const LABEL_SIZE = 8;

/** Where a sample field sits: points from the page's left and TOP edges, like the fractions Signet stores. */
interface FieldBox {
  x: number;
  top: number;
  width: number;
  height: number;
}

export type SampleField = Omit<FieldDefinition, 'page' | 'x' | 'y' | 'width' | 'height'> & { box: FieldBox };

/**
 * The single layout table: the PDF draws these boxes and `sampleFields` turns them into field definitions,
 * so the two cannot drift apart.
 */
const FIRST_PAGE_FIELDS: readonly SampleField[] = [
  {
    id: 'agreement_number',
    type: 'text',
    label: 'Agreement number',
    required: false,
    editable: false,
    value: { type: 'text', content: 'AGR-2025-0042' },
    box: { x: 72, top: 138, width: 168, height: 20 },
  },
  {
    id: 'signer_name',
    type: 'text',
    label: 'Full legal name',
    placeholder: 'Jane Doe',
    required: true,
    editable: true,
    box: { x: 72, top: 188, width: 222, height: 22 },
  },
  {
    id: 'signer_company',
    type: 'text',
    label: 'Company',
    placeholder: 'Company name (optional)',
    required: false,
    editable: true,
    box: { x: 318, top: 188, width: 222, height: 22 },
  },
  {
    id: 'signer_initials',
    type: 'initials',
    label: 'Initials',
    required: true,
    editable: true,
    box: { x: 468, top: 712, width: 72, height: 36 },
  },
];

const LAST_PAGE_FIELDS: readonly SampleField[] = [
  {
    id: 'accept_terms',
    type: 'checkbox',
    label: 'I have read and agree to the terms of this Agreement',
    required: true,
    editable: true,
    box: { x: 72, top: 494, width: 14, height: 14 },
  },
  {
    id: 'signature',
    type: 'signature',
    label: 'Signature',
    required: true,
    editable: true,
    box: { x: 72, top: 546, width: 270, height: 64 },
  },
  {
    id: 'signed_date',
    type: 'date',
    label: 'Date',
    placeholder: 'YYYY-MM-DD',
    required: true,
    editable: true,
    box: { x: 372, top: 580, width: 168, height: 30 },
  },
];

/** A second signer's block under the first's, on the last page of a countersigned sample (`sampleLeaseFields`). */
const COUNTERSIGN_FIELDS: readonly SampleField[] = [
  {
    id: 'landlord_signature',
    type: 'signature',
    label: 'Landlord signature',
    required: true,
    editable: true,
    box: { x: 72, top: 678, width: 270, height: 52 },
  },
  {
    id: 'landlord_date',
    type: 'date',
    label: 'Date',
    placeholder: 'YYYY-MM-DD',
    required: true,
    editable: true,
    box: { x: 372, top: 700, width: 168, height: 30 },
  },
];
const COUNTERSIGN_HEADING_TOP = 652;

/** Vertical bands (points from the top) that body text may use, by the page's role. */
const TEXT_BAND = {
  firstPageTop: 238,
  continuationTop: 96,
  /** Above the initials box on page 1 and the footer elsewhere. */
  fullPageBottom: 696,
  /** Above the signature block of the last page. */
  signaturePageBottom: 452,
} as const;
const SIGNATURE_RULE_TOP = 462;

const CLAUSES: ReadonlyArray<readonly [string, string]> = [
  [
    'Purpose',
    'The parties wish to explore a business relationship (the "Purpose"). In connection with the Purpose, each party may disclose information to the other that it considers confidential, and this Agreement sets out the terms on which that information is shared and protected.',
  ],
  [
    'Confidential Information',
    '"Confidential Information" means all non-public information disclosed by a party, whether orally, in writing or by inspection, including business plans, pricing, customer lists, product designs, source code, financial data and the terms of this Agreement, that is marked confidential or would reasonably be understood to be confidential.',
  ],
  [
    'Obligations of the Recipient',
    'The recipient shall use Confidential Information only for the Purpose, shall protect it with at least the care it uses for its own information of like importance and never less than reasonable care, and shall disclose it only to employees and advisers who need to know it and are bound by duties of confidentiality no less protective than these.',
  ],
  [
    'Exclusions',
    'These obligations do not apply to information that is or becomes public through no fault of the recipient, was lawfully known to the recipient before disclosure, is received from a third party without a duty of confidentiality, or is independently developed without use of the Confidential Information.',
  ],
  [
    'Compelled Disclosure',
    'If the recipient is required by law or court order to disclose Confidential Information, it shall give the disclosing party prompt written notice where lawful, cooperate in any effort to obtain a protective order, and disclose only the portion that it is legally required to disclose.',
  ],
  [
    'Term and Termination',
    'This Agreement begins on the date of the last signature and continues for two (2) years unless terminated earlier by either party on thirty (30) days written notice. The obligations of confidentiality survive termination for three (3) years, and indefinitely for trade secrets.',
  ],
  [
    'Return of Materials',
    'On written request or on termination, the recipient shall promptly return or destroy all documents and copies containing Confidential Information and, if asked, confirm in writing that it has done so, except for copies retained in routine backups or as required by law.',
  ],
  [
    'No License or Warranty',
    'Nothing in this Agreement grants any license or right under any patent, copyright or other intellectual property. All Confidential Information is provided "as is", without warranty of any kind as to its accuracy or completeness.',
  ],
  [
    'Remedies',
    'Unauthorised use or disclosure may cause irreparable harm for which damages would be an inadequate remedy. The disclosing party is therefore entitled to seek injunctive relief in addition to any other remedy available at law or in equity, without the need to post a bond.',
  ],
];

const FINAL_CLAUSES: ReadonlyArray<readonly [string, string]> = [
  [
    'Electronic Signatures',
    'The parties agree that this Agreement may be signed electronically, that an electronic signature has the same effect as a handwritten one, and that a copy of the signed Agreement kept by either party is as valid as the original.',
  ],
  [
    'Governing Law',
    'This Agreement is governed by the laws of the State of Delaware, without regard to its conflict of laws rules, and the parties submit to the exclusive jurisdiction of the state and federal courts located in Wilmington, Delaware.',
  ],
  [
    'Entire Agreement',
    'This Agreement is the entire agreement between the parties on its subject and supersedes all prior discussions. It may be amended only in a writing signed by both parties. If any provision is held unenforceable, the remainder continues in full force.',
  ],
];

export interface Fonts {
  regular: Standard14Font;
  bold: Standard14Font;
}

/** Helvetica and Helvetica Bold, the standard fonts every reader has: nothing is embedded. */
export function sampleFonts(): Fonts {
  return { regular: Standard14Font.of(StandardFonts.Helvetica), bold: Standard14Font.of(StandardFonts.HelveticaBold) };
}

export const INK = rgb(0.11, 0.11, 0.13);
export const MUTED = rgb(0.42, 0.43, 0.47);
const BOX_BORDER = rgb(0.62, 0.66, 0.74);
const BOX_FILL = rgb(0.965, 0.972, 0.99);

/** Standard fonts speak WinAnsi; anything else has no glyph in them, so it becomes "?". */
export function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
}

/** When the sample PDFs were made: fixed, so that the same options give the same bytes. */
export const SAMPLE_DATE = new Date('2025-01-01T00:00:00Z');

/**
 * Dates the sample `SAMPLE_DATE` and gives it a file identifier (`/ID`) derived from `seed`, where @libpdf/core
 * would write the current time and random bytes: the same seed gives the same bytes.
 */
export function fixSampleIdentity(pdf: PDF, seed: string): void {
  pdf.setCreationDate(SAMPLE_DATE);
  pdf.setModificationDate(SAMPLE_DATE);
  const id = createHash('sha256').update(seed).digest().subarray(0, 16);
  pdf.context.info.trailer.set('ID', new PdfArray([new PdfString(id, 'hex'), new PdfString(id, 'hex')]));
}

/**
 * @libpdf/core writes each drawing call as a content stream of its own (page 1 of the sample has 42, each too small
 * for `save` to compress); joined into one per page, which `save` compresses, the file is a quarter of the size.
 */
export function joinContents(pdf: PDF, page: PDFPage): void {
  const contents = page.dict.get('Contents');
  if (!(contents instanceof PdfArray)) return;
  const parts: Uint8Array[] = [];
  for (let i = 0; i < contents.length; i++) {
    const item = contents.at(i);
    const stream = item instanceof PdfRef ? pdf.context.resolve(item) : item;
    if (stream instanceof PdfStream) parts.push(stream.data, new Uint8Array([0x0a]));
  }
  page.dict.set('Contents', pdf.context.register(new PdfStream([], Buffer.concat(parts))));
}

/** PDF's y is from the bottom; the layout's `top` is from the top. */
export function baselineY(top: number): number {
  return PAGE_HEIGHT - top;
}

function wrapText(text: string, font: Standard14Font, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Lays out text in bands; wrapping is cached because a 300-page file repeats the same paragraphs. */
class TextFlow {
  private readonly wrapped = new Map<string, string[]>();

  constructor(private readonly fonts: Fonts) {}

  lines(text: string): string[] {
    let lines = this.wrapped.get(text);
    if (!lines) {
      lines = wrapText(text, this.fonts.regular, BODY_SIZE, TEXT_WIDTH);
      this.wrapped.set(text, lines);
    }
    return lines;
  }

  /** Height a heading plus paragraph takes. */
  blockHeight(body: string, withHeading: boolean): number {
    return (this.lines(body).length + (withHeading ? 1 : 0)) * BODY_LEADING + PARAGRAPH_GAP;
  }

  /** Draws a block whose first line's top is `top`; returns the top of what follows. */
  drawBlock(page: PDFPage, top: number, body: string, heading?: string): number {
    let cursor = top;
    if (heading) {
      cursor += BODY_LEADING;
      page.drawText(heading, { x: MARGIN_LEFT, y: baselineY(cursor - 3.5), size: BODY_SIZE, font: this.fonts.bold.name, color: INK });
    }
    for (const line of this.lines(body)) {
      cursor += BODY_LEADING;
      page.drawText(line, { x: MARGIN_LEFT, y: baselineY(cursor - 3.5), size: BODY_SIZE, font: this.fonts.regular.name, color: INK });
    }
    return cursor + PARAGRAPH_GAP;
  }
}

/** Numbered clauses, cycling through the templates so that any number of pages can be filled. */
class ClauseSource {
  private next = 0;

  constructor(private readonly templates: ReadonlyArray<readonly [string, string]>, private number: number) {}

  get exhausted(): boolean {
    return this.next >= this.templates.length;
  }

  peek(cycle: boolean): { heading: string; body: string } | null {
    if (!cycle && this.exhausted) return null;
    const [title, body] = this.templates[this.next % this.templates.length]!;
    return { heading: `${this.number}. ${title}`, body };
  }

  advance(): void {
    this.next++;
    this.number++;
  }

  get clauseNumber(): number {
    return this.number;
  }
}

/** Draws clauses from `source` into the band [top, bottom]; stops at the first that does not fit. */
function fillBand(page: PDFPage, flow: TextFlow, source: ClauseSource, top: number, bottom: number, cycle: boolean): void {
  let cursor = top;
  for (let clause = source.peek(cycle); clause; clause = source.peek(cycle)) {
    if (cursor + flow.blockHeight(clause.body, true) > bottom) return;
    cursor = flow.drawBlock(page, cursor, clause.body, clause.heading);
    source.advance();
  }
}

export function drawFieldBox(page: PDFPage, field: SampleField, fonts: Fonts): void {
  const { x, top, width, height } = field.box;
  const y = PAGE_HEIGHT - top - height;
  if (field.type === 'checkbox') {
    page.drawRectangle({ x, y, width, height, borderColor: INK, borderWidth: 0.8, color: rgb(1, 1, 1) });
    page.drawText(winAnsi(field.label), { x: x + width + 8, y: y + 3, size: 9.5, font: fonts.regular.name, color: INK });
    return;
  }
  page.drawText(winAnsi(field.label), { x, y: y + height + 4, size: LABEL_SIZE, font: fonts.bold.name, color: MUTED });
  page.drawRectangle({ x, y, width, height, borderColor: BOX_BORDER, borderWidth: 0.6, color: BOX_FILL });
  if (field.type === 'signature' || field.type === 'initials') {
    // The line a wet signature would sit on, with the customary "x".
    page.drawLine({ start: { x: x + 6, y: y + 10 }, end: { x: x + width - 6, y: y + 10 }, thickness: 0.7, color: MUTED });
    page.drawText('x', { x: x + 8, y: y + 13, size: 9, font: fonts.regular.name, color: MUTED });
  }
}

function drawFooter(page: PDFPage, fonts: Fonts, title: string, pageNumber: number, pageCount: number): void {
  const text = `${title}  -  Page ${pageNumber} of ${pageCount}`;
  const width = fonts.regular.widthOfTextAtSize(text, 8);
  page.drawText(text, { x: (PAGE_WIDTH - width) / 2, y: 30, size: 8, font: fonts.regular.name, color: MUTED });
}

function drawFirstPageHeader(page: PDFPage, fonts: Fonts, title: string): void {
  page.drawText('DEMO COMPANY, INC.  -  CONFIDENTIAL', { x: MARGIN_LEFT, y: baselineY(58), size: 8, font: fonts.bold.name, color: MUTED });
  const titleSize = fonts.bold.widthOfTextAtSize(title, 20) > TEXT_WIDTH ? 15 : 20;
  const titleWidth = fonts.bold.widthOfTextAtSize(title, titleSize);
  page.drawText(title, {
    x: Math.max(MARGIN_LEFT, (PAGE_WIDTH - titleWidth) / 2),
    y: baselineY(102),
    size: titleSize,
    font: fonts.bold.name,
    color: INK,
    maxWidth: TEXT_WIDTH,
  });
  page.drawLine({ start: { x: MARGIN_LEFT, y: baselineY(116) }, end: { x: MARGIN_RIGHT, y: baselineY(116) }, thickness: 0.8, color: INK });
  page.drawText('Effective on the date of the last signature below', {
    x: 318,
    y: baselineY(154),
    size: 9,
    font: fonts.regular.name,
    color: MUTED,
  });
}

function drawSignatureBlock(page: PDFPage, fonts: Fonts): void {
  page.drawLine({
    start: { x: MARGIN_LEFT, y: baselineY(SIGNATURE_RULE_TOP) },
    end: { x: MARGIN_RIGHT, y: baselineY(SIGNATURE_RULE_TOP) },
    thickness: 0.6,
    color: MUTED,
  });
  page.drawText('IN WITNESS WHEREOF, the Signer has executed this Agreement:', {
    x: MARGIN_LEFT,
    y: baselineY(482),
    size: 10.5,
    font: fonts.bold.name,
    color: INK,
  });
  page.drawText('By signing electronically, the Signer agrees that the signature is binding as if signed by hand.', {
    x: MARGIN_LEFT,
    y: baselineY(630),
    size: 8,
    font: fonts.regular.name,
    color: MUTED,
  });
}

/**
 * A realistic sample agreement (US Letter, Helvetica): a title and prefilled agreement number, name fields and
 * initials on page 1, numbered clauses, and a signature block (checkbox, signature, date) on the last page.
 * Pages between hold further clauses. `sampleFields(pages)` returns the matching field definitions.
 * Deterministic: the same options give the same bytes.
 * @example const pdf = await generateSamplePdf({ pages: 3, title: 'Mutual NDA' }); const fields = sampleFields(3)
 */
export async function generateSamplePdf(options: { pages?: number; title?: string; countersigned?: boolean } = {}): Promise<Uint8Array> {
  const pageCount = checkPageCount(options.pages ?? 3);
  const title = winAnsi(options.title ?? 'Mutual Non-Disclosure Agreement');

  const pdf = PDF.create();
  pdf.setTitle(title);
  pdf.setAuthor('Demo Company, Inc.');
  pdf.setSubject('Sample agreement for Signet');
  pdf.setCreator('Signet');
  pdf.setProducer('Signet sample generator (@libpdf/core)');
  fixSampleIdentity(pdf, JSON.stringify(['agreement', pageCount, title, options.countersigned === true]));
  const fonts = sampleFonts();
  const flow = new TextFlow(fonts);
  const clauses = new ClauseSource(CLAUSES, 1);

  // Every page first, then their contents: the page objects are written together near the start of the file, so a
  // viewer loading by ranges reads every page's size without fetching the pages' contents (pdf-lib got the same
  // from object streams, which @libpdf/core does not write).
  const pages = Array.from({ length: pageCount }, () => pdf.addPage({ width: PAGE_WIDTH, height: PAGE_HEIGHT }));
  for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
    const page = pages[pageNumber - 1]!;
    const isFirst = pageNumber === 1;
    const isLast = pageNumber === pageCount;
    let top: number = TEXT_BAND.continuationTop;
    if (isFirst) {
      drawFirstPageHeader(page, fonts, title);
      top = flow.drawBlock(
        page,
        TEXT_BAND.firstPageTop,
        `This ${title} (the "Agreement") is entered into between Demo Company, Inc. (the "Company") and the person ` +
          'named above (the "Signer"). In consideration of the mutual promises below, the parties agree as follows.',
      );
    }
    const bottom = isLast ? TEXT_BAND.signaturePageBottom : TEXT_BAND.fullPageBottom;
    if (isLast) {
      // The final provisions close the document; on a one-page document only what fits is printed.
      fillBand(page, flow, new ClauseSource(FINAL_CLAUSES, clauses.clauseNumber), top, bottom, false);
      drawSignatureBlock(page, fonts);
    } else {
      fillBand(page, flow, clauses, top, bottom, true);
    }
    const fields = [...(isFirst ? FIRST_PAGE_FIELDS : []), ...(isLast ? LAST_PAGE_FIELDS : [])];
    if (isLast && options.countersigned) {
      page.drawText('Countersigned by the Landlord:', { x: MARGIN_LEFT, y: baselineY(COUNTERSIGN_HEADING_TOP), size: 10.5, font: fonts.bold.name, color: INK });
      fields.push(...COUNTERSIGN_FIELDS);
    }
    for (const field of fields) drawFieldBox(page, field, fonts);
    drawFooter(page, fonts, title, pageNumber, pageCount);
    joinContents(pdf, page);
  }
  return pdf.save();
}

function checkPageCount(pages: number): number {
  if (!Number.isInteger(pages) || pages < 1) throw new RangeError(`pages must be a positive integer, got ${pages}`);
  return pages;
}

const fraction = (points: number, of: number) => Math.round((points / of) * 10_000) / 10_000;

export function toDefinition(field: SampleField, page: number): FieldDefinition {
  const { box, value, ...rest } = field;
  return {
    ...rest,
    ...(value ? { value: { ...value } } : {}),
    page,
    x: fraction(box.x, PAGE_WIDTH),
    y: fraction(box.top, PAGE_HEIGHT),
    width: fraction(box.width, PAGE_WIDTH),
    height: fraction(box.height, PAGE_HEIGHT),
  };
}

/**
 * The fields of a countersigned sample (`generateSamplePdf({ countersigned: true })`) for two signers: the sample's
 * fields are the tenant's, the block under them the landlord's.
 * @example createDocument(storage, { …, fields: sampleLeaseFields(2), signers: LEASE_SIGNERS, signingOrder: 'sequential' })
 */
export function sampleLeaseFields(pageCount: number): FieldDefinition[] {
  const last = checkPageCount(pageCount);
  return [
    ...sampleFields(pageCount).map((field) => ({ ...field, signerId: 'tenant' })),
    ...COUNTERSIGN_FIELDS.map((field) => ({ ...toDefinition(field, last), signerId: 'landlord' })),
  ];
}

/** The two signers of `sampleLeaseFields`, the tenant first. */
export const LEASE_SIGNERS = [
  { id: 'tenant', name: 'Tina Tenant', email: 'tina@example.com', order: 1 },
  { id: 'landlord', name: 'Lars Landlord', email: 'lars@example.com', order: 2 },
] as const;

/**
 * The field definitions of `generateSamplePdf({ pages: pageCount })`: every field type, including a non-editable
 * prefilled text field, on page 1 and on the last page. Positions are fractions of the page, y from the top.
 * @example sampleFields(3).map((f) => `${f.id}@${f.page}`) // ['agreement_number@1', …, 'signature@3', …]
 */
export function sampleFields(pageCount: number): FieldDefinition[] {
  const last = checkPageCount(pageCount);
  return [
    ...FIRST_PAGE_FIELDS.map((field) => toDefinition(field, 1)),
    ...LAST_PAGE_FIELDS.map((field) => toDefinition(field, last)),
  ];
}
