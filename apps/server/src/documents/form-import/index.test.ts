import { PDF } from '@libpdf/core';
import { FieldDefinitionListSchema, fieldDefinitionIssues, type FieldDefinition } from '@signet/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { everyKindFormPdf, formInFile, hostileFormPdf, manyFieldsPdf } from '../../../test/pdf/test-form-pdfs.js';
import { generateSamplePdf } from '../../pdf/sample.js';
import { createPdfPool } from '../../pdf-worker/index.js';
import { MAX_IMPORTED_FIELDS } from './extract.js';
import { MAX_FORM_DEPTH } from './form-tree.js';
import { importFormFields } from './index.js';

const pool = createPdfPool({ workers: 1 });
afterAll(() => pool.close());

/** A fraction of a page as displayed, as the import keeps it: to six decimals. */
const f = (value: number) => expect.closeTo(value, 5) as unknown as number;

async function byId(bytes: Uint8Array): Promise<Map<string, FieldDefinition>> {
  const { fields } = await importFormFields(pool, bytes);
  return new Map(fields.map((field) => [field.id, field]));
}

describe('importFormFields: what each kind of form field becomes', () => {
  it('text, multiline text, checkbox, radio group, combo and list box, signature; read-only and required flags', async () => {
    const input = await everyKindFormPdf();
    const { bytes, fields } = await importFormFields(pool, input);
    const fieldsById = new Map(fields.map((field) => [field.id, field]));

    expect(fields.map((field) => field.id)).toEqual([
      'applicant_name',
      'notes',
      'agree',
      'plan',
      'country',
      'colors',
      'signature',
      'reference',
      'office_use',
      'rotated',
      'cropped',
      'edge',
    ]);
    // Page 1 is US Letter, neither cropped nor turned: x from the left, y from the top.
    expect(fieldsById.get('applicant_name')).toEqual({
      id: 'applicant_name',
      type: 'text',
      page: 1,
      x: f(72 / 612),
      y: f((792 - 720) / 792),
      width: f(200 / 612),
      height: f(20 / 792),
      required: true,
      editable: true,
      label: 'Full name',
      value: { type: 'text', content: 'Ada Lovelace' },
    });
    expect(fieldsById.get('notes')).toMatchObject({ type: 'textarea', label: 'notes', value: { type: 'textarea', content: 'line one\nline two' }, validation: { maxLength: 500 } });
    expect(fieldsById.get('agree')).toMatchObject({ type: 'checkbox', required: true, label: 'I agree', value: { type: 'checkbox', checked: true } });
    // One radio field for the group: the union of its two widgets, options top to bottom.
    expect(fieldsById.get('plan')).toMatchObject({
      type: 'radio',
      x: f(300 / 612),
      y: f((792 - 716) / 792),
      width: f(16 / 612),
      height: f(46 / 792),
      options: [
        { value: 'basic', label: 'basic' },
        { value: 'premium', label: 'premium' },
      ],
      value: { type: 'radio', value: 'premium' },
    });
    expect(fieldsById.get('country')).toMatchObject({ type: 'select', options: [{ value: 'USA' }, { value: 'Canada' }], value: { type: 'select', value: 'Canada' } });
    expect(fieldsById.get('colors')).toMatchObject({ type: 'select', options: [{ value: 'Red' }, { value: 'Green' }, { value: 'Blue' }], value: { type: 'select', value: 'Green' } });
    expect(fieldsById.get('signature')).toMatchObject({ type: 'signature', required: true, editable: true, x: f(72 / 612), width: f(200 / 612) });
    expect(fieldsById.get('signature')?.value).toBeUndefined();
    expect(fieldsById.get('reference')).toMatchObject({ type: 'text', editable: false, required: true, value: { type: 'text', content: 'R-42' } });
    // Read-only and empty: the signer could never fill it in, so it is not required.
    expect(fieldsById.get('office_use')).toMatchObject({ editable: false, required: false });
    // The push button and the hidden field are not imported.
    expect(fieldsById.has('print')).toBe(false);
    expect(fieldsById.has('hidden')).toBe(false);

    expect(FieldDefinitionListSchema.safeParse(fields).success).toBe(true);
    expect(fieldDefinitionIssues(fields, 3)).toEqual([]);
    expect(formInFile(input)).toMatchObject({ hasAcroForm: true });
    expect(formInFile(bytes)).toEqual({ hasAcroForm: false, fields: 0, widgets: 0 });
    expect((await PDF.load(bytes)).getPageCount()).toBe(3);
  });

  it('positions on a page turned by /Rotate 90 and on one whose crop box is offset: fractions of the page as displayed', async () => {
    const fields = await byId(await everyKindFormPdf());
    // Page 2: 612 × 792 turned clockwise shows 792 × 612; user-space x runs down the displayed page, y across it.
    // The widget [100 200 300 220] shows from x 200 to 220 and from y 612 - 300 to 612 - 100 from the top.
    expect(fields.get('rotated')).toMatchObject({ page: 2, x: f(200 / 792), y: f(100 / 612), width: f(20 / 792), height: f(200 / 612) });
    // Page 3: crop box [50 100 562 742], 512 × 642 shown. The widget [150 600 250 620] is 100 from the crop's left
    // and 742 - 620 from its top.
    expect(fields.get('cropped')).toMatchObject({ page: 3, x: f(100 / 512), y: f(122 / 642), width: f(100 / 512), height: f(20 / 642) });
    // Half of [0 700 100 720] is left of the crop box: what is shown of it.
    expect(fields.get('edge')).toMatchObject({ page: 3, x: 0, y: f(22 / 642), width: f(50 / 512), height: f(20 / 642) });
  });

  it('a PDF without a form: no fields, and the bytes as uploaded', async () => {
    const input = await generateSamplePdf({ pages: 1 });
    const { bytes, fields } = await importFormFields(pool, input);
    expect(fields).toEqual([]);
    expect(Buffer.compare(bytes, input)).toBe(0);
  });

  it('a file that is not a PDF: 400 naming the file', async () => {
    await expect(importFormFields(pool, new TextEncoder().encode('not a pdf'))).rejects.toMatchObject({ status: 400, details: { field: 'file' } });
  });
});

describe('importFormFields: hostile forms', () => {
  it('100,000 fields: 422 naming the limit, and the pool still serves', async () => {
    const error = await importFormFields(pool, await manyFieldsPdf(100_000)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', details: { field: 'file', reason: expect.stringMatching(/more than 10000 fields/) } });
    expect((await importFormFields(pool, await everyKindFormPdf())).fields).toHaveLength(12);
  }, 60_000);

  it(`more fields than a document may have (${MAX_IMPORTED_FIELDS}): 422 naming that limit`, async () => {
    const error = await importFormFields(pool, await manyFieldsPdf(MAX_IMPORTED_FIELDS + 1)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 422, details: { field: 'file', reason: `the PDF's form has ${MAX_IMPORTED_FIELDS + 1} fields; a document may have at most ${MAX_IMPORTED_FIELDS}` } });
    const { fields } = await importFormFields(pool, await manyFieldsPdf(MAX_IMPORTED_FIELDS));
    expect(fields).toHaveLength(MAX_IMPORTED_FIELDS);
    expect(new Set(fields.map((field) => field.id)).size).toBe(MAX_IMPORTED_FIELDS);
  }, 60_000);

  it('the limit is the contract\'s: a document may have as many fields as an import gives, and no more', () => {
    const field: FieldDefinition = { id: 'a', type: 'text', page: 1, x: 0, y: 0, width: 0.1, height: 0.1, required: false, editable: true, label: 'A' };
    expect(FieldDefinitionListSchema.safeParse(Array(MAX_IMPORTED_FIELDS).fill(field)).success).toBe(true);
    expect(FieldDefinitionListSchema.safeParse(Array(MAX_IMPORTED_FIELDS + 1).fill(field)).success).toBe(false);
  });

  it('a /Kids cycle, absurd rectangles and a field without widgets: the good fields are imported, the rest left out', async () => {
    const input = await hostileFormPdf(3);
    const { bytes, fields } = await importFormFields(pool, input);
    expect(fields.map((field) => field.id)).toEqual(['good', 'huge', 'inverted', 'l2.l1.l0.leaf']);
    // An inverted rectangle is the same box; one larger than the page is the whole page.
    expect(fields[1]).toMatchObject({ x: 0, y: 0, width: 1, height: 1 });
    expect(fields[2]).toMatchObject({ x: f(200 / 612), y: f(72 / 792), width: f(100 / 612), height: f(20 / 792) });
    expect(fieldDefinitionIssues(fields, 1)).toEqual([]);
    expect(formInFile(bytes)).toEqual({ hasAcroForm: false, fields: 0, widgets: 0 });
  });

  it(`a hierarchy deeper than ${MAX_FORM_DEPTH} levels: 422 naming the limit`, async () => {
    const error = await importFormFields(pool, await hostileFormPdf(5_000)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 422, details: { field: 'file', reason: expect.stringContaining(`more than ${MAX_FORM_DEPTH} levels deep`) } });
  }, 60_000);
});
