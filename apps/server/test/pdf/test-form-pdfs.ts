import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDF, PdfArray, PdfDict, PdfName, PdfNumber, PdfRef, PdfString, type FormField } from '@libpdf/core';

/** Field flags (ISO 32000-1, table 221): bit 1 read-only, bit 2 required. */
const READ_ONLY = 1;
const REQUIRED = 2;

function flag(field: FormField, flags: number, tooltip?: string): void {
  const dict = field.acroField();
  const own = dict.getNumber('Ff')?.value ?? 0;
  dict.set('Ff', PdfNumber.of(own | flags));
  if (tooltip) dict.set('TU', PdfString.fromString(tooltip));
}

/**
 * A form with a field of every kind AcroForm has, made with @libpdf/core (docs/form-fields.md): on page 1 (US Letter)
 * text with a tooltip and a value, multiline text, a ticked checkbox, a radio group of two widgets, a combo box, a
 * list box, a signature field, a read-only prefilled text, a read-only required empty text, a push button and a
 * hidden text; on page 2, turned by `/Rotate 90`, one text field; on page 3, whose crop box is offset into the media
 * box, one text field and one half outside the crop box.
 * @example const bytes = await everyKindFormPdf()
 */
export async function everyKindFormPdf(): Promise<Uint8Array> {
  const pdf = PDF.create();
  const page1 = pdf.addPage({ width: 612, height: 792 });
  const page2 = pdf.addPage({ width: 612, height: 792 });
  const page3 = pdf.addPage({ width: 612, height: 792 });
  page2.setRotation(90);
  page3.dict.set('CropBox', PdfArray.of(PdfNumber.of(50), PdfNumber.of(100), PdfNumber.of(562), PdfNumber.of(742)));
  const form = pdf.getOrCreateForm();

  const name = form.createTextField('applicant name');
  page1.drawField(name, { x: 72, y: 700, width: 200, height: 20 });
  name.setValue('Ada Lovelace');
  flag(name, REQUIRED, 'Full name');

  const notes = form.createTextField('notes', { multiline: true, maxLength: 500 });
  page1.drawField(notes, { x: 72, y: 560, width: 300, height: 100 });
  notes.setValue('line one\nline two');

  const agree = form.createCheckbox('agree', { onValue: 'Yes' });
  page1.drawField(agree, { x: 72, y: 520, width: 14, height: 14 });
  agree.check();
  flag(agree, REQUIRED, 'I agree');

  const plan = form.createRadioGroup('plan', { options: ['basic', 'premium'] });
  page1.drawField(plan, { x: 300, y: 700, width: 16, height: 16, option: 'basic' });
  page1.drawField(plan, { x: 300, y: 670, width: 16, height: 16, option: 'premium' });
  plan.setValue('premium');

  const country = form.createDropdown('country', { options: ['USA', 'Canada'] });
  page1.drawField(country, { x: 300, y: 620, width: 150, height: 20 });
  country.setValue('Canada');

  const colors = form.createListbox('colors', { options: ['Red', 'Green', 'Blue'] });
  page1.drawField(colors, { x: 300, y: 500, width: 150, height: 60 });
  colors.setValue(['Green']);

  const signature = form.createSignatureField('signature');
  // libpdf draws no signature widget (its signer does): the widget is added as an authoring tool writes it.
  const sigWidget = signature.addWidget(
    PdfDict.of({ Type: PdfName.of('Annot'), Subtype: PdfName.of('Widget'), Rect: rect(72, 400, 272, 450), P: page1.ref }),
  );
  annotsOf(pdf, page1.dict).push(sigWidget.ref!);
  flag(signature, REQUIRED);

  const reference = form.createTextField('reference');
  page1.drawField(reference, { x: 72, y: 360, width: 100, height: 20 });
  reference.setValue('R-42');
  flag(reference, READ_ONLY | REQUIRED);

  const office = form.createTextField('office use');
  page1.drawField(office, { x: 200, y: 360, width: 100, height: 20 });
  flag(office, READ_ONLY | REQUIRED);

  const hidden = form.createTextField('hidden');
  page1.drawField(hidden, { x: 400, y: 360, width: 100, height: 20 });
  for (const widget of hidden.getWidgets()) widget.dict.set('F', PdfNumber.of(2));

  const rotated = form.createTextField('rotated');
  page2.drawField(rotated, { x: 100, y: 200, width: 200, height: 20 });

  const cropped = form.createTextField('cropped');
  page3.drawField(cropped, { x: 150, y: 600, width: 100, height: 20 });
  const edge = form.createTextField('edge');
  page3.drawField(edge, { x: 0, y: 700, width: 100, height: 20 });

  addPushButton(pdf, page1.ref, page1.dict);
  return pdf.save();
}

/** A push button (`/FT /Btn`, flag 17), which Signet has no kind for. */
function addPushButton(pdf: PDF, pageRef: PdfRef, page: PdfDict): void {
  const button = pdf.register(
    PdfDict.of({
      Type: PdfName.of('Annot'),
      Subtype: PdfName.of('Widget'),
      FT: PdfName.of('Btn'),
      Ff: PdfNumber.of(1 << 16),
      T: PdfString.fromString('print'),
      Rect: rect(450, 700, 500, 720),
      P: pageRef,
    }),
  );
  annotsOf(pdf, page).push(button);
  fieldsOf(pdf).push(button);
}

function rect(x0: number, y0: number, x1: number, y1: number): PdfArray {
  return PdfArray.of(PdfNumber.of(x0), PdfNumber.of(y0), PdfNumber.of(x1), PdfNumber.of(y1));
}

function annotsOf(pdf: PDF, page: PdfDict): PdfArray {
  const existing = page.get('Annots');
  const annots = existing instanceof PdfRef ? pdf.getObject(existing) : existing;
  if (annots instanceof PdfArray) return annots;
  const created = new PdfArray([]);
  page.set('Annots', created);
  return created;
}

function fieldsOf(pdf: PDF): PdfArray {
  const form = pdf.getOrCreateForm().acroForm().getDict();
  const existing = form.get('Fields');
  const fields = existing instanceof PdfRef ? pdf.getObject(existing) : existing;
  if (fields instanceof PdfArray) return fields;
  const created = new PdfArray([]);
  form.set('Fields', created);
  return created;
}

/**
 * A one-page form of `count` text fields, each its own widget (`/Fields` and `/Annots` hold them all), written
 * through @libpdf/core's objects rather than its form API so that 100,000 are made in seconds.
 * @example const bytes = await manyFieldsPdf(100_000)
 */
export async function manyFieldsPdf(count: number): Promise<Uint8Array> {
  const pdf = PDF.create();
  const page = pdf.addPage({ width: 612, height: 792 });
  const fields: PdfRef[] = [];
  for (let i = 0; i < count; i++) {
    const x = (i % 50) * 12;
    const y = 20 + (Math.floor(i / 50) % 60) * 12;
    fields.push(
      pdf.register(
        PdfDict.of({
          Type: PdfName.of('Annot'),
          Subtype: PdfName.of('Widget'),
          FT: PdfName.of('Tx'),
          T: PdfString.fromString(`f${i}`),
          Rect: rect(x, y, x + 10, y + 10),
          P: page.ref,
        }),
      ),
    );
  }
  page.dict.set('Annots', new PdfArray(fields));
  pdf.getCatalog().set('AcroForm', pdf.register(PdfDict.of({ Fields: new PdfArray([...fields]) })));
  return pdf.save();
}

/**
 * Hostile form structures on one page: a field whose `/Kids` lead back to itself (a cycle through two levels), a
 * hierarchy `depth` levels deep ending in one text field, widgets with absurd rectangles (huge, inverted, not
 * numbers, too few numbers, zero-sized, entirely off the page), a field without widgets (`/Kids []`), and one good
 * text field, `good`, which must still be imported.
 * @example const bytes = await hostileFormPdf(2_000)
 */
export async function hostileFormPdf(depth: number): Promise<Uint8Array> {
  const pdf = PDF.create();
  const page = pdf.addPage({ width: 612, height: 792 });
  const annots: PdfRef[] = [];
  const field = (name: string, box: PdfArray | PdfObjectLike, extra: Record<string, PdfObjectLike> = {}) => {
    const ref = pdf.register(
      PdfDict.of({ Type: PdfName.of('Annot'), Subtype: PdfName.of('Widget'), FT: PdfName.of('Tx'), T: PdfString.fromString(name), Rect: box, P: page.ref, ...extra }),
    );
    annots.push(ref);
    return ref;
  };

  const top: PdfRef[] = [];
  top.push(field('good', rect(72, 700, 272, 720)));
  top.push(field('huge', rect(-1e9, -1e9, 1e9, 1e9)));
  top.push(field('inverted', rect(300, 720, 200, 700)));
  top.push(field('not_numbers', PdfArray.of(PdfName.of('a'), PdfName.of('b'), PdfName.of('c'), PdfName.of('d'))));
  top.push(field('three_numbers', PdfArray.of(PdfNumber.of(1), PdfNumber.of(2), PdfNumber.of(3))));
  top.push(field('zero_sized', rect(100, 100, 100, 100)));
  top.push(field('off_page', rect(5000, 5000, 5100, 5100)));
  top.push(field('no_rect', PdfName.of('None')));
  top.push(pdf.register(PdfDict.of({ FT: PdfName.of('Tx'), T: PdfString.fromString('no_widgets'), Kids: new PdfArray([]) })));

  // A cycle: a → b → a, neither terminal.
  const cycleA = pdf.register(PdfDict.of({ T: PdfString.fromString('cycle_a') }));
  const cycleB = pdf.register(PdfDict.of({ T: PdfString.fromString('cycle_b'), Kids: PdfArray.of(cycleA), Parent: cycleA }));
  (pdf.getObject(cycleA) as PdfDict).set('Kids', PdfArray.of(cycleB));
  (pdf.getObject(cycleA) as PdfDict).set('Parent', cycleB);
  top.push(cycleA);

  // A hierarchy `depth` levels deep.
  let child = field('leaf', rect(72, 600, 172, 620));
  for (let level = 0; level < depth; level++) {
    const parent = pdf.register(PdfDict.of({ T: PdfString.fromString(`l${level}`), Kids: PdfArray.of(child) }));
    (pdf.getObject(child) as PdfDict).set('Parent', parent);
    child = parent;
  }
  top.push(child);

  page.dict.set('Annots', new PdfArray(annots));
  pdf.getCatalog().set('AcroForm', pdf.register(PdfDict.of({ Fields: new PdfArray(top) })));
  return pdf.save();
}

type PdfObjectLike = Parameters<typeof PdfDict.of>[0][string];

/**
 * A PDF's form as qpdf reads it: whether it has an `/AcroForm`, how many fields qpdf finds, and how many widget
 * annotations are left anywhere in the file.
 * @example formInFile(bytes) // { hasAcroForm: false, fields: 0, widgets: 0 } once imported
 */
export function formInFile(bytes: Uint8Array): { hasAcroForm: boolean; fields: number; widgets: number } {
  const dir = mkdtempSync(join(tmpdir(), 'signet-form-'));
  try {
    const file = join(dir, 'form.pdf');
    writeFileSync(file, bytes);
    const args = ['--json=2', '--json-key=acroform', '--json-key=qpdf', file];
    const json = JSON.parse(execFileSync('qpdf', args, { encoding: 'utf8', maxBuffer: 1 << 28 })) as {
      acroform: { hasacroform: boolean; fields: unknown[] };
      qpdf: unknown;
    };
    return { hasAcroForm: json.acroform.hasacroform, fields: json.acroform.fields.length, widgets: JSON.stringify(json.qpdf).split('"/Widget"').length - 1 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
