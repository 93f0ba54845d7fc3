import { submissionChecksum, type FieldValue, type SdkDocument } from '@signet/contract';
import { ensureOrganization, findSubmissionForDocument, completeValues, generateSamplePdf, sampleFormFields, startLiveServer, type LiveServer } from '@signet/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SigningApiError, SubmissionBuildError, buildSubmission, createSigningClient, missingRequiredFields } from './index.js';

let server: LiveServer;
beforeAll(async () => {
  server = await startLiveServer();
});
afterAll(() => server.close());

const renderContext = { scale: 1.25, viewportWidth: 1024, viewportHeight: 768, devicePixelRatio: 2 };
const pagesOf = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ pageNumber: index + 1, width: 612, height: 792, rotation: 0 }));

async function freshDocument() {
  const { id } = await server.createDocument({ pages: 2 });
  const client = createSigningClient({ apiKey: await server.createKey(), baseUrl: server.url, retry: false });
  return { client, document: await client.getDocument(id) };
}

function build(document: SdkDocument, values: Record<string, FieldValue | undefined>) {
  return buildSubmission({ document, values, renderContext, pages: pagesOf(document.metadata.pageCount) });
}

async function buildError(promise: Promise<unknown>): Promise<SubmissionBuildError> {
  const error = await promise.then(() => expect.unreachable('expected a refusal'), (reason: unknown) => reason);
  expect(error).toBeInstanceOf(SubmissionBuildError);
  return error as SubmissionBuildError;
}

describe('buildSubmission', () => {
  it('builds the submission payload whose checksum the server accepts', async () => {
    const { client, document } = await freshDocument();
    const submittedAt = new Date(Date.now() - 1000);
    const payload = await buildSubmission({
      document,
      values: completeValues(document.fields),
      renderContext,
      pages: pagesOf(2),
      submittedAt,
      textStyles: { signer_name: { fontSize: 13.5, fontFamily: 'Inter', textAlign: 'left' } },
    });
    expect(payload.checksum).toBe(await submissionChecksum(payload));
    expect(payload).toMatchObject({ documentId: document.metadata.id, submittedAt: submittedAt.toISOString(), renderContext });
    const name = payload.fields.find((field) => field.id === 'signer_name')!;
    const definition = document.fields.find((field) => field.id === 'signer_name')!;
    expect(name).toEqual({
      id: 'signer_name',
      type: 'text',
      page: definition.page,
      position: { x: definition.x, y: definition.y, width: definition.width, height: definition.height },
      value: { type: 'text', content: 'Ada Lovelace' },
      style: { fontSize: 13.5, fontFamily: 'Inter', textAlign: 'left' },
    });
    // The read-only prefilled field travels with its prefill.
    expect(payload.fields.find((field) => field.id === 'agreement_number')?.value).toEqual(
      document.fields.find((field) => field.id === 'agreement_number')?.value,
    );
    expect(payload.fields.find((field) => field.type === 'signature')).not.toHaveProperty('style');

    const result = await client.submitDocument(payload);
    expect(result.documentId).toBe(document.metadata.id);
    const stored = await findSubmissionForDocument(server.test.storage.db.query, document.metadata.id);
    expect(stored?.checksum).toBe(payload.checksum);
  });

  it('refuses a value for a field the document does not have', async () => {
    const { document } = await freshDocument();
    const error = await buildError(build(document, { nope: { type: 'text', content: 'x' } }));
    expect(error.field).toBe('nope');
  });

  it('refuses a value of another type than its field, and a malformed one', async () => {
    const { document } = await freshDocument();
    expect((await buildError(build(document, { signer_name: { type: 'checkbox', checked: true } }))).reason).toMatch(/text field/);
    const badImage = { type: 'signature', imageData: 'data:image/jpeg;base64,AAAA' } as FieldValue;
    expect((await buildError(build(document, { signature: badImage }))).field).toBe('signature');
    expect((await buildError(build(document, { signed_date: { type: 'date', content: '2026-02-30' } }))).reason).toMatch(/real date/);
  });

  it('refuses a changed read-only field, accepts its own prefill', async () => {
    const { document } = await freshDocument();
    await buildError(build(document, { agreement_number: { type: 'text', content: 'forged' } }));
    const prefill = document.fields.find((field) => field.id === 'agreement_number')!.value!;
    await expect(build(document, { agreement_number: { ...prefill } })).resolves.toHaveProperty('checksum');
  });

  it('refuses what the server would refuse with a rule, with its reason: the contract’s submissionIssues', async () => {
    const { document } = await freshDocument();
    const values = completeValues(document.fields);
    const unchecked = await buildError(build(document, { ...values, accept_terms: { type: 'checkbox', checked: false } }));
    expect(unchecked).toMatchObject({ field: 'accept_terms', reason: 'a required checkbox must be checked' });
    const later = new Date(Date.now() + 10 * 60_000);
    const future = await buildError(buildSubmission({ document, values, renderContext, pages: pagesOf(2), submittedAt: later }));
    expect(future).toMatchObject({ field: 'submittedAt', reason: 'must not be more than 5 minutes in the future' });
    const notATime = await buildError(buildSubmission({ document, values, renderContext, pages: pagesOf(2), submittedAt: 'today' }));
    expect(notATime.field).toBe('submittedAt');
  });

  it('counts text in code points, as the server does: 10,000 emoji pass both, one more is refused here', async () => {
    const { client, document } = await freshDocument();
    const values = completeValues(document.fields);
    const emoji = '😀'.repeat(10_000);
    const tooLong = await buildError(build(document, { ...values, signer_name: { type: 'text', content: `${emoji}😀` } }));
    expect(tooLong).toMatchObject({ field: 'signer_name', reason: 'must be at most 10000 characters' });
    const payload = await build(document, { ...values, signer_name: { type: 'text', content: emoji } });
    await expect(client.submitDocument(payload)).resolves.toMatchObject({ documentId: document.metadata.id });
  });

  it('refuses pages past the document and a broken render context', async () => {
    const { document } = await freshDocument();
    const values = completeValues(document.fields);
    await buildError(buildSubmission({ document, values, renderContext, pages: pagesOf(3) }));
    await buildError(buildSubmission({ document, values, renderContext: { ...renderContext, scale: 0 }, pages: pagesOf(2) }));
  });
});

describe('the field types forms need', () => {
  async function freshForm() {
    const { id } = await server.createDocument({ pages: 1, fields: sampleFormFields() });
    const client = createSigningClient({ apiKey: await server.createKey(), baseUrl: server.url, retry: false });
    return { client, document: await client.getDocument(id) };
  }
  const formValues = (document: SdkDocument): Record<string, FieldValue> => ({
    ...completeValues(document.fields),
    member_number: { type: 'text', content: 'AB-1234' },
    notes: { type: 'textarea', content: 'One\nTwo' },
  });

  it('builds a form the server accepts: each typed value carries its style, a choice and a photo do not', async () => {
    const { client, document } = await freshForm();
    const payload = await build(document, formValues(document));
    const styled = payload.fields.filter((field) => field.style).map((field) => field.id);
    expect(styled).toEqual(['full_name', 'email', 'phone', 'member_number', 'guests', 'notes']);
    await expect(client.submitDocument(payload)).resolves.toMatchObject({ documentId: document.metadata.id });
  });

  it.each([
    ['email', { type: 'email', content: 'ada@' }, /email address/],
    ['guests', { type: 'number', content: '10.5' }, /at most 10/],
    ['plan', { type: 'select', value: 'gold' }, /options/],
    ['member_number', { type: 'text', content: 'AB1234' }, /Two capital letters/],
    // A GIF is not a value of the contract's shape at all (the server's 400): the builder's shape check names it.
    ['id_photo', { type: 'image', imageData: 'data:image/gif;base64,R0lGODlh' }, /oneOf/],
  ] as const)('refuses a %s value that breaks its rule, before any request, with the reason the server gives', async (id, value, reason) => {
    const { document } = await freshForm();
    const error = await buildError(build(document, { ...formValues(document), [id]: value as FieldValue }));
    expect(error).toMatchObject({ field: id, reason: expect.stringMatching(reason) });
  });

  it('counts a blank choice and a blank number as missing', async () => {
    const { document } = await freshForm();
    const values = { ...formValues(document), plan: { type: 'select', value: '' }, guests: { type: 'number', content: '' } } as const;
    expect(missingRequiredFields(document, values)).toEqual(['guests', 'plan']);
  });
});

describe('missingRequiredFields', () => {
  it("gives the server's 422 answer", async () => {
    const { client, document } = await freshDocument();
    const values: Record<string, FieldValue> = { ...completeValues(document.fields), signer_name: { type: 'text', content: '   ' } };
    delete values['accept_terms'];
    const missing = missingRequiredFields(document, values);
    expect(missing).toEqual(['signer_name', 'accept_terms']);

    const error = await client.submitDocument(await build(document, values)).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SigningApiError);
    expect((error as SigningApiError).missingFields).toEqual(missing);
    expect(missingRequiredFields(document, completeValues(document.fields))).toEqual([]);
  });

  it('an unchecked required checkbox is missing', async () => {
    const { document } = await freshDocument();
    const values = { ...completeValues(document.fields), accept_terms: { type: 'checkbox' as const, checked: false } };
    expect(missingRequiredFields(document, values)).toEqual(['accept_terms']);
  });
});

describe("with a session key's signerId (several signers)", () => {
  /** The landlord's view of a parallel lease: the tenant's fields (with their prefilled agreement number) are not theirs. */
  async function landlordView() {
    const lease = await server.createLease({ signingOrder: 'parallel' });
    const client = createSigningClient({ apiKey: await server.createSession(lease.id, 'landlord'), baseUrl: server.url, retry: false });
    return { client, document: await client.getDocument(lease.id) };
  }
  it("submits only the signer's own fields: another signer's prefill stays out, and the server accepts it", async () => {
    const { client, document } = await landlordView();
    expect(document.signerId).toBe('landlord');
    const values = completeValues(document.fields.filter((field) => field.signerId === 'landlord'));
    const payload = await build(document, values);
    expect(payload.fields.map((field) => field.id)).toEqual(['landlord_signature', 'landlord_date']);
    await expect(client.submitDocument(payload)).resolves.toMatchObject({ documentId: document.metadata.id });
  });

  it("refuses a value for another signer's field, even its own prefill", async () => {
    const { document } = await landlordView();
    const prefill = document.fields.find((field) => field.id === 'agreement_number')!.value!;
    const error = await buildError(build(document, { agreement_number: prefill }));
    expect(error).toMatchObject({ field: 'agreement_number', reason: 'field "agreement_number" is another signer\'s to fill in' });
  });

  it("counts only the signer's own required fields as missing; without signerId, every field as before", async () => {
    const { document } = await landlordView();
    expect(missingRequiredFields(document, {})).toEqual(['landlord_signature', 'landlord_date']);
    expect(missingRequiredFields(document, { landlord_date: { type: 'date', content: '2026-11-24' } })).toEqual(['landlord_signature']);
    const { signerId: _signerId, ...withoutSigner } = document;
    expect(missingRequiredFields(withoutSigner, {})).toEqual(
      document.fields.filter((field) => field.required).map((field) => field.id),
    );
    const all = await build(withoutSigner, completeValues(document.fields));
    expect(all.fields.map((field) => field.id)).toEqual(expect.arrayContaining(['agreement_number', 'signer_name', 'landlord_signature']));
  });
});

describe('pagination', () => {
  it('the iterator over 95 documents with limit 20 yields each once', async () => {
    const org = await ensureOrganization(server.test.storage.db.query, 'org-pages', 'Paged Org');
    const created = new Set<string>();
    // Without previews: the listing does not need them, and drawing 95 took past a minute on a loaded CI machine.
    const pdf = await generateSamplePdf({ pages: 1 });
    for (let i = 0; i < 95; i++) created.add((await server.test.createDocumentWithoutPreview(pdf, { organizationId: org.id })).id);
    const { secret } = await server.test.createKey({ kind: 'sk' }, org.id);
    const client = createSigningClient({ apiKey: secret, baseUrl: server.url });

    const seen: string[] = [];
    for await (const document of client.allDocuments({ limit: 20 })) seen.push(document.id);
    expect(seen).toHaveLength(95);
    expect(new Set(seen)).toEqual(created);

    const sizes: number[] = [];
    for await (const page of client.documentPages({ limit: 20 })) sizes.push(page.data.length);
    expect(sizes).toEqual([20, 20, 20, 20, 15]);
  });
});
