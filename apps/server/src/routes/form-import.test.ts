/**
 * `formFields: "import"` on an upload through the real app (docs/form-fields.md): the form's fields become the
 * document's, the stored PDF has no form left, and the sealed PDF draws each value once.
 */
import { ManagedDocumentSchema, SdkDocumentSchema, successEnvelope, type FieldValue } from '@signet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyKindFormPdf, formInFile } from '../../test/pdf/test-form-pdfs.js';
import { pdfText } from '../../test/sealing/render/test-poppler.js';
import { buildPayload, call, completeValues, createTestApp, engines, type TestApp } from '../../test/support/harness.js';

describe.each(engines)('POST /documents with formFields ($name)', (engine) => {
  let t: TestApp;
  let sk: string;
  let form: Uint8Array;
  beforeAll(async () => {
    t = await createTestApp(engine);
    sk = (await t.createKey({ kind: 'sk' })).secret;
    form = await everyKindFormPdf();
  });
  afterAll(() => t.close());

  function upload(parts: Record<string, string>) {
    const body = new FormData();
    body.set('file', new File([form as Uint8Array<ArrayBuffer>], 'form.pdf', { type: 'application/pdf' }));
    for (const [name, value] of Object.entries(parts)) body.set(name, value);
    return t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body });
  }

  /** The PDF the signer's viewer loads: `documentUrl` of `GET /sdk/documents/{id}`. */
  async function viewerFile(documentId: string, key: string): Promise<Uint8Array> {
    const sdk = await call(t, 'GET', `/sdk/documents/${documentId}`, { key });
    expect(sdk.status).toBe(200);
    const url = new URL(SdkDocumentSchema.parse(await sdk.json()).documentUrl);
    const file = await t.app.request(url.pathname + url.search);
    expect(file.status).toBe(200);
    return new Uint8Array(await file.arrayBuffer());
  }

  it('imports the form: its fields are the document\'s, the stored PDF has no form, the sealed one draws each value once', async () => {
    const res = await upload({ formFields: 'import' });
    expect(res.status).toBe(201);
    const document = successEnvelope(ManagedDocumentSchema).parse(await res.json()).data;
    expect(document.pageCount).toBe(3);
    expect(document.fields.map((field) => `${field.id}:${field.type}`)).toEqual([
      'applicant_name:text',
      'notes:textarea',
      'agree:checkbox',
      'plan:radio',
      'country:select',
      'colors:select',
      'signature:signature',
      'reference:text',
      'office_use:text',
      'rotated:text',
      'cropped:text',
      'edge:text',
    ]);
    expect(document.fields.find((field) => field.id === 'applicant_name')).toMatchObject({ label: 'Full name', required: true, value: { type: 'text', content: 'Ada Lovelace' } });

    const pk = (await t.createKey()).secret;
    const stored = await viewerFile(document.id, pk);
    expect(document.fileSize).toBe(stored.byteLength);
    expect(formInFile(stored)).toEqual({ hasAcroForm: false, fields: 0, widgets: 0 });

    const values: Record<string, FieldValue> = { ...completeValues(document.fields), applicant_name: { type: 'text', content: 'Grace Hopper' } };
    const submitted = await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document, values) });
    expect(submitted.status).toBe(201);
    expect(await t.sealDue()).toBe(1);
    const signed = await call(t, 'GET', `/documents/${document.id}/signed.pdf`, { key: sk });
    expect(signed.status).toBe(200);
    const text = await pdfText(new Uint8Array(await signed.arrayBuffer()), 1, 1);
    const count = (word: string) => text.split(word).length - 1;
    // The signer's value once; the form's own prefill, which its widget showed, not at all.
    expect(count('Grace Hopper')).toBe(1);
    expect(count('Ada Lovelace')).toBe(0);
    // A read-only prefill is drawn by the seal, once, and not by the widget that held it.
    expect(count('R-42')).toBe(1);
  }, 120_000);

  it('without formFields, or with "keep", the PDF is stored as uploaded, form and all, and no field is added', async () => {
    for (const parts of [{ fields: '[]' }, { fields: '[]', formFields: 'keep' }] as Array<Record<string, string>>) {
      const res = await upload(parts);
      expect(res.status).toBe(201);
      const document = successEnvelope(ManagedDocumentSchema).parse(await res.json()).data;
      expect(document.fields).toEqual([]);
      const stored = await viewerFile(document.id, (await t.createKey()).secret);
      expect(Buffer.compare(stored, form)).toBe(0);
      expect(formInFile(stored).hasAcroForm).toBe(true);
    }
  });
});
