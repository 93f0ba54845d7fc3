import { ops, rgb, type PDF, type PDFPage } from '@libpdf/core';
import { fieldTextStyle, type FieldDefinition, type FieldOption, type SubmittedField, type TextStyle } from '@signet/contract';
import { SealError } from '../errors.js';
import type { SealFonts } from './fonts.js';
import { displayedPage, fieldRect, type DisplayedRect } from './page-geometry.js';
import { fitSignatureImage } from './signature-image.js';
import { defaultTextStyle, layoutField } from './text-layout.js';
import { drawLine } from './text-shaping.js';

/** The viewer's input text colour (`.signet-input`, #111827). */
const INK = rgb(0x11 / 255, 0x18 / 255, 0x27 / 255);

/**
 * Draws each submitted value into its field's rectangle on `pdf`'s pages: text (of every typed kind), dates and a
 * chosen option's label in the submitted style, at the definition's `fontSize` where it sets one (right-to-left text shaped, reordered and started at the right edge),
 * signature, initials and image-field pictures fitted with their aspect ratio kept, a check mark for a ticked box, a
 * radio group's circles with the chosen one filled. The rectangle is the field's definition (the submission's
 * position where a value has none), a fraction of the page as displayed; every value is drawn in displayed
 * coordinates through one `cm` and clipped to its rectangle.
 * @example await drawValues(pdf, input.fields, input.submission.values, embedSealFonts(pdf))
 */
export async function drawValues(pdf: PDF, fields: readonly FieldDefinition[], values: readonly SubmittedField[], fonts: SealFonts): Promise<void> {
  const definitions = new Map(fields.map((field) => [field.id, field]));
  const pageCount = pdf.getPageCount();
  for (const value of values) {
    const definition = definitions.get(value.id);
    const pageNumber = definition?.page ?? value.page;
    const page = pageNumber <= pageCount ? pdf.getPage(pageNumber - 1) : null;
    if (!page) {
      throw new SealError(`field "${value.id}" is on page ${pageNumber}, but the PDF has ${pageCount} pages`, { retryable: false });
    }
    const displayed = displayedPage(pdf, page);
    if (!(displayed.width > 0 && displayed.height > 0)) {
      throw new SealError(`page ${pageNumber} has no area (its crop box is empty): nothing can be drawn on it`, { retryable: false });
    }
    const rect = fieldRect(displayed, definition ?? value.position);
    page.drawOperators([
      ops.pushGraphicsState(),
      ops.concatMatrix(...displayed.matrix),
      ops.rectangle(rect.x, rect.y, rect.width, rect.height),
      ops.clip(),
      ops.endPath(),
    ]);
    await drawValue(pdf, page, value, definition, rect, fonts);
    page.drawOperators([ops.popGraphicsState()]);
  }
}

async function drawValue(
  pdf: PDF,
  page: PDFPage,
  field: SubmittedField,
  definition: FieldDefinition | undefined,
  rect: DisplayedRect,
  fonts: SealFonts,
): Promise<void> {
  const { value } = field;
  switch (value.type) {
    case 'text':
    case 'date':
    case 'number':
    case 'email':
    case 'phone':
      drawText(page, value.content, rect, fieldTextStyle(definition, field.style ?? defaultTextStyle(rect.height)), fonts);
      return;
    case 'textarea':
      drawText(page, value.content, rect, fieldTextStyle(definition, field.style ?? defaultTextStyle(Math.min(rect.height, 18))), fonts, 'top');
      return;
    case 'select': {
      // The option's label, as the signer read it; its value is in the audit trail and the submission.
      const option = definition?.options?.find((choice) => choice.value === value.value);
      drawText(page, option?.label ?? value.value, rect, fieldTextStyle(definition, field.style ?? defaultTextStyle(rect.height)), fonts);
      return;
    }
    case 'radio':
      page.drawOperators(radioGroup(page, definition, value.value, rect, fonts));
      return;
    case 'signature':
    case 'initials':
    case 'image': {
      const image = pdf.embedPng(await fitSignatureImage(value.imageData, rect));
      const scale = Math.min(rect.width / image.width, rect.height / image.height);
      const [width, height] = [image.width * scale, image.height * scale];
      page.drawImage(image, { x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width, height });
      return;
    }
    case 'checkbox':
      if (value.checked) page.drawOperators(checkMark(rect));
      return;
  }
}

function drawText(page: PDFPage, text: string, rect: DisplayedRect, style: TextStyle, fonts: SealFonts, vertical?: 'top'): void {
  for (const line of layoutField(text, rect, style, fonts.regular, vertical)) {
    drawLine(page, line, { x: line.x, y: line.y, font: fonts.regular, size: style.fontSize, color: INK });
  }
}

/**
 * A radio group as the viewer lays it out: its options in rows of equal height, top to bottom, each a circle and
 * its label; the chosen one's circle filled.
 */
function radioGroup(page: PDFPage, definition: FieldDefinition | undefined, chosen: string, rect: DisplayedRect, fonts: SealFonts) {
  const options: readonly FieldOption[] = definition?.options ?? [];
  const rowHeight = rect.height / Math.max(1, options.length);
  const radius = Math.min(rowHeight * 0.3, rect.width * 0.05);
  const style = fieldTextStyle(definition, defaultTextStyle(rowHeight));
  const operators = [ops.pushGraphicsState(), ops.setStrokingRGB(INK.red, INK.green, INK.blue), ops.setLineWidth(radius * 0.2)];
  options.forEach((option, index) => {
    const centreY = rect.y + rect.height - (index + 0.5) * rowHeight;
    const centreX = rect.x + radius * 1.6;
    operators.push(...circle(centreX, centreY, radius), ops.stroke());
    if (option.value === chosen) {
      operators.push(ops.setNonStrokingRGB(INK.red, INK.green, INK.blue), ...circle(centreX, centreY, radius * 0.55), ops.fill());
    }
    const labelRect = { x: centreX + radius * 1.6, y: centreY - rowHeight / 2, width: rect.width - radius * 3.2, height: rowHeight };
    for (const line of layoutField(option.label, labelRect, style, fonts.regular).slice(0, 1)) {
      drawLine(page, line, { x: line.x, y: line.y, font: fonts.regular, size: style.fontSize, color: INK });
    }
  });
  operators.push(ops.popGraphicsState());
  return operators;
}

/** A circle as four Bézier curves (the usual 0.5523 control-point ratio), left to be stroked or filled. */
function circle(x: number, y: number, r: number) {
  const k = 0.5523 * r;
  return [
    ops.moveTo(x + r, y),
    ops.curveTo(x + r, y + k, x + k, y + r, x, y + r),
    ops.curveTo(x - k, y + r, x - r, y + k, x - r, y),
    ops.curveTo(x - r, y - k, x - k, y - r, x, y - r),
    ops.curveTo(x + k, y - r, x + r, y - k, x + r, y),
    ops.closePath(),
  ];
}

/** A tick, stroked in the middle of the largest square that fits in `rect`. */
function checkMark(rect: DisplayedRect) {
  const side = Math.min(rect.width, rect.height);
  const [left, bottom] = [rect.x + (rect.width - side) / 2, rect.y + (rect.height - side) / 2];
  const at = (u: number, v: number) => [left + u * side, bottom + v * side] as const;
  return [
    ops.pushGraphicsState(),
    ops.setStrokingRGB(INK.red, INK.green, INK.blue),
    ops.setLineWidth(side * 0.12),
    ops.setLineCap(1),
    ops.setLineJoin(1),
    ops.moveTo(...at(0.2, 0.52)),
    ops.lineTo(...at(0.42, 0.28)),
    ops.lineTo(...at(0.82, 0.76)),
    ops.stroke(),
    ops.popGraphicsState(),
  ];
}
