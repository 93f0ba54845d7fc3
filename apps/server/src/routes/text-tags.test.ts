import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagedDocumentSchema, successEnvelope } from '@signet/contract';
import { call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { line, taggedPdf, wordByWord } from '../../test/pdf/tagged-pdfs.js';
import { pageWords, pdfText } from '../../test/sealing/render/test-poppler.js';

/**
 * `tags: true` on `POST /documents` through the real app (docs/text-tags.md): the tags become the document's fields,
 * the stored file no longer shows them, and a malformed tag is a 422 naming its page and text. On both engines.
 */
describe.each(engines)('text tags on upload, on $name', (engine) => {
  let t: TestApp;
  let sk: string;
  let tagged: Uint8Array;
  beforeAll(async () => {
    t = await createTestApp(engine);
    sk = (await t.createKey({ kind: 'sk' })).secret;
    tagged = await taggedPdf([
      { content: line(72, 700, 'Tenant: {{signature;signer=tenant;required}} Date: {{date;signer=tenant}}') },
      {
        content:
          wordByWord(72, 650, 'Rent: {{number;id=rent;signer=tenant;label=Monthly rent;required}} per month,') +
          wordByWord(72, 620, 'plan {{select;signer=landlord;options=m:Monthly|y:Yearly}} here'),
      },
    ]);
  });
  afterAll(() => t.close());

  function form(pdf: Uint8Array, parts: Record<string, string>): FormData {
    const body = new FormData();
    body.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'lease.pdf', { type: 'application/pdf' }));
    for (const [name, value] of Object.entries(parts)) body.set(name, value);
    return body;
  }

  async function upload(body: FormData, query = '') {
    return t.app.request(`/documents${query}`, { method: 'POST', headers: { 'X-API-Key': sk }, body });
  }

  /** The document's stored file, through its `documentUrl` as a signer's viewer loads it. */
  async function storedFile(documentId: string, signerId: string): Promise<Uint8Array> {
    const session = await call(t, 'POST', `/documents/${documentId}/sessions`, { key: sk, body: { signerId } });
    expect(session.status).toBe(201);
    const { key } = ((await session.json()) as { data: { key: string } }).data;
    const sdk = await call(t, 'GET', `/sdk/documents/${documentId}`, { key });
    const { documentUrl } = (await sdk.json()) as { documentUrl: string };
    const url = new URL(documentUrl);
    const file = await t.app.request(url.pathname + url.search);
    expect(file.status).toBe(200);
    return new Uint8Array(await file.arrayBuffer());
  }

  it('makes the tags the document\'s fields, after those of the fields part, and stores the PDF without them', async () => {
    const given = [{ id: 'note', type: 'text', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.03, required: false, editable: true, label: 'Note', signerId: 'landlord' }];
    const signers = [{ id: 'tenant', name: 'Tess Tenant' }, { id: 'landlord', name: 'Lars Landlord' }];
    const res = await upload(form(tagged, { tags: 'true', fields: JSON.stringify(given), signers: JSON.stringify(signers) }));
    expect(res.status, await res.clone().text()).toBe(201);
    const document = successEnvelope(ManagedDocumentSchema).parse(await res.json()).data;
    expect(document.pageCount).toBe(2);
    expect(document.fields.map(({ id, type, page, signerId, required }) => ({ id, type, page, signerId, required }))).toEqual([
      { id: 'note', type: 'text', page: 1, signerId: 'landlord', required: false },
      { id: 'signature_1', type: 'signature', page: 1, signerId: 'tenant', required: true },
      { id: 'date_1', type: 'date', page: 1, signerId: 'tenant', required: false },
      { id: 'rent', type: 'number', page: 2, signerId: 'tenant', required: true },
      { id: 'select_1', type: 'select', page: 2, signerId: 'landlord', required: false },
    ]);
    expect(document.fields.find((field) => field.id === 'select_1')?.options).toEqual([
      { value: 'm', label: 'Monthly' },
      { value: 'y', label: 'Yearly' },
    ]);

    const stored = await storedFile(document.id, 'tenant');
    expect(document.fileSize).toBe(stored.byteLength);
    const text = await pdfText(stored);
    expect(text).not.toContain('{{');
    expect(text).not.toContain('}}');
    const words = (await pageWords(stored)).map((page) => page.map((word) => word.text).sort());
    expect(words).toEqual([['Date:', 'Tenant:'], ['Rent:', 'here', 'month,', 'per', 'plan']]);
  });

  it('leaves the tags as text without tags: true', async () => {
    const res = await upload(form(tagged, { tags: 'false', fields: '[]' }), '?draft=true');
    expect(res.status).toBe(201);
    const document = successEnvelope(ManagedDocumentSchema).parse(await res.json()).data;
    expect(document.fields).toEqual([]);
    expect(document.fileSize).toBe(tagged.byteLength);
  });

  it('refuses a malformed tag with a 422 naming its page and its text', async () => {
    const pdf = await taggedPdf([{ content: line(72, 700, 'Fine: {{text}}') }, { content: line(72, 700, 'Sign here: {{sigature;signer=tenant}}') }]);
    const res = await upload(form(pdf, { tags: 'true' }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; details: { field: string; reason: string } } };
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details.field).toBe('file');
    expect(body.error.details.reason).toMatch(/^page 2: \{\{sigature;signer=tenant\}\} is not a tag: unknown type "sigature"/);
  });
});
