import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, type FieldDefinition, type FieldValue } from '@signet/contract';
import { generateSampleFormPdf, sampleFormFields } from '../pdf/sample-form.js';
import { SAMPLE_JPEG_DATA_URL } from '../pdf/sample-values.js';
import { pdfText, renderPages } from '../../test/sealing/render/test-poppler.js';
import { storageEngines } from '../../test/storage/test-engines.js';
import { pngDataUrl } from '../../test/submissions/test-png.js';
import { buildPayload, call, completeValues, createTestApp, type TestApp } from '../../test/support/harness.js';
import { findDocument } from '../storage/queries/documents.js';

/*
 * The field types forms need: a document defines number, email, phone, textarea, select, radio
 * and image fields with their validation; the server takes values that keep the rules, refuses those that break
 * one with a 422 naming the field and why, refuses definitions whose rules make no sense or could stall it, and
 * seals what was entered into the PDF. On both engines.
 */

const engines = await storageEngines();

describe.each(engines)('the form field types on $name', (engine) => {
  let t: TestApp;
  let pk: string;
  let sk: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    pk = (await t.createKey()).secret;
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterAll(() => t.close());

  const upload = async (fields: unknown) => {
    const body = new FormData();
    body.set('file', new File([(await generateSampleFormPdf()) as Uint8Array<ArrayBuffer>], 'form.pdf', { type: 'application/pdf' }));
    body.set('fields', JSON.stringify(fields));
    return t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body });
  };
  /** The sample application form, uploaded as a host's backend would: its own PDF, its fields. */
  const form = async () => {
    const created = (await (await upload(sampleFormFields())).json()) as { data: { id: string } };
    return (await findDocument(t.storage.db.query, created.data.id))!;
  };
  const submit = (body: unknown) => call(t, 'POST', '/sdk/documents/submit', { key: pk, body });
  // The sample's name cannot be a member number: that optional field keeps its pattern with a value of its own.
  const formValues = (fields: readonly FieldDefinition[]): Record<string, FieldValue> => ({
    ...completeValues(fields),
    member_number: { type: 'text', content: 'AB-1234' },
  });
  const withValue = (fields: readonly FieldDefinition[], id: string, value: FieldValue) => ({ ...formValues(fields), [id]: value });

  // It seals in a PDF worker: a minute, as the seal suites give, for a loaded CI machine.
  it('takes values that keep every rule, gives them back as entered, and seals them into the PDF', { timeout: 60_000 }, async () => {
    const document = await form();
    const sdk = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key: pk })).json()) as any;
    expect(sdk.fields.find((field: FieldDefinition) => field.id === 'billing')).toMatchObject({
      type: 'radio',
      options: [
        { value: 'monthly', label: 'Monthly' },
        { value: 'yearly', label: 'Yearly' },
      ],
    });
    expect(sdk.fields.find((field: FieldDefinition) => field.id === 'guests').validation).toEqual({ min: 0, max: 10, step: 1 });

    const values = {
      ...formValues(document.fields),
      guests: { type: 'number', content: '3' },
      plan: { type: 'select', value: 'premium' },
      billing: { type: 'radio', value: 'yearly' },
      member_number: { type: 'text', content: 'AB-1234' },
      notes: { type: 'textarea', content: 'Vegetarian meals\nArriving late' },
    } satisfies Record<string, FieldValue>;
    const submitted = await submit(await buildPayload(document, values));
    expect(submitted.status).toBe(201);
    const record = ((await (await call(t, 'GET', `/documents/${document.id}/submission`, { key: sk })).json()) as any).data;
    const stored = Object.fromEntries(record.fields.map((field: { id: string; value: FieldValue }) => [field.id, field.value]));
    expect(stored).toMatchObject({ ...values, id_photo: { type: 'image', imageData: SAMPLE_JPEG_DATA_URL } });

    expect(await t.sealDue()).toBe(1);
    const sealed = new Uint8Array(await (await call(t, 'GET', `/documents/${document.id}/signed.pdf`, { key: sk })).arrayBuffer());
    const text = await pdfText(sealed, 1, 1);
    for (const expected of ['ada@example.com', '+44 20 7946 0958', 'AB-1234', 'Premium', 'Monthly', 'Yearly', 'Vegetarian meals', 'Arriving late']) {
      expect(text).toContain(expected);
    }
    // The option's label is drawn, not its value; the textarea's lines stay lines.
    expect(text).not.toContain('premium');
    expect(text).toMatch(/Vegetarian meals\s*\n\s*Arriving late/);
    // The photo is drawn in its box: its blue shows where the form's box was empty before.
    const [page] = await renderPages(sealed, 1, 36);
    const box = sampleFormFields().find((field) => field.id === 'id_photo')!;
    const at = (fx: number, fy: number) => {
      const x = Math.round((box.x + box.width * fx) * page!.width);
      const y = Math.round((box.y + box.height * fy) * page!.height);
      return page!.rgb.subarray((y * page!.width + x) * 3, (y * page!.width + x) * 3 + 3);
    };
    const [r, g, b] = at(0.5, 0.5);
    expect(b! - r!).toBeGreaterThan(40);
    expect(g).toBeLessThan(160);
  });

  it.each([
    ['an email address without a domain', 'email', { type: 'email', content: 'ada@example' }, 'content', /email address/],
    ['a phone number of words', 'phone', { type: 'phone', content: 'call me' }, 'content', /phone number/],
    ['a number that is not one', 'guests', { type: 'number', content: '3 people' }, 'content', /number/],
    ['a number above max', 'guests', { type: 'number', content: '11' }, 'content', /at most 10/],
    ['a number below min', 'guests', { type: 'number', content: '-1' }, 'content', /at least 0/],
    ['a number off its step', 'guests', { type: 'number', content: '2.5' }, 'content', /multiple of 1/],
    ['a select value that is not an option', 'plan', { type: 'select', value: 'gold' }, 'value', /options/],
    ['a radio value that is not an option', 'billing', { type: 'radio', value: 'weekly' }, 'value', /options/],
    ['text that breaks the pattern, with the field\'s own message', 'member_number', { type: 'text', content: 'ab-12' }, 'content', /Two capital letters/],
    ['text shorter than minLength', 'full_name', { type: 'text', content: 'A' }, 'content', /at least 2 characters/],
    ['a textarea longer than maxLength', 'notes', { type: 'textarea', content: 'x'.repeat(501) }, 'content', /at most 500 characters/],
    ['a JPEG cut short', 'id_photo', { type: 'image', imageData: SAMPLE_JPEG_DATA_URL.slice(0, -8) }, 'imageData', /JPEG is truncated|base64/],
    ['bytes that are not a JPEG', 'id_photo', { type: 'image', imageData: `data:image/jpeg;base64,${Buffer.from('GIF89a not a jpeg at all').toString('base64')}` }, 'imageData', /not a JPEG/],
    ['a PNG over 4096 px', 'id_photo', { type: 'image', imageData: pngDataUrl(4097, 1) }, 'imageData', /4096/],
  ] as const)('422 VALIDATION_ERROR for %s, naming the field and why', async (_case, id, value, member, reason) => {
    const document = await form();
    const payload = await buildPayload(document, withValue(document.fields, id, value as FieldValue));
    const response = await submit(payload);
    expect(response.status).toBe(422);
    const { error } = ErrorEnvelopeSchema.parse(await response.json());
    expect(error.code).toBe('VALIDATION_ERROR');
    const index = payload.fields.findIndex((field: { id: string }) => field.id === id);
    expect(error.details).toEqual({ field: `fields[${index}].value.${member}`, reason: expect.stringMatching(reason) });
    expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('pending');
  });

  it('400 VALIDATION_ERROR for an image field holding a GIF, and for a number sent as a JSON number', async () => {
    const document = await form();
    for (const [id, value] of [
      ['id_photo', { type: 'image', imageData: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }],
      ['guests', { type: 'number', content: 3 }],
    ] as const) {
      const response = await submit(await buildPayload(document, withValue(document.fields, id, value as never)));
      expect(response.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(await response.json()).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: expect.stringMatching(/^fields\[\d+\]\.value/) } });
    }
  });

  it('lists a required choice left blank among the missing fields', async () => {
    const document = await form();
    const values = { ...formValues(document.fields), plan: { type: 'select', value: '' }, guests: { type: 'number', content: ' ' } } as const;
    const response = await submit(await buildPayload(document, values));
    expect(response.status).toBe(422);
    expect(ErrorEnvelopeSchema.parse(await response.json()).error.details).toEqual({ missingFields: ['guests', 'plan'] });
  });

  const base = sampleFormFields();
  const replace = (id: string, change: Partial<FieldDefinition>) => base.map((field) => (field.id === id ? { ...field, ...change } : field));
  const indexOf = (id: string) => base.findIndex((field) => field.id === id);

  it('creates the form: 201, its options, validation and font sizes kept as defined', async () => {
    const sized = base.map((field) => (field.id === 'notes' ? { ...field, fontSize: 9 } : field.id === 'plan' ? { ...field, fontSize: 14.5 } : field));
    const response = await upload(sized);
    expect(response.status).toBe(201);
    expect(((await response.json()) as any).data.fields).toEqual(sized);
  });

  it.each([
    ['a pattern with nested repetition, which could stall the server', replace('member_number', { validation: { pattern: '(a+)+b' } }), `fields[${indexOf('member_number')}].validation.pattern`, /exponential/],
    ['a pattern that does not compile', replace('member_number', { validation: { pattern: '[A-Z' } }), `fields[${indexOf('member_number')}].validation.pattern`, /regular expression/],
    ['a select field without options', replace('plan', { options: undefined }), `fields[${indexOf('plan')}].options`, /needs options/],
    ['options on a text field', replace('full_name', { options: [{ value: 'a', label: 'A' }] }), `fields[${indexOf('full_name')}].options`, /no options/],
    ['min above max', replace('guests', { validation: { min: 5, max: 1 } }), `fields[${indexOf('guests')}].validation.max`, /less than min/],
    ['a length rule on a number field', replace('guests', { validation: { maxLength: 3 } }), `fields[${indexOf('guests')}].validation.maxLength`, /no maxLength/],
    ['a font size on a signature field', replace('signature', { fontSize: 12 }), `fields[${indexOf('signature')}].fontSize`, /no fontSize/],
    ['a font size on a checkbox', replace('confirm', { fontSize: 12 }), `fields[${indexOf('confirm')}].fontSize`, /no fontSize/],
    ['a prefill that is not an option', replace('billing', { value: { type: 'radio', value: 'weekly' } }), `fields[${indexOf('billing')}].value.value`, /options/],
  ])('400 VALIDATION_ERROR for %s, naming it', async (_case, fields, field, reason) => {
    const response = await upload(fields);
    expect(response.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(await response.json()).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field, reason: expect.stringMatching(reason) } });
  });

  it('400 VALIDATION_ERROR for shapes zod refuses: a step of 0, 51 options, an empty option value, font sizes out of 4–72 pt', async () => {
    for (const [fields, field] of [
      [replace('guests', { validation: { step: 0 } }), `fields[${indexOf('guests')}].validation.step`],
      [replace('plan', { options: Array.from({ length: 51 }, (_, i) => ({ value: `v${i}`, label: `V${i}` })) }), `fields[${indexOf('plan')}].options`],
      [replace('plan', { options: [{ value: '', label: 'Empty' }] }), `fields[${indexOf('plan')}].options[0].value`],
      [replace('full_name', { fontSize: 3 }), `fields[${indexOf('full_name')}].fontSize`],
      [replace('full_name', { fontSize: 1e6 }), `fields[${indexOf('full_name')}].fontSize`],
      [replace('full_name', { fontSize: '12' as never }), `fields[${indexOf('full_name')}].fontSize`],
    ] as const) {
      const response = await upload(fields);
      expect(response.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(await response.json()).error.details).toMatchObject({ field });
    }
  });
});
