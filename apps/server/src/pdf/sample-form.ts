import { PDF } from '@libpdf/core';
import type { FieldDefinition } from '@signet/contract';
import { INK, MUTED, SAMPLE_PAGE_SIZE, baselineY, drawFieldBox, fixSampleIdentity, joinContents, sampleFonts, toDefinition, type SampleField } from './sample.js';

/**
 * The layout table of the sample application form: one page with a field of every type a form needs,
 * with validation a signer meets in real forms. The PDF draws these boxes and `sampleFormFields` turns them into
 * field definitions.
 */
const FORM_FIELDS: readonly SampleField[] = [
  { id: 'full_name', type: 'text', label: 'Full name', required: true, editable: true, validation: { minLength: 2, maxLength: 100 }, box: { x: 72, top: 150, width: 222, height: 24 } },
  { id: 'email', type: 'email', label: 'Email', placeholder: 'name@example.com', required: true, editable: true, box: { x: 318, top: 150, width: 222, height: 24 } },
  { id: 'phone', type: 'phone', label: 'Phone', placeholder: '+1 555 010 0199', required: false, editable: true, box: { x: 72, top: 204, width: 222, height: 24 } },
  {
    id: 'member_number',
    type: 'text',
    label: 'Member number (if any)',
    placeholder: 'AB-1234',
    required: false,
    editable: true,
    validation: { pattern: '[A-Z]{2}-[0-9]{4}', message: 'Two capital letters, a hyphen and four digits, such as AB-1234' },
    box: { x: 318, top: 204, width: 222, height: 24 },
  },
  { id: 'guests', type: 'number', label: 'Guests', required: true, editable: true, validation: { min: 0, max: 10, step: 1 }, box: { x: 72, top: 258, width: 100, height: 24 } },
  {
    id: 'plan',
    type: 'select',
    label: 'Plan',
    required: true,
    editable: true,
    options: [
      { value: 'basic', label: 'Basic' },
      { value: 'standard', label: 'Standard' },
      { value: 'premium', label: 'Premium' },
    ],
    box: { x: 196, top: 258, width: 180, height: 24 },
  },
  {
    id: 'billing',
    type: 'radio',
    label: 'Billing',
    required: true,
    editable: true,
    options: [
      { value: 'monthly', label: 'Monthly' },
      { value: 'yearly', label: 'Yearly' },
    ],
    box: { x: 400, top: 258, width: 140, height: 48 },
  },
  { id: 'notes', type: 'textarea', label: 'Notes', placeholder: 'Anything we should know', required: false, editable: true, validation: { maxLength: 500 }, box: { x: 72, top: 336, width: 468, height: 90 } },
  { id: 'id_photo', type: 'image', label: 'Photo of your ID', required: false, editable: true, box: { x: 72, top: 456, width: 160, height: 110 } },
  { id: 'confirm', type: 'checkbox', label: 'I confirm that the details above are correct', required: true, editable: true, box: { x: 72, top: 592, width: 14, height: 14 } },
  { id: 'signature', type: 'signature', label: 'Signature', required: true, editable: true, box: { x: 72, top: 640, width: 270, height: 64 } },
  { id: 'signed_date', type: 'date', label: 'Date', required: true, editable: true, box: { x: 372, top: 674, width: 168, height: 30 } },
];

/**
 * A one-page sample application form (US Letter, Helvetica) with a field of every type: text with a pattern, email,
 * phone, number, select, radio, textarea, image, checkbox, signature and date. `sampleFormFields()` returns the
 * matching definitions. Deterministic: the same call gives the same bytes.
 * @example const pdf = await generateSampleFormPdf(); const fields = sampleFormFields()
 */
export async function generateSampleFormPdf(title = 'Membership Application'): Promise<Uint8Array> {
  const pdf = PDF.create();
  pdf.setTitle(title);
  pdf.setAuthor('Demo Company, Inc.');
  pdf.setCreator('Signet');
  pdf.setProducer('Signet sample generator (@libpdf/core)');
  fixSampleIdentity(pdf, JSON.stringify(['form', title]));
  const fonts = sampleFonts();
  const page = pdf.addPage({ width: SAMPLE_PAGE_SIZE.width, height: SAMPLE_PAGE_SIZE.height });
  page.drawText('DEMO COMPANY, INC.', { x: 72, y: baselineY(58), size: 8, font: fonts.bold.name, color: MUTED });
  page.drawText(title, { x: 72, y: baselineY(96), size: 20, font: fonts.bold.name, color: INK });
  page.drawText('Please complete every required field, then sign and date the form.', { x: 72, y: baselineY(118), size: 10, font: fonts.regular.name, color: MUTED });
  for (const field of FORM_FIELDS) drawFieldBox(page, field, fonts);
  joinContents(pdf, page);
  return pdf.save();
}

/**
 * The field definitions of `generateSampleFormPdf()`, on its one page.
 * @example sampleFormFields().map((field) => field.type) // ['text', 'email', 'phone', 'text', 'number', …]
 */
export function sampleFormFields(): FieldDefinition[] {
  return FORM_FIELDS.map((field) => toDefinition(field, 1));
}
