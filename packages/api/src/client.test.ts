import { endpoints, type EndpointName, type FieldDefinition } from '@signet/contract';
import {
  LEASE_SIGNERS,
  completeValues,
  ensureOrganization,
  generateSamplePdf,
  sampleFields,
  sampleLeaseFields,
  startLiveServer,
  type LiveServer,
} from '@signet/server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ContractViolationError,
  SigningApiError,
  buildSubmission,
  createSigningClient,
  missingRequiredFields,
  type SigningClient,
  type SigningClientOptions,
} from './index.js';
import { payloadFor } from './test-support/payload.js';

let server: LiveServer;
beforeAll(async () => {
  server = await startLiveServer();
});
afterAll(() => server.close());
beforeEach(() => server.intercept(undefined));

function client(apiKey: string, options: Partial<SigningClientOptions> = {}): SigningClient {
  return createSigningClient({ apiKey, baseUrl: server.url, retry: false, ...options });
}

/** The error a promise rejects with (fails the test if it resolves). */
async function failure(promise: Promise<unknown>): Promise<SigningApiError> {
  const error = await promise.then(
    () => expect.unreachable('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SigningApiError);
  return error as SigningApiError;
}

describe('success paths against the real server', () => {
  it('validateKey: the key validation result', async () => {
    const result = await client(await server.createKey()).validateKey();
    expect(result).toMatchObject({ valid: true, organizationName: 'Acme Test', scopes: ['documents:read', 'documents:submit'] });
  });

  it('validateKey of an expired or revoked key: valid false with the reason, not a throw', async () => {
    const expired = await server.createKey({ expiresAt: '2020-01-01T00:00:00.000Z' });
    const revoked = await server.createKey({ revokedAt: new Date().toISOString() });
    expect(await client(expired).validateKey()).toMatchObject({ valid: false, error: expect.stringMatching(/expired/i) });
    expect(await client(revoked).validateKey()).toMatchObject({ valid: false });
  });

  it('getDocument: metadata, document URL and fields, parsed', async () => {
    const document = await server.createDocument({ pages: 2 });
    const result = await client(await server.createKey()).getDocument(document.id);
    expect(result.metadata).toMatchObject({ id: document.id, pageCount: 2, status: 'pending' });
    expect(result.documentUrl).toContain(`/sdk/documents/${document.id}/file?token=`);
    expect(result.fields.map((field) => field.id)).toContain('signature');
  });

  it('submitDocument: 201 result, always with an Idempotency-Key, and the rate-limit headers kept', async () => {
    const keys: Array<string | null> = [];
    server.intercept((request, next) => {
      keys.push(request.headers.get('Idempotency-Key'));
      return next(request);
    });
    const document = await server.createDocument();
    const signer = client(await server.createKey({ rateLimit: 50 }));
    const result = await signer.submitDocument(await payloadFor(await signer.getDocument(document.id)));
    expect(result).toMatchObject({ success: true, documentId: document.id, submissionId: expect.stringMatching(/^sub_/) });
    expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(signer.rateLimit).toMatchObject({ limit: 50, remaining: 48 });
    expect(signer.rateLimit!.resetAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('listDocuments and getSubmission with an sk key', async () => {
    const document = await server.createDocument();
    const admin = client(await server.createKey({ kind: 'sk' }));
    const page = await admin.listDocuments({ limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.pagination).toMatchObject({ hasMore: true, limit: 2 });

    const signer = client(await server.createKey());
    const submitted = await signer.submitDocument(await payloadFor(await signer.getDocument(document.id)));
    const record = await admin.getSubmission(document.id);
    expect(record).toMatchObject({ id: submitted.submissionId, documentId: document.id });
  });
});

describe('every error code as a SigningApiError', () => {
  it('INVALID_API_KEY, EXPIRED_API_KEY (401)', async () => {
    const document = await server.createDocument();
    const invalid = await failure(client('pk_test_unknownkeyunknownkey000000').getDocument(document.id));
    expect(invalid).toMatchObject({ code: 'INVALID_API_KEY', status: 401, retryable: false, requestId: expect.any(String) });
    const expired = await failure(client(await server.createKey({ expiresAt: '2020-01-01T00:00:00Z' })).getDocument(document.id));
    expect(expired).toMatchObject({ code: 'EXPIRED_API_KEY', status: 401 });
  });

  it('INSUFFICIENT_PERMISSIONS (403): a pk key on a management endpoint, with the scopes required', async () => {
    const error = await failure(client(await server.createKey()).listDocuments());
    expect(error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', status: 403 });
    const noSubmit = await server.createKey({ scopes: ['documents:read'] });
    const document = await server.createDocument();
    const refused = await failure(client(noSubmit).submitDocument(await payloadFor(await client(noSubmit).getDocument(document.id))));
    expect(refused.details?.required).toEqual(['documents:submit']);
  });

  it('VALIDATION_ERROR (400) for a malformed id, with details.field', async () => {
    const error = await failure(client(await server.createKey()).getDocument('not-an-id'));
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: { field: 'documentId' } });
  });

  it('VALIDATION_ERROR (400) naming an unknown member: a misspelt rule on upload, a member of its own in a submission', async () => {
    const admin = client(await server.createKey({ kind: 'sk' }));
    const fields = sampleFields(2).map((field, index) => (index === 1 ? { ...field, validation: { minn: 1 } as unknown as FieldDefinition['validation'] } : field));
    const upload = await failure(admin.createDocument({ file: new Blob([(await generateSamplePdf({ pages: 2 })) as Uint8Array<ArrayBuffer>]), fields }));
    expect(upload).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: { field: 'fields[1].validation.minn' } });

    // buildSubmission sends a render context as the caller gives it: a member of the caller's own is the server's 400.
    const document = await server.createDocument();
    const signer = client(await server.createKey());
    const sdk = await signer.getDocument(document.id);
    const pages = Array.from({ length: sdk.metadata.pageCount }, (_, index) => ({ pageNumber: index + 1, width: 612, height: 792, rotation: 0 }));
    const renderContext = { scale: 1, viewportWidth: 800, viewportHeight: 600, devicePixelRatio: 1 };
    const values = completeValues(sdk.fields);
    const built = await buildSubmission({ document: sdk, values, renderContext: { ...renderContext, zoom: 2 } as typeof renderContext, pages });
    const refused = await failure(signer.submitDocument(built));
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: { field: 'renderContext.zoom' } });
    expect(refused.details?.reason).toMatch(/^received unknown member "zoom"/);
    const accepted = await signer.submitDocument(await buildSubmission({ document: sdk, values, renderContext, pages }));
    expect(accepted.documentId).toBe(document.id);
  });

  it('VALIDATION_ERROR (422) with missingFields as typed data', async () => {
    const document = await server.createDocument();
    const signer = client(await server.createKey());
    const sdk = await signer.getDocument(document.id);
    const values = completeValues(sdk.fields);
    delete values['signature'];
    delete values['signer_name'];
    const error = await failure(signer.submitDocument(await payloadFor(sdk, values)));
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
    expect(error.missingFields).toEqual(['signer_name', 'signature']);
  });

  it('DOCUMENT_NOT_FOUND (404)', async () => {
    const error = await failure(client(await server.createKey()).getDocument('doc_0000000000000000000000'));
    expect(error).toMatchObject({ code: 'DOCUMENT_NOT_FOUND', status: 404 });
  });

  it('SUBMISSION_FAILED (409): another payload for a completed document', async () => {
    const document = await server.createDocument();
    const signer = client(await server.createKey());
    const sdk = await signer.getDocument(document.id);
    await signer.submitDocument(await payloadFor(sdk));
    const values = { ...completeValues(sdk.fields), signer_name: { type: 'text' as const, content: 'Someone else' } };
    const error = await failure(signer.submitDocument(await payloadFor(sdk, values)));
    expect(error).toMatchObject({ code: 'SUBMISSION_FAILED', status: 409, retryable: false });
  });

  it('RATE_LIMIT_EXCEEDED (429), retryable, with how long to wait', async () => {
    const signer = client(await server.createKey({ rateLimit: 1 }));
    await signer.validateKey();
    const document = await server.createDocument();
    const error = await failure(signer.getDocument(document.id));
    expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429, retryable: true });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(signer.rateLimit).toMatchObject({ limit: 1, remaining: 0 });
  });

  it('NOT_FOUND (404): the submission of a pending document', async () => {
    const document = await server.createDocument();
    const error = await failure(client(await server.createKey({ kind: 'sk' })).getSubmission(document.id));
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('INTERNAL_ERROR (500), retryable, from the envelope; a proxy page without one gets its code from the status', async () => {
    server.intercept(async () =>
      Response.json(
        { success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error' }, meta: { requestId: 'req_x', timestamp: '' } },
        { status: 500 },
      ),
    );
    const key = await server.createKey();
    expect(await failure(client(key).validateKey())).toMatchObject({ code: 'INTERNAL_ERROR', status: 500, retryable: true, requestId: 'req_x' });
    server.intercept(async () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(await failure(client(key).validateKey())).toMatchObject({ code: 'INTERNAL_ERROR', status: 502, message: 'HTTP 502 Bad Gateway' });
  });

  it('a 200 whose body breaks the contract is a ContractViolationError, not data', async () => {
    server.intercept(async () => Response.json({ metadata: { id: 'doc_x' }, fields: 'none' }));
    const error = await client(await server.createKey())
      .getDocument('doc_0000000000000000000000')
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ContractViolationError);
    expect((error as ContractViolationError).issues.map((issue) => issue.path)).toContain('documentUrl');
  });
});

describe('createDocument', () => {
  it('uploads a PDF with its fields (sk key) and is not retried after a server error', async () => {
    const pdf = await generateSamplePdf({ pages: 2 });
    const admin = client(await server.createKey({ kind: 'sk' }), { retry: { retries: 3, baseDelayMs: 1 } });
    const created = await admin.createDocument({
      file: new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }),
      filename: 'lease.pdf',
      fields: sampleFields(2),
    });
    expect(created).toMatchObject({ filename: 'lease.pdf', pageCount: 2, status: 'pending' });
    expect(created.fields.map((field) => field.id)).toContain('signature');

    let posts = 0;
    server.intercept(async (request, next) => {
      if (request.method !== 'POST') return next(request);
      posts += 1;
      await next(request);
      return Response.json({ message: 'lost' }, { status: 503 });
    });
    const error = await failure(admin.createDocument({ file: new Blob([pdf as Uint8Array<ArrayBuffer>]), fields: sampleFields(2) }));
    expect(error.status).toBe(503);
    expect(posts).toBe(1);
  });

  it("is retried after the server's own 503 SERVICE_UNAVAILABLE (its PDF queue was full: nothing was done)", async () => {
    const pdf = await generateSamplePdf({ pages: 1 });
    const admin = client(await server.createKey({ kind: 'sk' }), { retry: { retries: 3, baseDelayMs: 1 } });
    let posts = 0;
    server.intercept(async (request, next) => {
      if (request.method !== 'POST') return next(request);
      posts += 1;
      if (posts > 1) return next(request);
      const error = { code: 'SERVICE_UNAVAILABLE', message: 'busy', details: { reason: 'the PDF processing queue is full' } };
      const meta = { requestId: 'req_busy', timestamp: new Date().toISOString() };
      return Response.json({ success: false, error, meta }, { status: 503, headers: { 'Retry-After': '0' } });
    });
    const created = await admin.createDocument({ file: new Blob([pdf as Uint8Array<ArrayBuffer>]), fields: sampleFields(1) });
    expect(created).toMatchObject({ pageCount: 1, status: 'pending' });
    expect(posts).toBe(2);
  });
});

describe('the sealed document', () => {
  it('getSignedDocument, getAuditTrail and verifyDocument once sealed; DOCUMENT_NOT_SEALED before', async () => {
    const document = await server.createDocument({ pages: 1 });
    const sk = client(await server.createKey({ kind: 'sk' }));
    const signer = client(await server.createKey());
    const early = await failure(sk.getSignedDocument(document.id));
    expect(early).toMatchObject({ code: 'DOCUMENT_NOT_SEALED', status: 409, retryable: true, retryAfterMs: 5000 });

    await signer.submitDocument(await payloadFor(await signer.getDocument(document.id)));
    expect(await server.test.sealDue()).toBeGreaterThanOrEqual(1); // with the other tests' submissions
    const pdf = await sk.getSignedDocument(document.id);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    const sealing = (await sk.getManagedDocument(document.id)).sealing;
    const digest = Buffer.from(await crypto.subtle.digest('SHA-256', pdf as Uint8Array<ArrayBuffer>)).toString('hex');
    expect(sealing).toMatchObject({ status: 'sealed', sha256: digest });
    expect((await sk.getAuditTrail(document.id)).events.map((event) => event.type)).toEqual([
      'document.created',
      'document.submitted',
      'document.sealed',
    ]);
    // A pk key may verify too (a host page checking a file its user holds).
    expect(await signer.verifyDocument(new Blob([pdf as Uint8Array<ArrayBuffer>]))).toMatchObject({
      sealed: true,
      intact: true,
      documentId: document.id,
      sha256: digest,
    });
  });
});

describe('webhooks', () => {
  // A public address (there is no DNS here); this server runs no dispatcher, so nothing is sent to it.
  const url = 'https://93.184.216.34/signet/webhooks';

  it('registers, lists, changes, tests, retries, rotates and deletes an endpoint', async () => {
    const sk = client(await server.createKey({ kind: 'sk' }));
    const created = await sk.createWebhook({ url, events: ['document.completed', 'document.sealed'], description: 'billing' });
    expect(created).toMatchObject({ url, events: ['document.completed', 'document.sealed'], enabled: true, description: 'billing' });
    expect(created.secret).toMatch(/^whsec_/);
    const second = await sk.createWebhook({ url, events: ['document.created'] });

    const first = await sk.listWebhooks({ limit: 1 });
    expect(first.data.map((hook) => hook.id)).toEqual([second.id]);
    expect(first.pagination.hasMore).toBe(true);
    const rest = await sk.listWebhooks({ limit: 1, cursor: first.pagination.cursor! });
    expect(rest.data.map((hook) => hook.id)).toContain(created.id);
    expect(JSON.stringify(rest)).not.toContain('whsec_');

    expect(await sk.updateWebhook(created.id, { events: ['document.sealed'] })).toMatchObject({ events: ['document.sealed'] });
    expect(await sk.getWebhook(created.id)).toMatchObject({ id: created.id, events: ['document.sealed'] });

    const queued = await sk.sendTestWebhook(created.id);
    expect(queued).toMatchObject({ webhookId: created.id, eventType: 'webhook.test', status: 'pending', attempts: 0 });
    const deliveries = await sk.listWebhookDeliveries(created.id, { limit: 10 });
    expect(deliveries.data.map((delivery) => delivery.id)).toEqual([queued.id]);
    expect(await sk.retryWebhookDelivery(created.id, queued.id)).toMatchObject({ id: queued.id, status: 'pending' });

    const rotated = await sk.rotateWebhookSecret(created.id);
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt)).toBeGreaterThan(Date.now());

    expect((await sk.deleteWebhook(created.id)).id).toBe(created.id);
    expect(await failure(sk.getWebhook(created.id))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('refusals as SigningApiError: a private URL (422), a disabled endpoint (409), a key without webhooks:write (403)', async () => {
    const sk = client(await server.createKey({ kind: 'sk' }));
    const refused = await failure(sk.createWebhook({ url: 'http://127.0.0.1:8080/hook', events: ['document.sealed'] }));
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', status: 422, details: { field: 'url' } });
    const hook = await sk.createWebhook({ url, events: ['document.sealed'] });
    await sk.updateWebhook(hook.id, { enabled: false });
    expect(await failure(sk.sendTestWebhook(hook.id))).toMatchObject({ code: 'WEBHOOK_DISABLED', status: 409, retryable: false });
    const narrow = client(await server.createKey({ kind: 'sk', scopes: ['documents:read'] }));
    expect(await failure(narrow.listWebhooks())).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { required: ['webhooks:write'] } });
  });
});

describe('several signers with session keys', () => {
  it('creates a two-signer document, mints a session key per signer, and each submits only their own fields', async () => {
    const sk = client(await server.createKey({ kind: 'sk' }));
    const pdf = (await generateSamplePdf({ pages: 2, countersigned: true })) as Uint8Array<ArrayBuffer>;
    const created = await sk.createDocument({
      file: new Blob([pdf]),
      filename: 'lease.pdf',
      fields: sampleLeaseFields(2),
      signers: [...LEASE_SIGNERS],
      signingOrder: 'sequential',
    });
    expect(created.signingOrder).toBe('sequential');
    expect(created.signers?.map((signer) => [signer.id, signer.status])).toEqual([
      ['tenant', 'ready'],
      ['landlord', 'waiting'],
    ]);
    const tenantSession = await sk.createSession(created.id, { signerId: 'tenant', expiresInSeconds: 600 });
    expect(tenantSession).toMatchObject({ documentId: created.id, signerId: 'tenant', origins: [], revokedAt: null });
    const landlordSession = await sk.createSession(created.id, { signerId: 'landlord' });

    const landlord = client(landlordSession.key);
    expect(await landlord.validateKey()).toMatchObject({ valid: true, documentId: created.id, signerId: 'landlord' });
    const early = await landlord.getDocument(created.id);
    const outOfTurn = await failure(landlord.submitDocument(await payloadFor(early)));
    expect(outOfTurn).toMatchObject({ code: 'SUBMISSION_FAILED', status: 409, details: { reason: 'not_your_turn', waitingFor: ['tenant'] } });

    const tenant = client(tenantSession.key);
    const view = await tenant.getDocument(created.id);
    expect(view.signerId).toBe('tenant');
    // The builder submits the tenant's fields only, and counts only theirs as missing.
    expect(missingRequiredFields(view, {})).toEqual(['signer_name', 'signer_initials', 'accept_terms', 'signature', 'signed_date']);
    const payload = await payloadFor(view);
    expect(payload.fields.every((field) => view.fields.find((f) => f.id === field.id)?.signerId === 'tenant')).toBe(true);
    await tenant.submitDocument(payload);

    const after = await landlord.getDocument(created.id);
    expect(after.fields.find((field) => field.id === 'signature')?.value?.type).toBe('signature');
    // The tenant's values on the landlord's view are not the landlord's to send.
    const landlordPayload = await payloadFor(after);
    expect(landlordPayload.fields.map((field) => field.id)).toEqual(['landlord_signature', 'landlord_date']);
    const result = await landlord.submitDocument(landlordPayload);
    const submissions = await sk.listSubmissions(created.id);
    expect(submissions.map((submission) => [submission.signerId, submission.id])).toEqual([
      ['tenant', expect.any(String)],
      ['landlord', result.submissionId],
    ]);
    expect((await sk.getManagedDocument(created.id)).status).toBe('completed');

    const revoked = await sk.revokeSession(created.id, landlordSession.id);
    expect(revoked).toMatchObject({ id: landlordSession.id, revokedAt: expect.any(String) });
    expect(await landlord.validateKey()).toMatchObject({ valid: false });
  });

  it('buildSubmission refuses a value for another signer\'s field before it leaves', async () => {
    const lease = await server.createLease({ signingOrder: 'parallel' });
    const view = await client(await server.createSession(lease.id, 'landlord')).getDocument(lease.id);
    await expect(payloadFor(view, { ...completeValues(view.fields.filter((f) => f.signerId === 'landlord')), signer_name: { type: 'text', content: 'Ada' } })).rejects.toMatchObject({
      field: 'signer_name',
      message: expect.stringContaining("another signer's"),
    });
  });

  it('refusals: a session key for another document (403), an unknown signer (422)', async () => {
    const sk = client(await server.createKey({ kind: 'sk' }));
    const lease = await server.createLease();
    const other = await server.createDocument({ pages: 1 });
    const tenant = client((await sk.createSession(lease.id, { signerId: 'tenant' })).key);
    expect(await failure(tenant.getDocument(other.id))).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', status: 403 });
    expect(await failure(sk.createSession(lease.id, { signerId: 'nobody' }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 422,
      details: { field: 'signerId' },
    });
  });
});

const TEMPLATE = `tpl_${'Z'.repeat(24)}`;

describe('templates', () => {
  it('creates a template, edits it as a new version, makes documents from it, mints a builder session, deletes it', async () => {
    const sk = client(await server.createKey({ kind: 'sk' }));
    const pdf = (await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>;
    const roles = [
      { id: 'tenant', name: 'Tenant', order: 1 },
      { id: 'landlord', name: 'Landlord', order: 2 },
    ];
    const created = await sk.createTemplate({ file: new Blob([pdf]), filename: 'lease.pdf', name: 'Lease', fields: sampleLeaseFields(1), roles, expiresInDays: 30 });
    expect(created).toMatchObject({ name: 'Lease', version: 1, roles, signingOrder: 'parallel', expiresInDays: 30 });
    expect((await sk.listTemplates({ limit: 100 })).data.map((item) => item.id)).toContain(created.id);

    const session = await sk.createTemplateBuilderSession(created.id, { origins: ['https://host.example'] });
    expect(session).toMatchObject({ templateId: created.id, revokedAt: null });
    const builder = client(session.key);
    const read = await builder.getTemplate(created.id);
    expect(read.documentUrl).toContain(`/sdk/templates/${created.id}/file?token=`);
    const saved = await builder.updateTemplate(created.id, { version: 1, fields: sampleLeaseFields(1), roles, signingOrder: 'sequential' });
    expect(saved).toMatchObject({ version: 2, signingOrder: 'sequential' });
    expect(await failure(builder.updateTemplate(created.id, { version: 1, fields: [] }))).toMatchObject({ code: 'PRECONDITION_FAILED', status: 412 });

    const document = await sk.createTemplateDocument(created.id, {
      signers: [
        { role: 'tenant', name: 'Tina Tenant' },
        { role: 'landlord', name: 'Lars Landlord', email: 'lars@example.com' },
      ],
      values: { signer_company: { type: 'text', content: 'Acme' } },
    });
    expect(document).toMatchObject({ status: 'pending', template: { id: created.id, version: 2 }, signingOrder: 'sequential' });
    expect(await failure(sk.createTemplateDocument(created.id, {}))).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: { field: 'signers' } });

    expect(await sk.revokeTemplateBuilderSession(created.id, session.id)).toMatchObject({ id: session.id, revokedAt: expect.any(String) });
    expect(await failure(builder.getTemplate(created.id))).toMatchObject({ code: 'INVALID_API_KEY', status: 401 });
    expect(await sk.deleteTemplate(created.id)).toEqual({ id: created.id, deleted: true });
    expect(await failure(sk.getTemplate(created.id))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await sk.getManagedDocument(document.id)).toMatchObject({ template: { id: created.id, version: 2 } });
  });

  it('starts a bulk job from JSON rows or a CSV, and reads it and its rows', async () => {
    const sk = client(await server.createKey({ kind: 'sk' }));
    const pdf = (await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>;
    const roles = [
      { id: 'tenant', name: 'Tenant', order: 1 },
      { id: 'landlord', name: 'Landlord', order: 2 },
    ];
    const template = await sk.createTemplate({ file: new Blob([pdf]), filename: 'lease.pdf', fields: sampleLeaseFields(1), roles });
    const signers = [
      { role: 'tenant', name: 'Tina Tenant' },
      { role: 'landlord', name: 'Lars Landlord' },
    ];
    const job = await sk.createBulkJob(template.id, { rows: [{ key: 'r1', signers }, { key: 'r2', signers }] });
    expect(job).toMatchObject({ templateId: template.id, templateVersion: 1, total: 2 });
    expect(job.id).toMatch(/^blk_/);
    expect(await sk.getBulkJob(job.id)).toMatchObject({ id: job.id, total: 2 });
    const page = await sk.listBulkJobRows(job.id, { limit: 1 });
    expect(page.data.map((row) => [row.index, row.key])).toEqual([[0, 'r1']]);
    expect(page.pagination.hasMore).toBe(true);
    const next = await sk.listBulkJobRows(job.id, { limit: 1, cursor: page.pagination.cursor });
    expect(next.data.map((row) => row.key)).toEqual(['r2']);

    const fromCsv = await sk.createBulkJob(template.id, { csv: 'key,tenant.name,landlord.name\nc1,Tina Tenant,Lars Landlord\n' });
    expect(fromCsv).toMatchObject({ total: 1 });
    expect(await failure(sk.createBulkJob(template.id, { csv: 'key,tenant.name\nc1,Tina\n' }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      details: { field: 'line 1' },
    });
  });
});

describe('drafts and builder sessions', () => {
  it('creates a draft, mints a builder session, saves with the version, is told of a conflict and of problems, sends', async () => {
    const sk = client(await server.createKey({ kind: 'sk' }));
    const pdf = (await generateSamplePdf({ pages: 2 })) as Uint8Array<ArrayBuffer>;
    const created = await sk.createDraft({ file: new Blob([pdf]), filename: 'lease.pdf' });
    expect(created).toMatchObject({ status: 'draft', version: 1, fields: [] });

    const session = await sk.createBuilderSession(created.id, { allowSend: true, origins: ['https://host.example'] });
    expect(session).toMatchObject({ documentId: created.id, allowSend: true, origins: ['https://host.example'], revokedAt: null });
    const builder = client(session.key);
    const draft = await builder.getDraft(created.id);
    expect(draft).toMatchObject({ id: created.id, version: 1, documentUrl: expect.stringContaining('/file?token=') });

    const signers = [...LEASE_SIGNERS];
    const saved = await builder.updateDraft(created.id, { version: draft.version, fields: sampleLeaseFields(2).slice(0, 1), signers });
    expect(saved).toMatchObject({ version: 2, signingOrder: 'parallel', signers: [{ id: 'tenant' }, { id: 'landlord' }] });
    expect(await failure(builder.updateDraft(created.id, { version: 1, fields: [] }))).toMatchObject({
      code: 'PRECONDITION_FAILED',
      status: 412,
      details: { currentVersion: 2 },
    });
    const refused = await failure(builder.sendDocument(created.id, { version: 2 }));
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
    expect((refused.details as { problems: Array<{ field: string }> }).problems.map((problem) => problem.field)).toEqual(['signers[0]', 'signers[1]']);

    await builder.updateDraft(created.id, { version: 2, fields: sampleLeaseFields(2), signers, signingOrder: 'sequential' });
    const sent = await builder.sendDocument(created.id, { version: 3 });
    expect(sent).toMatchObject({ status: 'pending', version: 4, signingOrder: 'sequential' });
    expect(await failure(builder.getManagedDocument(created.id))).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', status: 403 });

    const revoked = await sk.revokeBuilderSession(created.id, session.id);
    expect(revoked).toMatchObject({ id: session.id, revokedAt: expect.any(String) });
    expect(await failure(builder.getDraft(created.id))).toMatchObject({ code: 'INVALID_API_KEY', status: 401 });
  });
});

describe('declining', () => {
  it('declineDocument: the document is declined; a repeat answers the first decline; a submission is refused', async () => {
    const document = await server.createDocument({ pages: 1 });
    const signer = client(await server.createKey());
    const declined = await signer.declineDocument(document.id, 'The deposit is wrong');
    expect(declined).toMatchObject({ documentId: document.id, status: 'declined', reason: 'The deposit is wrong' });
    expect(await signer.declineDocument(document.id, 'Something else')).toEqual(declined);
    const view = await signer.getDocument(document.id);
    expect(view.metadata.status).toBe('declined');
    expect(await failure(signer.submitDocument(await payloadFor(view)))).toMatchObject({
      code: 'SUBMISSION_FAILED',
      status: 409,
      details: { reason: 'declined' },
    });
  });
});

describe('the organization', () => {
  it("getOrganization and updateOrganization: the key's organization, renamed and branded, then back to the default colour", async () => {
    const organization = await ensureOrganization(server.test.storage.db.query, 'client-branding', 'Acme Lettings');
    const sk = client((await server.test.createKey({ kind: 'sk' }, organization.id)).secret);
    expect(await sk.getOrganization()).toEqual({ id: organization.id, name: 'Acme Lettings', brandColor: null });
    expect(await sk.updateOrganization({ name: 'Acme Property Management', brandColor: '#0A7D4F' })).toEqual({
      id: organization.id,
      name: 'Acme Property Management',
      brandColor: '#0a7d4f',
    });
    expect(await sk.updateOrganization({ brandColor: null })).toMatchObject({ brandColor: null });
    expect(await failure(sk.updateOrganization({ brandColor: 'red' }))).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: { field: 'brandColor' } });
    expect(await failure(client(await server.createKey()).getOrganization())).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', status: 403 });
  });
});

describe('voiding', () => {
  it('voidDocument: the document is voided; a second void and a submission are refused', async () => {
    const document = await server.createDocument({ pages: 1 });
    const sender = client(await server.createKey({ kind: 'sk' }));
    const voided = await sender.voidDocument(document.id, 'Sent to the wrong tenant');
    expect(voided).toMatchObject({ id: document.id, status: 'voided', voided: { reason: 'Sent to the wrong tenant' } });
    expect(await failure(sender.voidDocument(document.id, 'Again'))).toMatchObject({ code: 'DOCUMENT_CLOSED', status: 409 });
    const signer = client(await server.createKey());
    expect(await failure(signer.getDocument(document.id))).toMatchObject({ code: 'SUBMISSION_FAILED', status: 409, details: { reason: 'voided' } });
  });
});

describe('erasure', () => {
  it('eraseDocument: the tombstone; the document is unknown from then on, a second erasure is a 410', async () => {
    const document = await server.createDocument({ pages: 1 });
    const sender = client(await server.createKey({ kind: 'sk' }));
    const tombstone = await sender.eraseDocument(document.id);
    expect(tombstone).toMatchObject({ id: document.id, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), erasedAt: expect.any(String) });
    expect(await failure(sender.getManagedDocument(document.id))).toMatchObject({ code: 'DOCUMENT_NOT_FOUND', status: 404, details: { reason: 'erased' } });
    expect(await failure(sender.eraseDocument(document.id))).toMatchObject({ code: 'DOCUMENT_ERASED', status: 410 });
  });
});

describe('expiry', () => {
  it('createDocument with expiresAt: the document shows it', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const file = new Blob([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>]);
    const created = await client(await server.createKey({ kind: 'sk' })).createDocument({ file, fields: sampleFields(1), expiresAt });
    expect(created).toMatchObject({ status: 'pending', expiresAt });
  });
});

describe('the endpoint table', () => {
  /** No such endpoint: only the request each call makes matters here. */
  const webhookId = 'wh_Q3hXk2v9TzR7mLpW4sNa8bYc';
  /** One call of each method of the client; a method added without one here does not compile. */
  const calls: Record<Exclude<keyof SigningClient, 'rateLimit'>, (client: SigningClient, documentId: string) => Promise<unknown>> = {
    validateKey: (c) => c.validateKey(),
    getDocument: (c, id) => c.getDocument(id),
    submitDocument: async (c, id) => c.submitDocument(await payloadFor(await c.getDocument(id))),
    listDocuments: (c) => c.listDocuments({ limit: 1, cursor: 'x' }),
    documentPages: (c) => c.documentPages().next(),
    allDocuments: (c) => c.allDocuments().next(),
    createDocument: async (c) =>
      c.createDocument({ file: new Blob([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>]), fields: sampleFields(1) }),
    getManagedDocument: (c, id) => c.getManagedDocument(id),
    getSubmission: (c, id) => c.getSubmission(id),
    getSignedDocument: (c, id) => c.getSignedDocument(id),
    getAuditTrail: (c, id) => c.getAuditTrail(id),
    verifyDocument: async (c) => c.verifyDocument(new Blob([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>])),
    createWebhook: (c) => c.createWebhook({ url: 'https://example.com/hooks', events: ['document.sealed'] }),
    listWebhooks: (c) => c.listWebhooks({ limit: 1 }),
    getWebhook: (c) => c.getWebhook(webhookId),
    updateWebhook: (c) => c.updateWebhook(webhookId, { enabled: false }),
    deleteWebhook: (c) => c.deleteWebhook(webhookId),
    rotateWebhookSecret: (c) => c.rotateWebhookSecret(webhookId),
    listWebhookDeliveries: (c) => c.listWebhookDeliveries(webhookId, { limit: 1 }),
    retryWebhookDelivery: (c) => c.retryWebhookDelivery(webhookId, 'dlv_J8kQm2XwR4tZp6LnV3yBcD5e'),
    sendTestWebhook: (c) => c.sendTestWebhook(webhookId),
    getOrganization: (c) => c.getOrganization(),
    updateOrganization: (c) => c.updateOrganization({ brandColor: null }),
    listSubmissions: (c, id) => c.listSubmissions(id),
    declineDocument: (c, id) => c.declineDocument(id, 'The terms changed'),
    sendVerificationCode: (c, id) => c.sendVerificationCode(id),
    checkVerification: (c, id) => c.checkVerification(id, '123456'),
    createSession: (c, id) => c.createSession(id, {}),
    revokeSession: (c, id) => c.revokeSession(id, 'key_R2wXn8TqL5vBmK3pZ7cYd4Hs'),
    remindSigner: (c, id) => c.remindSigner(id, 'tenant'),
    createDraft: async (c) => c.createDraft({ file: new Blob([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>]) }),
    getDraft: (c, id) => c.getDraft(id),
    updateDraft: (c, id) => c.updateDraft(id, { version: 1, fields: [] }),
    sendDocument: (c, id) => c.sendDocument(id, { version: 1 }),
    createBuilderSession: (c, id) => c.createBuilderSession(id),
    revokeBuilderSession: (c, id) => c.revokeBuilderSession(id, 'key_R2wXn8TqL5vBmK3pZ7cYd4Hs'),
    createTemplate: async (c) => c.createTemplate({ file: new Blob([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>]) }),
    listTemplates: (c) => c.listTemplates({ limit: 1 }),
    getTemplate: (c) => c.getTemplate(TEMPLATE),
    updateTemplate: (c) => c.updateTemplate(TEMPLATE, { version: 1, fields: [] }),
    deleteTemplate: (c) => c.deleteTemplate(TEMPLATE),
    createTemplateDocument: (c) => c.createTemplateDocument(TEMPLATE, {}),
    createTemplateBuilderSession: (c) => c.createTemplateBuilderSession(TEMPLATE),
    revokeTemplateBuilderSession: (c) => c.revokeTemplateBuilderSession(TEMPLATE, 'key_R2wXn8TqL5vBmK3pZ7cYd4Hs'),
    createBulkJob: (c) => c.createBulkJob(TEMPLATE, { rows: [{ key: 'r1' }] }),
    getBulkJob: (c) => c.getBulkJob(`blk_${'Z'.repeat(24)}`),
    listBulkJobRows: (c) => c.listBulkJobRows(`blk_${'Z'.repeat(24)}`, { limit: 1 }),
    // Last: it ends the document the calls above use.
    voidDocument: (c, id) => c.voidDocument(id, 'Sent by mistake'),
    eraseDocument: (c, id) => c.eraseDocument(id),
  };

  it('the client calls every endpoint reached with a key, and nothing outside the table', async () => {
    const table = Object.entries(endpoints).map(([name, endpoint]) => ({
      name: name as EndpointName,
      method: endpoint.method.toUpperCase(),
      pattern: new RegExp(`^${endpoint.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    const reached = new Set<string>();
    server.intercept((request, next) => {
      const { pathname } = new URL(request.url);
      const endpoint = table.find(({ method, pattern }) => method === request.method && pattern.test(pathname));
      reached.add(endpoint?.name ?? `outside the table: ${request.method} ${pathname}`);
      return next(request);
    });
    // An sk key reaches the SDK endpoints too; what a call answers does not matter here, only what it asked.
    const signer = client(await server.createKey({ kind: 'sk', scopes: ['documents:read', 'documents:submit', 'documents:write'] }));
    const document = await server.createDocument();
    expect(Object.keys(signer).sort()).toEqual([...Object.keys(calls), 'rateLimit'].sort());
    for (const call of Object.values(calls)) await call(signer, document.id).catch(() => undefined);
    const byKey = Object.entries(endpoints).filter(([, endpoint]) => endpoint.access.by === 'key').map(([name]) => name);
    expect([...reached].sort()).toEqual(byKey.sort());
  });

  it('getManagedDocument: the document with its fields (sk key)', async () => {
    const document = await server.createDocument({ pages: 2 });
    const managed = await client(await server.createKey({ kind: 'sk' })).getManagedDocument(document.id);
    expect(managed).toMatchObject({ id: document.id, pageCount: 2, status: 'pending' });
    expect(managed.fields.map((field) => field.id)).toContain('signature');
  });
});
