import { rgb, type PDF, type PDFPage, type EmbeddedFont } from '@libpdf/core';
import type { AuditEventType } from '@signet/contract';
import type { AuditTrailEvent, SealInput } from '../types.js';
import type { SealFonts } from './fonts.js';
import { textLine, wrap, type TextLine } from './text-layout.js';
import { drawLine } from './text-shaping.js';

/** US Letter, with 0.75 in margins. */
const PAGE = { width: 612, height: 792, margin: 54 } as const;
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
/** The label column of the key–value rows and the time column of the timeline. */
const LABEL_WIDTH = 150;
const BODY = 9.5;
/** Smallest size a hash is set in to keep it on one line. */
const MIN_SIZE = 7;
const LEADING = BODY * 1.35;
const ROW_GAP = 5;
const FOOTER_SPACE = 36;

const TEXT = rgb(0.07, 0.09, 0.15);
const MUTED = rgb(0.36, 0.4, 0.46);
const RULE = rgb(0.82, 0.84, 0.87);

const EVENT_LABELS: Record<AuditEventType, string> = {
  'document.created': 'Document created',
  'document.opened': 'Opened by the signer',
  'signer.opened': 'Opened by',
  'signer.verified': 'Identity verified:',
  'signer.verification_failed': 'Wrong code entered for',
  'signer.completed': 'Signed by',
  'document.submitted': 'Submitted by the signer',
  'document.declined': 'Declined',
  'document.voided': 'Voided by the sender',
  'document.expired': 'Expired unsigned',
  'document.erased': 'Content erased',
  'document.sent': 'Sent for signing',
  'signer.invited': 'Invitation e-mailed to',
  'signer.reminded': 'Reminder e-mailed to',
  'document.sealed': 'Sealed with a digital signature',
};

/**
 * Appends the audit trail to `pdf`: page(s) that state what was signed (the original file's SHA-256), the
 * submission (its payload checksum, when and from where it came) and the timeline from creation to the seal at
 * `input.sealedAt`, for a signer or a lawyer to read. Long values wrap; a long timeline flows onto more pages.
 * @example appendAuditPages(pdf, input, embedSealFonts(pdf)) // 1 (pages added)
 */
export function appendAuditPages(pdf: PDF, input: SealInput, fonts: SealFonts): number {
  const writer = new AuditWriter(pdf, fonts);
  const { document, submission } = input;

  writer.title('Audit trail');
  writer.paragraph(`Signet's record of how this document was completed. The pages before this trail are the original document with the signer's values drawn in.`, MUTED);

  writer.heading('Document');
  writer.row('Document ID', document.id);
  writer.row('File name', document.filename);
  writer.row('Pages', `${document.pageCount} (before this audit trail)`);
  writer.row('SHA-256 of the original file', document.sha256, { oneLine: true });

  for (const signer of input.signers ?? [{ name: undefined, email: undefined, submission }]) {
    writer.heading(signer.name === undefined ? 'Submission' : `Signer: ${signer.name}`);
    if (signer.email) writer.row('Email', signer.email);
    writer.row('Submission ID', signer.submission.id);
    writer.row('Payload checksum (SHA-256)', signer.submission.checksum, { oneLine: true });
    writer.row('Submitted at (UTC)', utc(signer.submission.receivedAt));
    writer.row('Signer IP address', signer.submission.clientIp ?? 'not recorded');
    writer.row('Signer user agent', signer.submission.userAgent ?? 'not recorded');
  }

  writer.heading('Timeline (UTC)');
  for (const { event, label } of timeline(input)) {
    const details = [verificationMethod(event), event.ip && `IP address: ${event.ip}`, event.userAgent && `User agent: ${event.userAgent}`]
      .filter(Boolean)
      .join('\n');
    writer.row(utc(event.occurredAt), details ? `${label}\n${details}` : label, { boldFirstLine: true });
  }

  writer.heading('Seal');
  writer.paragraph(
    `This document is sealed with a digital signature (PAdES, ${utc(input.sealedAt)}). The signature covers the whole file, these pages included: ` +
      'any change made after sealing invalidates it. A PDF reader that validates signatures shows whether the file is intact.',
    TEXT,
  );
  return writer.finish(document.id);
}

/** The events in order, with the seal at `sealedAt` added; the first opening is named as such. */
function timeline(input: SealInput): Array<{ event: AuditTrailEvent; label: string }> {
  const events = input.events.filter((event) => event.type !== 'document.sealed');
  events.push({ type: 'document.sealed', occurredAt: input.sealedAt, ip: null, userAgent: null });
  events.sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt));
  let opened = false;
  return events.map((event) => {
    if (event.signerName !== undefined) return { event, label: `${EVENT_LABELS[event.type]} ${event.signerName}` };
    if (event.type === 'document.submitted' && input.signers) return { event, label: 'Signed by every signer' };
    if (event.type !== 'document.opened') return { event, label: EVENT_LABELS[event.type] };
    const label = opened ? EVENT_LABELS['document.opened'] : input.signers ? 'First opened' : 'First opened by the signer';
    opened = true;
    return { event, label };
  });
}

/** How a signer proved who they are (docs/signer-auth.md): the method, and the address an e-mailed code went to. */
function verificationMethod(event: AuditTrailEvent): string | undefined {
  if (event.method === 'email_code') return `Method: code e-mailed${event.address ? ` to ${event.address}` : ''}`;
  if (event.method === 'access_code') return 'Method: access code given by the sender';
  return undefined;
}

/** `2025-01-31 14:05:09 UTC` */
function utc(time: string): string {
  return `${new Date(time).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Lays the trail out from the top of a page down, starting a new page when the next block does not fit. */
class AuditWriter {
  readonly #pdf: PDF;
  readonly #fonts: SealFonts;
  readonly #pages: PDFPage[] = [];
  #y = 0;

  constructor(pdf: PDF, fonts: SealFonts) {
    this.#pdf = pdf;
    this.#fonts = fonts;
    this.#newPage();
  }

  title(text: string): void {
    this.#page.drawText(text, { x: PAGE.margin, y: this.#y - 20, font: this.#fonts.bold, size: 20, color: TEXT });
    this.#y -= 34;
  }

  heading(text: string): void {
    this.#room(14 + 8 + LEADING * 2);
    this.#y -= 14;
    // A signer's name is in it: shaped and reordered when it is written right to left.
    drawLine(this.#page, textLine(text, this.#fonts.bold, 11), { x: PAGE.margin, y: this.#y - 11, font: this.#fonts.bold, size: 11, color: TEXT });
    this.#y -= 16;
    this.#page.drawLine({ start: { x: PAGE.margin, y: this.#y }, end: { x: PAGE.width - PAGE.margin, y: this.#y }, color: RULE, thickness: 0.75 });
    this.#y -= 8;
  }

  paragraph(text: string, color: typeof TEXT): void {
    const lines = wrap(text, this.#fonts.regular, BODY, CONTENT_WIDTH);
    this.#room(lines.length * LEADING);
    this.#lines(lines, PAGE.margin, CONTENT_WIDTH, this.#fonts.regular, color);
    this.#y -= ROW_GAP;
  }

  /**
   * A label and its value side by side; a long value wraps in its column, and a right-to-left one starts at the
   * column's right edge. A `oneLine` value (a hash) is set smaller where that keeps it on one line, so it can be read
   * and copied whole.
   */
  row(label: string, value: string, options: { boldFirstLine?: boolean; oneLine?: boolean } = {}): void {
    const valueX = PAGE.margin + LABEL_WIDTH;
    const valueWidth = CONTENT_WIDTH - LABEL_WIDTH;
    const labelLines = wrap(label, this.#fonts.regular, BODY, LABEL_WIDTH - 10);
    const [first, ...rest] = value.split('\n');
    if (options.oneLine) {
      const size = Math.max(MIN_SIZE, Math.min(BODY, (BODY * valueWidth) / this.#fonts.regular.widthOfTextAtSize(value, BODY)));
      const lines = wrap(value, this.#fonts.regular, size, valueWidth);
      const height = Math.max(labelLines.length, lines.length) * LEADING;
      this.#room(height);
      const top = this.#y;
      this.#lines(labelLines, PAGE.margin, LABEL_WIDTH - 10, this.#fonts.regular, MUTED);
      this.#y = top;
      this.#lines(lines, valueX, valueWidth, this.#fonts.regular, TEXT, size);
      this.#y = top - height - ROW_GAP;
      return;
    }
    const firstLines = wrap(first ?? '', options.boldFirstLine ? this.#fonts.bold : this.#fonts.regular, BODY, valueWidth);
    const restLines = rest.flatMap((line) => wrap(line, this.#fonts.regular, BODY, valueWidth));
    const height = Math.max(labelLines.length, firstLines.length + restLines.length) * LEADING;
    this.#room(height);
    const top = this.#y;
    this.#lines(labelLines, PAGE.margin, LABEL_WIDTH - 10, this.#fonts.regular, MUTED);
    this.#y = top;
    this.#lines(firstLines, valueX, valueWidth, options.boldFirstLine ? this.#fonts.bold : this.#fonts.regular, TEXT);
    this.#lines(restLines, valueX, valueWidth, this.#fonts.regular, restLines.length > 0 && options.boldFirstLine ? MUTED : TEXT);
    this.#y = top - height - ROW_GAP;
  }

  /** Draws each page's footer, now that the number of pages is known; returns it. */
  finish(documentId: string): number {
    this.#pages.forEach((page, index) => {
      const footer = `Signet audit trail · document ${documentId} · page ${index + 1} of ${this.#pages.length}`;
      page.drawText(footer, { x: PAGE.margin, y: PAGE.margin - 18, font: this.#fonts.regular, size: 8, color: MUTED });
    });
    return this.#pages.length;
  }

  get #page(): PDFPage {
    return this.#pages.at(-1)!;
  }

  /** Draws `lines` one under the other in the column from `x`, `width` wide. */
  #lines(lines: TextLine[], x: number, width: number, font: EmbeddedFont, color: typeof TEXT, size = BODY): void {
    for (const line of lines) {
      drawLine(this.#page, line, { x: line.rtl ? x + width - line.width : x, y: this.#y - BODY, font, size, color });
      this.#y -= LEADING;
    }
  }

  /** Starts a new page unless `height` more points fit above the footer. */
  #room(height: number): void {
    if (this.#y - height < PAGE.margin + FOOTER_SPACE - 18) this.#newPage();
  }

  #newPage(): void {
    this.#pages.push(this.#pdf.addPage({ size: 'letter' }));
    this.#y = PAGE.height - PAGE.margin;
  }
}
