import { PDF, rgb } from '@libpdf/core';
import { INK, MUTED, SAMPLE_PAGE_SIZE, baselineY, fixSampleIdentity, joinContents, sampleFonts } from './sample.js';

/*
 * The tagged example (examples/tagged-lease.pdf, docs/text-tags.md): a one-page lease whose fields are written into
 * its text as tags, as a host's own PDF generator would write them. Uploaded with `tags=true`, each tag becomes a
 * field on its box and its text leaves the stored PDF; the labels beside the tags stay where they are.
 */

const LEFT = 72;
const TAG_COLOUR = rgb(0.16, 0.36, 0.78);

/** Each line of the form: its label, the tag written after it, and the gap between them. */
const LINES: Array<{ top: number; label: string; tag: string }> = [
  { top: 250, label: 'Tenant (full legal name):', tag: '{{text;id=tenant_name;signer=tenant;label=Full legal name;placeholder=Jane Doe;required;width=220;height=18}}' },
  { top: 280, label: 'Tenant e-mail:', tag: '{{email;id=tenant_email;signer=tenant;label=E-mail;width=220;height=18}}' },
  { top: 310, label: 'Move-in date:', tag: '{{date;id=move_in;signer=tenant;label=Move-in date;required;width=120;height=18}}' },
  { top: 340, label: 'Monthly rent (USD):', tag: '{{number;id=rent;signer=landlord;label=Monthly rent;required;width=120;height=18}}' },
  { top: 370, label: 'Rent is paid:', tag: '{{select;id=payment;signer=tenant;label=Payment;options=transfer:By bank transfer|card:By card;width=160;height=18}}' },
  { top: 400, label: 'I have read the house rules', tag: '{{checkbox;id=house_rules;signer=tenant;label=I have read the house rules;required;width=14;height=14}}' },
  { top: 500, label: 'Tenant signature:', tag: '{{signature;id=tenant_signature;signer=tenant;required;width=180;height=40}}' },
  { top: 500, label: 'Date:', tag: '{{date;id=tenant_date;signer=tenant;label=Date signed;required;width=100;height=18}}' },
  { top: 580, label: 'Landlord signature:', tag: '{{signature;id=landlord_signature;signer=landlord;required;width=180;height=40}}' },
];

/** The size the tags are written in: small, so that a tag's own box stays on its line (each sets its size). */
const TAG_SIZE = 4;

/**
 * The tagged lease: Helvetica text with nine tags for two signers (`tenant`, `landlord`), the same bytes each time.
 * @example await writeFile('examples/tagged-lease.pdf', await generateTaggedLeasePdf())
 */
export async function generateTaggedLeasePdf(): Promise<Uint8Array> {
  const pdf = PDF.create();
  pdf.setTitle('Residential Lease (tagged)');
  pdf.setAuthor('Demo Company, Inc.');
  pdf.setCreator('Signet');
  pdf.setProducer('Signet sample generator (@libpdf/core)');
  fixSampleIdentity(pdf, JSON.stringify(['tagged-lease']));
  const fonts = sampleFonts();
  const page = pdf.addPage({ width: SAMPLE_PAGE_SIZE.width, height: SAMPLE_PAGE_SIZE.height });
  page.drawText('Residential Lease', { x: LEFT, y: baselineY(110), size: 22, font: fonts.bold.name, color: INK });
  page.drawText('Demo Company, Inc. - 1 Example Street, Springfield', { x: LEFT, y: baselineY(132), size: 10, font: fonts.regular.name, color: MUTED });
  const intro = [
    'The landlord lets the flat at 1 Example Street to the tenant named below. The tenant fills in the first',
    'part and signs; the landlord then enters the rent and signs. The fields of this form are written into',
    'its text as tags, which Signet turns into fields when the PDF is uploaded with tags=true.',
  ];
  intro.forEach((line, index) => page.drawText(line, { x: LEFT, y: baselineY(170 + index * 15), size: 10.5, font: fonts.regular.name, color: INK }));
  let previousTop = -1;
  let x = LEFT;
  for (const { top, label, tag } of LINES) {
    // Two items on one line (the tenant's signature and its date): the second follows the first's field.
    x = top === previousTop ? x + 290 : LEFT;
    previousTop = top;
    page.drawText(label, { x, y: baselineY(top), size: 10.5, font: fonts.regular.name, color: INK });
    const labelWidth = fonts.regular.widthOfTextAtSize(label, 10.5);
    page.drawText(tag, { x: x + labelWidth + 8, y: baselineY(top), size: TAG_SIZE, font: fonts.regular.name, color: TAG_COLOUR });
  }
  page.drawText('Signet sample: every name and number in it is made up.', { x: LEFT, y: baselineY(740), size: 8, font: fonts.regular.name, color: MUTED });
  joinContents(pdf, page);
  return pdf.save();
}
