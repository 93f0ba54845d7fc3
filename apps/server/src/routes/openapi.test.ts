import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { endpoints, fieldsOfSigner, type EndpointName } from '@signet/contract';
import { createApp } from '../app.js';
import { PdfLimitError, PdfPoolBusyError, type PdfPool } from '../pdf/pool/index.js';
import { LEASE_SIGNERS, generateSamplePdf, sampleFields, sampleLeaseFields } from '../pdf/sample.js';
import type { Storage } from '../storage/types.js';
import { dataUrlOf } from '../../test/submissions/test-png.js';
import { buildPayload, call, capturingLogger, completeValues, createTestApp, type TestApp } from '../../test/support/harness.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { failingReads } from '../../test/support/failing-storage.js';
import { sqlite as sqliteEngine } from '../../test/support/harness.js';

/**
 * Every endpoint's real answers, checked against `/openapi.json` as a client generated from it would read them:
 * each status must be one the operation lists, each body must match its schema (error envelopes with the codes the
 * status lists), each listed header must be there when required and match; and every status an operation lists
 * must have been seen, so the description holds no answer the server never gives.
 */

interface Operation {
  responses: Record<string, { headers?: Record<string, { required?: boolean; schema: object }>; content?: Record<string, { schema: object }> }>;
}

let t: TestApp;
let small: TestApp;
let operations: Record<string, Operation>;
let components: unknown;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const compiled = new Map<object, ReturnType<typeof ajv.compile>>();

function validate(schema: object, value: unknown): string[] {
  let check = compiled.get(schema);
  // A schema of the document refers to `#/components/…`: it is compiled with the document's components beside it.
  if (!check) compiled.set(schema, (check = ajv.compile({ ...schema, components })));
  return check(value) ? [] : (check.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
}

/** Checks one real answer of `operationId` against its description, and returns its status. */
async function documented(operationId: EndpointName | ServiceOperation, response: Response): Promise<number> {
  const described = operations[operationId]!.responses[String(response.status)];
  expect(described, `${operationId} answered ${response.status}, which /openapi.json does not list`).toBeDefined();
  for (const [name, header] of Object.entries(described!.headers ?? {})) {
    const value = response.headers.get(name);
    if (value === null) expect(header.required, `${operationId} ${response.status}: header ${name} missing`).not.toBe(true);
    else expect(validate(header.schema, value), `${operationId} ${response.status}: header ${name}: ${value}`).toEqual([]);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!described!.content) {
    expect(bytes.byteLength, `${operationId} ${response.status} has no body`).toBe(0);
    return response.status;
  }
  const mediaType = response.headers.get('Content-Type')?.split(';')[0]!.trim() ?? '';
  const content = described!.content[mediaType];
  expect(content, `${operationId} ${response.status}: Content-Type ${mediaType} is not listed`).toBeDefined();
  if (mediaType === 'application/json') {
    const body: unknown = JSON.parse(new TextDecoder().decode(bytes));
    expect(validate(content!.schema, body), `${operationId} ${response.status}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
  } else {
    expect(bytes.byteLength, `${operationId} ${response.status}: an empty ${mediaType}`).toBeGreaterThan(0);
    expect(response.headers.get('Content-Length')).toBe(String(bytes.byteLength));
  }
  return response.status;
}

/** An app over `t`'s storage and rate limits with `changes`: a PDF pool that fails, or a storage that does. */
function alteredApp(changes: { pdfPool?: PdfPool; storage?: Storage }) {
  const { logger } = capturingLogger();
  return {
    app: createApp({ storage: t.storage, rateLimits: t.rateLimits, config: t.config, secret: randomBytes(32).toString('hex'), logger, ...changes }),
  };
}

/** A PDF pool whose every task fails with `poolFailure()`: a 422 or 503 upload, a preview that cannot be drawn. */
let poolFailure: () => Error = () => new PdfPoolBusyError();
const failingPool = { run: async () => Promise.reject(poolFailure()) } as unknown as PdfPool;
/** An app whose storage fails: every operation's 500. */
const broken = () =>
  alteredApp({
    storage: failingReads(t.storage, ['api_keys', 'documents', 'templates'], new Error('storage down')),
  });

/** A well-formed key that no store knows, and a well-formed id of no document. */
const KEY = `pk_${'A'.repeat(40)}`;
const DOC = `doc_${'Z'.repeat(24)}`;

/** The token-guarded URLs of a document, from `documentUrl`. */
async function documentUrls(app: { app: TestApp['app'] }, pk: string, documentId: string) {
  const { documentUrl } = (await (await call(app, 'GET', `/sdk/documents/${documentId}`, { key: pk })).json()) as { documentUrl: string };
  const file = new URL(documentUrl);
  return { file: file.pathname + file.search, preview: file.pathname.replace(/file$/, 'preview') + file.search };
}

async function uploadForm(pages = 1) {
  const form = new FormData();
  form.set('file', new File([(await generateSamplePdf({ pages })) as Uint8Array<ArrayBuffer>], 'a.pdf', { type: 'application/pdf' }));
  form.set('fields', JSON.stringify(sampleFields(pages)));
  return form;
}

/** A document submitted and sealed, with its token-guarded URLs (a pk key's). */
async function sealedDocument() {
  const pk = (await t.createKey()).secret;
  const document = await t.createDocument({ pages: 1 });
  const submitted = await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) });
  expect(submitted.status).toBe(201);
  await t.sealDue();
  const urls = await documentUrls(t, pk, document.id);
  return { document, pk, signed: urls.file.replace('/file?', '/signed.pdf?') };
}

/** A draft of `t`'s organization (`?draft=true`), with the sample fields of one page unless told. */
async function newDraft(fields: unknown[] | null = sampleFields(1)) {
  const sk = (await t.createKey({ kind: 'sk' })).secret;
  const form = await uploadForm();
  if (fields) form.set('fields', JSON.stringify(fields));
  else form.delete('fields');
  const response = await t.app.request('/documents?draft=true', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data;
}

/** A template of `t`'s organization made from the sample's one page and fields, with an sk key of it. */
async function newTemplate() {
  const sk = (await t.createKey({ kind: 'sk' })).secret;
  const response = await t.app.request('/templates', { method: 'POST', headers: { 'X-API-Key': sk }, body: await uploadForm() });
  expect(response.status).toBe(201);
  return { id: ((await response.json()) as { data: { id: string } }).data.id, sk };
}
const TPL = `tpl_${'Z'.repeat(24)}`;

/** A bulk job's GET answers: its own (200), a bad id (400), no key (401), a pk key (403), none such (404), the limit (429), storage down (500). */
async function bulkJobRefusals(path: (id: string) => string, query = '') {
  const { id, sk } = await newTemplate();
  const created = await call(t, 'POST', `/templates/${id}/bulk`, { key: sk, body: { rows: [{ key: 'row-1' }] } });
  const job = ((await created.json()) as { data: { id: string } }).data;
  const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
  return [
    await call(t, 'GET', path(job.id) + query, { key: sk }),
    await call(t, 'GET', path('blk_x'), { key: sk }),
    await call(t, 'GET', path(job.id)),
    await call(t, 'GET', path(job.id), { key: (await t.createKey()).secret }),
    await call(t, 'GET', path(`blk_${'Z'.repeat(24)}`), { key: sk }),
    await call(t, 'GET', path(job.id), { key: limited }),
    await call(t, 'GET', path(job.id), { key: limited }),
    await call(broken(), 'GET', path(job.id), { key: KEY }),
  ];
}

/** A public address (no DNS here): an endpoint URL any server accepts; nothing is sent, this app has no dispatcher. */
const HOOK_URL = 'https://93.184.216.34/signet';
const WH = `wh_${'Z'.repeat(24)}`;

/** A webhook endpoint of `t`'s organization, with an sk key of it. */
async function ownWebhook() {
  const sk = (await t.createKey({ kind: 'sk' })).secret;
  const created = await call(t, 'POST', '/webhooks', { key: sk, body: { url: HOOK_URL, events: ['document.completed'] } });
  expect(created.status).toBe(201);
  const { data } = (await created.json()) as { data: { id: string } };
  return { sk, id: data.id };
}

/**
 * The answers every webhook operation gives besides its own: a bad id (400), no key (401), a pk key (403), an
 * unknown endpoint (404, for routes about one), the rate limit (429 after a 2xx), storage down (500).
 */
async function webhookRefusals(method: string, path: (id: string) => string, body?: unknown, options: { one?: boolean } = {}) {
  const { sk, id } = await ownWebhook();
  const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
  return [
    ...(options.one === false ? [] : [await call(t, method, path('xyz'), { key: sk, body })]),
    await call(t, method, path(id), { body }),
    await call(t, method, path(id), { key: (await t.createKey()).secret, body }),
    ...(options.one === false ? [] : [await call(t, method, path(WH), { key: sk, body })]),
    await call(t, method, path(WH), { key: limited, body }),
    await call(t, method, path(WH), { key: limited, body }),
    await call(broken(), method, path(id), { key: KEY, body }),
  ];
}

/** A lease whose tenant proves who they are (docs/signer-auth.md) with `auth`. */
function verifiedLease(auth: { auth: 'email_code' } | { auth: 'access_code'; accessCode: string }, organizationId?: string) {
  return t.createDocument({
    pages: 2,
    fields: sampleLeaseFields(2),
    signers: [{ ...LEASE_SIGNERS[0]!, email: 'tina@example.com', ...auth }, LEASE_SIGNERS[1]!],
    signingOrder: 'parallel',
    ...(organizationId ? { organizationId } : {}),
  });
}

/** `t`'s app on a server that sends e-mail (nothing is sent: no mail job runs here). */
function verifyingApp() {
  const { logger } = capturingLogger();
  const config = { ...t.config, mail: { smtpUrl: 'smtp://127.0.0.1:2525', from: 'Signet <sign@acme.test>', timeoutMs: 1000 } };
  return { app: createApp({ storage: t.storage, rateLimits: t.rateLimits, config, secret: t.secret, logger }) };
}

/** Requests that make each operation give every answer its description lists. */
const scenarios: Record<EndpointName, () => Promise<Response[]>> = {
  async validateKey() {
    const limited = (await t.createKey({ rateLimit: 1 })).secret;
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    return [
      await call(t, 'POST', '/sdk/validate-key', { key: (await t.createKey()).secret }),
      await call(t, 'POST', '/sdk/validate-key', { key: KEY }),
      await call(t, 'POST', '/sdk/validate-key', { key: sk, headers: { Origin: 'https://host.example' } }),
      await call(t, 'POST', '/sdk/validate-key', { key: limited }),
      await call(t, 'POST', '/sdk/validate-key', { key: limited }),
      await call(broken(), 'POST', '/sdk/validate-key', { key: KEY }),
    ];
  },
  async getDocument() {
    const document = await t.createDocument();
    const limited = (await t.createKey({ rateLimit: 1 })).secret;
    const path = `/sdk/documents/${document.id}`;
    return [
      await call(t, 'GET', path, { key: (await t.createKey()).secret }),
      await call(t, 'GET', '/sdk/documents/xyz', { key: (await t.createKey()).secret }),
      await call(t, 'GET', path),
      await call(t, 'GET', path, { key: (await t.createKey({ scopes: ['documents:submit'] })).secret }),
      await call(t, 'GET', `/sdk/documents/${DOC}`, { key: (await t.createKey()).secret }),
      await call(t, 'GET', `/sdk/documents/${(await newDraft()).id}`, { key: (await t.createKey()).secret }),
      await call(t, 'GET', `/sdk/documents/${(await verifiedLease({ auth: 'access_code', accessCode: 'harbour-42' })).id}`, {
        key: (await t.createSession((await verifiedLease({ auth: 'access_code', accessCode: 'harbour-42' })).id, 'tenant')).secret,
      }),
      await call(t, 'GET', path, { key: limited }),
      await call(t, 'GET', path, { key: limited }),
      await call(broken(), 'GET', path, { key: KEY }),
    ];
  },
  async submitDocument() {
    const pk = (await t.createKey()).secret;
    const document = await t.createDocument();
    const payload = await buildPayload(document);
    const submit = (body: unknown, key = pk, headers: Record<string, string> = {}) =>
      call(t, 'POST', '/sdk/documents/submit', { key, body, headers });
    const other = await t.createDocument();
    const foreign = await t.createDocument({ organizationId: (await ensureOrganization(t.storage.db.query, 'elsewhere', 'Elsewhere')).id });
    const limited = (await t.createKey({ rateLimit: 1 })).secret;
    const smallKey = (await small.createKey()).secret;
    // A 16-bit signature is decoded in the PDF pool (a plain PNG is not): a full pool is the 503.
    const busyDocument = await t.createDocument();
    const deep = sharp({ create: { width: 200, height: 60, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } });
    const signature = { type: 'signature' as const, imageData: dataUrlOf(await deep.toColourspace('rgb16').png().toBuffer()) };
    const busy = await buildPayload(busyDocument, { ...completeValues(busyDocument.fields), signature });
    poolFailure = () => new PdfPoolBusyError();
    return [
      await call(alteredApp({ pdfPool: failingPool }), 'POST', '/sdk/documents/submit', { key: pk, body: busy }),
      await submit(payload, pk, { 'Idempotency-Key': 'openapi-1' }),
      await submit(payload, pk, { 'Idempotency-Key': 'openapi-1' }),
      await submit(payload),
      await submit('{"documentId":'),
      await submit(payload, KEY),
      await submit(payload, (await t.createKey({ scopes: ['documents:read'] })).secret),
      await submit(await buildPayload(foreign)),
      await submit(await buildPayload(document, { ...completeValues(document.fields), signer_name: { type: 'text', content: 'Someone else' } })),
      await call(small, 'POST', '/sdk/documents/submit', { key: smallKey, body: await buildPayload(other) }),
      await submit(JSON.stringify(payload), pk, { 'Content-Type': 'text/plain' }),
      await submit(await buildPayload(other, {})),
      await submit(payload, limited),
      await submit(payload, limited),
      await call(broken(), 'POST', '/sdk/documents/submit', { key: KEY, body: payload }),
    ];
  },
  async declineDocument() {
    const pk = (await t.createKey()).secret;
    const [declined, completed] = [await t.createDocument({ pages: 1 }), await t.createDocument({ pages: 1 })];
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(completed) })).status).toBe(201);
    const limited = (await t.createKey({ rateLimit: 1 })).secret;
    const path = (id: string) => `/sdk/documents/${id}/decline`;
    const body = { reason: 'The rent is wrong' };
    return [
      await call(t, 'POST', path(declined.id), { key: pk, body }),
      await call(t, 'POST', path(declined.id), { key: pk, body: { reason: '' } }),
      await call(t, 'POST', path(declined.id), { body }),
      await call(t, 'POST', path(declined.id), { key: (await t.createKey({ scopes: ['documents:read'] })).secret, body }),
      await call(t, 'POST', path(DOC), { key: pk, body }),
      await call(t, 'POST', path(completed.id), { key: pk, body }),
      await call(t, 'POST', path(declined.id), { key: pk, body: { reason: 'x'.repeat(20_000) } }),
      await call(t, 'POST', path(declined.id), { key: pk, body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'POST', path(declined.id), { key: limited, body }),
      await call(t, 'POST', path(declined.id), { key: limited, body }),
      await call(broken(), 'POST', path(declined.id), { key: KEY, body }),
    ];
  },
  async sendVerificationCode() {
    const mailed = verifyingApp();
    const emailed = await verifiedLease({ auth: 'email_code' });
    const accessed = await verifiedLease({ auth: 'access_code', accessCode: 'harbour-42' });
    const tenant = (await t.createSession(emailed.id, 'tenant')).secret;
    const limited = (await t.createSession(emailed.id, 'tenant', { rateLimit: 1 })).secret;
    const foreign = await verifiedLease({ auth: 'email_code' }, (await ensureOrganization(t.storage.db.query, 'elsewhere', 'Elsewhere')).id);
    const draft = (await newDraft()).id;
    const path = (id: string) => `/sdk/documents/${id}/verification`;
    return [
      await call(mailed, 'POST', path(emailed.id), { key: tenant }),
      await call(mailed, 'POST', path('xyz'), { key: tenant }),
      await call(mailed, 'POST', path(emailed.id)),
      await call(mailed, 'POST', path(emailed.id), { key: (await t.createKey()).secret }),
      await call(mailed, 'POST', path(foreign.id), { key: (await t.createSession(foreign.id, 'tenant')).secret }),
      await call(mailed, 'POST', path(draft), { key: (await t.createSession(draft, 'tenant')).secret }),
      await call(mailed, 'POST', path(accessed.id), { key: (await t.createSession(accessed.id, 'tenant')).secret }),
      await call(mailed, 'POST', path(emailed.id), { key: limited }),
      await call(mailed, 'POST', path(emailed.id), { key: limited }),
      await call(t, 'POST', path(emailed.id), { key: (await t.createSession(emailed.id, 'tenant')).secret }),
      await call(broken(), 'POST', path(emailed.id), { key: KEY }),
    ];
  },
  async checkVerification() {
    const accessed = await verifiedLease({ auth: 'access_code', accessCode: 'harbour-42' });
    const session = async () => (await t.createSession(accessed.id, 'tenant')).secret;
    const limited = (await t.createSession(accessed.id, 'tenant', { rateLimit: 1 })).secret;
    const foreign = await verifiedLease({ auth: 'access_code', accessCode: 'harbour-42' }, (await ensureOrganization(t.storage.db.query, 'elsewhere', 'Elsewhere')).id);
    const draft = (await newDraft()).id;
    const path = (id: string) => `/sdk/documents/${id}/verification/check`;
    const body = { code: 'harbour-42' };
    return [
      await call(t, 'POST', path(accessed.id), { key: await session(), body }),
      await call(t, 'POST', path(accessed.id), { key: await session(), body: { code: 'no' } }),
      await call(t, 'POST', path(accessed.id), { body }),
      await call(t, 'POST', path(accessed.id), { key: (await t.createKey()).secret, body }),
      await call(t, 'POST', path(foreign.id), { key: (await t.createSession(foreign.id, 'tenant')).secret, body }),
      await call(t, 'POST', path(draft), { key: (await t.createSession(draft, 'tenant')).secret, body }),
      await call(t, 'POST', path(accessed.id), { key: await session(), body: { code: 'x'.repeat(4096) } }),
      await call(t, 'POST', path(accessed.id), { key: await session(), body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'POST', path(accessed.id), { key: await session(), body: { code: 'harbour-41' } }),
      await call(t, 'POST', path(accessed.id), { key: limited, body }),
      await call(t, 'POST', path(accessed.id), { key: limited, body }),
      await call(broken(), 'POST', path(accessed.id), { key: KEY, body }),
    ];
  },
  async getDocumentFile() {
    const document = await t.createDocument();
    const { file } = await documentUrls(t, (await t.createKey()).secret, document.id);
    const whole = await t.app.request(file);
    const etag = whole.headers.get('ETag')!;
    return [
      whole,
      await t.app.request(file, { headers: { Range: 'bytes=0-99' } }),
      await t.app.request(file, { headers: { 'If-None-Match': etag } }),
      await t.app.request(file.replace(document.id, 'xyz')),
      await t.app.request(file.replace(/token=.*/, 'token=nope')),
      await t.app.request(file, { headers: { Range: `bytes=${document.fileSize + 10}-` } }),
      await broken().app.request(file),
    ];
  },
  async getDocumentPreview() {
    const document = await t.createDocument();
    const { preview } = await documentUrls(t, (await t.createKey()).secret, document.id);
    const image = await t.app.request(preview);
    const undrawable = alteredApp({ pdfPool: failingPool });
    poolFailure = () => new PdfLimitError('time', 'the page took too long to draw');
    const stored = await t.createDocumentWithoutPreview(await generateSamplePdf({ pages: 1 }));
    return [
      image,
      await t.app.request(preview, { headers: { 'If-None-Match': image.headers.get('ETag')! } }),
      await t.app.request(preview.replace(document.id, 'xyz')),
      await t.app.request(preview.replace(/token=.*/, 'token=nope')),
      await undrawable.app.request((await documentUrls(undrawable, (await t.createKey()).secret, stored.id)).preview),
      await broken().app.request(preview),
    ];
  },
  async createDocument() {
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const upload = async (app: { app: TestApp['app'] }, key: string, body?: FormData | string) =>
      app.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': key, 'X-Forwarded-For': '203.0.113.7' }, body: body ?? (await uploadForm()) });
    const pooled = alteredApp({ pdfPool: failingPool });
    const responses = [
      await upload(t, sk),
      await upload(t, sk, 'file=x'),
      await upload(t, KEY),
      await upload(t, (await t.createKey()).secret),
      await upload(small, (await small.createKey({ kind: 'sk' })).secret, await uploadForm(3)),
      await upload(t, limited),
      await upload(t, limited),
      await upload(broken(), KEY),
    ];
    poolFailure = () => new PdfLimitError('memory', 'the PDF needs more memory than allowed');
    responses.push(await upload(pooled, sk));
    poolFailure = () => new PdfPoolBusyError();
    responses.push(await upload(pooled, sk));
    return responses;
  },
  async listDocuments() {
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    return [
      await call(t, 'GET', '/documents?limit=2', { key: sk }),
      await call(t, 'GET', '/documents?limit=0', { key: sk }),
      await call(t, 'GET', '/documents'),
      await call(t, 'GET', '/documents', { key: (await t.createKey()).secret }),
      await call(t, 'GET', '/documents', { key: limited }),
      await call(t, 'GET', '/documents', { key: limited }),
      await call(broken(), 'GET', '/documents', { key: KEY }),
    ];
  },
  async getManagedDocument() {
    const document = await t.createDocument();
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = `/documents/${document.id}`;
    return [
      await call(t, 'GET', path, { key: sk }),
      await call(t, 'GET', '/documents/xyz', { key: sk }),
      await call(t, 'GET', path, { key: KEY }),
      await call(t, 'GET', path, { key: (await t.createKey()).secret }),
      await call(t, 'GET', `/documents/${DOC}`, { key: sk }),
      await call(t, 'GET', path, { key: limited }),
      await call(t, 'GET', path, { key: limited }),
      await call(broken(), 'GET', path, { key: KEY }),
    ];
  },
  async getSubmission() {
    const [completed, pending] = [await t.createDocument(), await t.createDocument()];
    const submitted = await call(t, 'POST', '/sdk/documents/submit', { key: (await t.createKey()).secret, body: await buildPayload(completed) });
    expect(submitted.status).toBe(201);
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/submission`;
    return [
      await call(t, 'GET', path(completed.id), { key: sk }),
      await call(t, 'GET', path('xyz'), { key: sk }),
      await call(t, 'GET', path(completed.id)),
      await call(t, 'GET', path(completed.id), { key: (await t.createKey()).secret }),
      await call(t, 'GET', path(pending.id), { key: sk }),
      await call(t, 'GET', path(DOC), { key: sk }),
      await call(t, 'GET', path(completed.id), { key: limited }),
      await call(t, 'GET', path(completed.id), { key: limited }),
      await call(broken(), 'GET', path(completed.id), { key: KEY }),
    ];
  },
  async listSubmissions() {
    const lease = await t.createLease({ signingOrder: 'parallel' });
    const tenant = (await t.createSession(lease.id, 'tenant')).secret;
    const submitted = await call(t, 'POST', '/sdk/documents/submit', {
      key: tenant,
      body: await buildPayload({ ...lease, fields: fieldsOfSigner(lease.fields, 'tenant') }),
    });
    expect(submitted.status).toBe(201);
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/submissions`;
    return [
      await call(t, 'GET', path(lease.id), { key: sk }),
      await call(t, 'GET', path('xyz'), { key: sk }),
      await call(t, 'GET', path(lease.id)),
      await call(t, 'GET', path(lease.id), { key: (await t.createKey()).secret }),
      await call(t, 'GET', path(DOC), { key: sk }),
      await call(t, 'GET', path(lease.id), { key: limited }),
      await call(t, 'GET', path(lease.id), { key: limited }),
      await call(broken(), 'GET', path(lease.id), { key: KEY }),
    ];
  },
  async createSession() {
    const lease = await t.createLease();
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/sessions`;
    const body = { signerId: 'tenant' };
    return [
      await call(t, 'POST', path(lease.id), { key: sk, body }),
      await call(t, 'POST', path(lease.id), { key: sk, body: { signerId: 'tenant', expiresInSeconds: 1 } }),
      await call(t, 'POST', path(lease.id), { body }),
      await call(t, 'POST', path(lease.id), { key: (await t.createKey()).secret, body }),
      await call(t, 'POST', path(DOC), { key: sk, body }),
      await call(t, 'POST', path(lease.id), { key: sk, body: { signerId: 'tenant', pad: 'x'.repeat(20_000) } }),
      await call(t, 'POST', path(lease.id), { key: sk, body: { signerId: 'nobody' } }),
      await call(t, 'POST', path((await newDraft()).id), { key: sk, body: {} }),
      await call(t, 'POST', path(lease.id), { key: sk, body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'POST', path(lease.id), { key: limited, body }),
      await call(t, 'POST', path(lease.id), { key: limited, body }),
      await call(broken(), 'POST', path(lease.id), { key: KEY, body }),
    ];
  },
  async revokeSession() {
    const lease = await t.createLease();
    const session = await t.createSession(lease.id, 'tenant');
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (documentId: string, keyId = session.id) => `/documents/${documentId}/sessions/${keyId}`;
    return [
      await call(t, 'DELETE', path(lease.id), { key: sk }),
      await call(t, 'DELETE', path(lease.id, 'xyz'), { key: sk }),
      await call(t, 'DELETE', path(lease.id)),
      await call(t, 'DELETE', path(lease.id), { key: (await t.createKey()).secret }),
      await call(t, 'DELETE', path(DOC), { key: sk }),
      await call(t, 'DELETE', path(lease.id, `key_${'Q'.repeat(24)}`), { key: sk }),
      await call(t, 'DELETE', path(lease.id), { key: limited }),
      await call(t, 'DELETE', path(lease.id), { key: limited }),
      await call(broken(), 'DELETE', path(lease.id), { key: KEY }),
    ];
  },
  async remindSigner() {
    // The same app on a server that sends mail (`t` sends none: its refusal is a 422 naming `delivery`).
    const mail = { smtpUrl: 'smtp://127.0.0.1:1', from: 'signet@acme.test', timeoutMs: 1000 };
    const mailing = { app: createApp({ storage: t.storage, rateLimits: t.rateLimits, config: { ...t.config, mail }, secret: t.secret, logger: capturingLogger().logger }) };
    const [lease, voided] = [await t.createLease(), await t.createLease()];
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    expect((await call(t, 'POST', `/documents/${voided.id}/void`, { key: sk, body: { reason: 'Sent to the wrong tenant' } })).status).toBe(200);
    const path = (documentId: string, signerId = 'tenant') => `/documents/${documentId}/signers/${signerId}/remind`;
    return [
      await call(mailing, 'POST', path(lease.id), { key: sk }),
      await call(mailing, 'POST', path(lease.id), { key: sk }),
      await call(mailing, 'POST', path('xyz'), { key: sk }),
      await call(mailing, 'POST', path(lease.id), { ip: '198.51.100.43' }),
      await call(mailing, 'POST', path(lease.id), { key: (await t.createKey()).secret, ip: '198.51.100.43' }),
      await call(mailing, 'POST', path(DOC), { key: sk }),
      await call(mailing, 'POST', path(lease.id, 'nobody'), { key: sk }),
      await call(mailing, 'POST', path(voided.id), { key: sk }),
      await call(t, 'POST', path(lease.id, 'landlord'), { key: sk }),
      await call(mailing, 'POST', path(lease.id, 'landlord'), { key: limited }),
      await call(mailing, 'POST', path(lease.id, 'landlord'), { key: limited }),
      await call(broken(), 'POST', path(lease.id), { key: KEY }),
    ];
  },
  async getOrganization() {
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    return [
      await call(t, 'GET', '/organization', { key: sk }),
      await call(t, 'GET', '/organization'),
      await call(t, 'GET', '/organization', { key: (await t.createKey()).secret }),
      await call(t, 'GET', '/organization', { key: limited }),
      await call(t, 'GET', '/organization', { key: limited }),
      await call(broken(), 'GET', '/organization', { key: KEY }),
    ];
  },
  async updateOrganization() {
    // An organization of its own: the name and colour changed here are no other scenario's.
    const organization = await ensureOrganization(t.storage.db.query, `branded-${randomBytes(4).toString('hex')}`, 'Branded');
    const sk = (await t.createKey({ kind: 'sk' }, organization.id)).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 }, organization.id)).secret;
    const body = { name: 'Acme Property Management', brandColor: '#0a7d4f' };
    return [
      await call(t, 'PATCH', '/organization', { key: sk, body }),
      await call(t, 'PATCH', '/organization', { key: sk, body: { brandColor: null } }),
      await call(t, 'PATCH', '/organization', { key: sk, body: { brandColor: 'red' } }),
      await call(t, 'PATCH', '/organization', { key: sk, body: {} }),
      await call(t, 'PATCH', '/organization', { key: sk, body: { name: 'x'.repeat(8 * 1024) } }),
      await call(t, 'PATCH', '/organization', { key: sk, body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'PATCH', '/organization', { body }),
      await call(t, 'PATCH', '/organization', { key: (await t.createKey({}, organization.id)).secret, body }),
      await call(t, 'PATCH', '/organization', { key: limited, body }),
      await call(t, 'PATCH', '/organization', { key: limited, body }),
      await call(broken(), 'PATCH', '/organization', { key: KEY, body }),
    ];
  },
  async getDraft() {
    const draft = await newDraft();
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/draft`;
    return [
      await call(t, 'GET', path(draft.id), { key: sk }),
      await call(t, 'GET', path('xyz'), { key: sk }),
      await call(t, 'GET', path(draft.id)),
      await call(t, 'GET', path(draft.id), { key: (await t.createKey()).secret }),
      await call(t, 'GET', path(DOC), { key: sk }),
      await call(t, 'GET', path(draft.id), { key: limited }),
      await call(t, 'GET', path(draft.id), { key: limited }),
      await call(broken(), 'GET', path(draft.id), { key: KEY }),
    ];
  },
  async updateDraft() {
    const draft = await newDraft(null);
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/draft`;
    const body = { fields: sampleFields(1) };
    const put = (id: string, options: { key?: string; body?: unknown; headers?: Record<string, string> }, app: { app: TestApp['app'] } = t) =>
      call(app, 'PUT', path(id), { body, ...options, headers: { 'If-Match': '"1"', ...options.headers } });
    return [
      await put(draft.id, { key: sk }),
      await put(draft.id, { key: sk }),
      await put(draft.id, { key: sk, headers: { 'If-Match': '1' } }),
      await put(draft.id, { key: sk, headers: { 'If-Match': '' } }),
      await put('xyz', { key: sk }),
      await put(draft.id, {}),
      await put(draft.id, { key: (await t.createKey()).secret }),
      await put(DOC, { key: sk }),
      await put((await t.createDocument({ pages: 1 })).id, { key: sk }),
      await put(draft.id, { key: (await small.createKey({ kind: 'sk' })).secret, body: { fields: [], pad: 'x'.repeat(4096) } }, small),
      await put(draft.id, { key: sk, body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await put(draft.id, { key: limited }),
      await put(draft.id, { key: limited }),
      await put(draft.id, { key: KEY }, broken()),
    ];
  },
  async sendDocument() {
    const [draft, empty] = [await newDraft(), await newDraft(null)];
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/send`;
    const send = (id: string, key?: string, ifMatch = '"1"', app: { app: TestApp['app'] } = t) =>
      call(app, 'POST', path(id), { ...(key ? { key } : {}), headers: { 'If-Match': ifMatch } });
    return [
      await send(draft.id, sk, '"2"'),
      await send(draft.id, sk),
      await send(draft.id, sk),
      await send(empty.id, sk),
      await send(empty.id, sk, ''),
      await send(empty.id, sk, 'nope'),
      await send('xyz', sk),
      await send(empty.id),
      await send(empty.id, (await t.createKey()).secret),
      await send(DOC, sk),
      await send(empty.id, limited),
      await send(empty.id, limited),
      await send(empty.id, KEY, '"1"', broken()),
    ];
  },
  async eraseDocument() {
    const [document, erased] = [await t.createDocument({ pages: 1 }), await t.createDocument({ pages: 1 })];
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}`;
    expect((await call(t, 'DELETE', path(erased.id), { key: sk })).status).toBe(200);
    return [
      await call(t, 'DELETE', path(document.id), { key: sk }),
      await call(t, 'DELETE', path('xyz'), { key: sk }),
      // From addresses of their own: this file's refusals would otherwise use up the failed-authentication limit.
      await call(t, 'DELETE', path(document.id), { ip: '198.51.100.40' }),
      await call(t, 'DELETE', path(document.id), { key: (await t.createKey()).secret, ip: '198.51.100.40' }),
      await call(t, 'DELETE', path(DOC), { key: sk }),
      await call(t, 'DELETE', path(erased.id), { key: sk }),
      await call(t, 'DELETE', path(DOC), { key: limited }),
      await call(t, 'DELETE', path(DOC), { key: limited }),
      await call(broken(), 'DELETE', path(document.id), { key: KEY }),
    ];
  },
  async voidDocument() {
    const [pending, completed] = [await t.createDocument({ pages: 1 }), await t.createDocument({ pages: 1 })];
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: (await t.createKey()).secret, body: await buildPayload(completed) })).status).toBe(201);
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/void`;
    const body = { reason: 'Sent to the wrong tenant' };
    return [
      await call(t, 'POST', path(pending.id), { key: sk, body }),
      await call(t, 'POST', path(pending.id), { key: sk, body: { reason: '' } }),
      // From addresses of their own: this file's refusals would otherwise use up the failed-authentication limit.
      await call(t, 'POST', path(pending.id), { body, ip: '198.51.100.41' }),
      await call(t, 'POST', path(pending.id), { key: (await t.createKey()).secret, body, ip: '198.51.100.41' }),
      await call(t, 'POST', path(DOC), { key: sk, body }),
      await call(t, 'POST', path(completed.id), { key: sk, body }),
      await call(t, 'POST', path(pending.id), { key: sk, body: { reason: 'x'.repeat(20_000) } }),
      await call(t, 'POST', path(pending.id), { key: sk, body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'POST', path(pending.id), { key: limited, body }),
      await call(t, 'POST', path(pending.id), { key: limited, body }),
      await call(broken(), 'POST', path(pending.id), { key: KEY, body }),
    ];
  },
  async createBuilderSession() {
    const draft = await newDraft();
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/builder-sessions`;
    const body = { allowSend: true, origins: ['https://host.example'] };
    return [
      await call(t, 'POST', path(draft.id), { key: sk, body }),
      await call(t, 'POST', path(draft.id), { key: sk, body: { expiresInSeconds: 1 } }),
      await call(t, 'POST', path(draft.id), { body }),
      await call(t, 'POST', path(draft.id), { key: (await t.createKey()).secret, body }),
      await call(t, 'POST', path(DOC), { key: sk, body }),
      await call(t, 'POST', path((await t.createDocument({ pages: 1 })).id), { key: sk, body }),
      await call(t, 'POST', path(draft.id), { key: sk, body: { pad: 'x'.repeat(20_000) } }),
      await call(t, 'POST', path(draft.id), { key: sk, body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'POST', path(draft.id), { key: limited, body }),
      await call(t, 'POST', path(draft.id), { key: limited, body }),
      await call(broken(), 'POST', path(draft.id), { key: KEY, body }),
    ];
  },
  async revokeBuilderSession() {
    const draft = await newDraft();
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const created = await call(t, 'POST', `/documents/${draft.id}/builder-sessions`, { key: sk, body: {} });
    const session = ((await created.json()) as { data: { id: string } }).data;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (documentId: string, keyId = session.id) => `/documents/${documentId}/builder-sessions/${keyId}`;
    return [
      await call(t, 'DELETE', path(draft.id), { key: sk }),
      await call(t, 'DELETE', path(draft.id, 'xyz'), { key: sk }),
      await call(t, 'DELETE', path(draft.id)),
      await call(t, 'DELETE', path(draft.id), { key: (await t.createKey()).secret }),
      await call(t, 'DELETE', path(DOC), { key: sk }),
      await call(t, 'DELETE', path(draft.id, `key_${'Q'.repeat(24)}`), { key: sk }),
      await call(t, 'DELETE', path(draft.id), { key: limited }),
      await call(t, 'DELETE', path(draft.id), { key: limited }),
      await call(broken(), 'DELETE', path(draft.id), { key: KEY }),
    ];
  },
  async createTemplate() {
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const upload = async (app: { app: TestApp['app'] }, key: string, body?: FormData | string) =>
      app.app.request('/templates', { method: 'POST', headers: { 'X-API-Key': key, 'X-Forwarded-For': '203.0.113.7' }, body: body ?? (await uploadForm()) });
    const pooled = alteredApp({ pdfPool: failingPool });
    const responses = [
      await upload(t, sk),
      await upload(t, sk, 'file=x'),
      await upload(t, KEY),
      await upload(t, (await t.createKey()).secret),
      await upload(small, (await small.createKey({ kind: 'sk' })).secret, await uploadForm(3)),
      await upload(t, limited),
      await upload(t, limited),
      await upload(broken(), KEY),
    ];
    poolFailure = () => new PdfLimitError('memory', 'the PDF needs more memory than allowed');
    responses.push(await upload(pooled, sk));
    poolFailure = () => new PdfPoolBusyError();
    responses.push(await upload(pooled, sk));
    return responses;
  },
  async listTemplates() {
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    await newTemplate();
    return [
      await call(t, 'GET', '/templates?limit=2', { key: sk }),
      await call(t, 'GET', '/templates?limit=0', { key: sk }),
      await call(t, 'GET', '/templates'),
      await call(t, 'GET', '/templates', { key: (await t.createKey()).secret }),
      await call(t, 'GET', '/templates', { key: limited }),
      await call(t, 'GET', '/templates', { key: limited }),
      await call(broken(), 'GET', '/templates', { key: KEY }),
    ];
  },
  async getTemplate() {
    const { id, sk } = await newTemplate();
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const other = await newTemplate();
    const builder = ((await (await call(t, 'POST', `/templates/${other.id}/builder-sessions`, { key: sk, body: {} })).json()) as { data: { key: string } }).data;
    return [
      await call(t, 'GET', `/templates/${id}`, { key: sk }),
      await call(t, 'GET', '/templates/xyz', { key: sk }),
      await call(t, 'GET', `/templates/${id}`),
      await call(t, 'GET', `/templates/${id}`, { key: builder.key }),
      await call(t, 'GET', `/templates/${TPL}`, { key: sk }),
      await call(t, 'GET', `/templates/${id}`, { key: limited }),
      await call(t, 'GET', `/templates/${id}`, { key: limited }),
      await call(broken(), 'GET', `/templates/${id}`, { key: KEY }),
    ];
  },
  async updateTemplate() {
    const { id, sk } = await newTemplate();
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const body = { fields: sampleFields(1) };
    const put = (templateId: string, options: { key?: string; body?: unknown; headers?: Record<string, string> }, app: { app: TestApp['app'] } = t) =>
      call(app, 'PUT', `/templates/${templateId}`, { body, ...options, headers: { 'If-Match': '"1"', ...options.headers } });
    return [
      await put(id, { key: sk }),
      await put(id, { key: sk }),
      await put(id, { key: sk, body: { fields: 'none' }, headers: { 'If-Match': '"2"' } }),
      await put(id, { key: sk, headers: { 'If-Match': '' } }),
      await put('xyz', { key: sk }),
      await put(id, {}),
      await put(id, { key: (await t.createKey()).secret }),
      await put(TPL, { key: sk }),
      await put(id, { key: (await small.createKey({ kind: 'sk' })).secret, body: { fields: [], pad: 'x'.repeat(4096) } }, small),
      await put(id, { key: sk, body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await put(id, { key: limited }),
      await put(id, { key: limited }),
      await put(id, { key: KEY }, broken()),
    ];
  },
  async deleteTemplate() {
    const { id, sk } = await newTemplate();
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    return [
      await call(t, 'DELETE', `/templates/${id}`, { key: sk }),
      await call(t, 'DELETE', '/templates/xyz', { key: sk }),
      await call(t, 'DELETE', `/templates/${id}`),
      await call(t, 'DELETE', `/templates/${id}`, { key: (await t.createKey()).secret }),
      await call(t, 'DELETE', `/templates/${id}`, { key: sk }),
      await call(t, 'DELETE', `/templates/${id}`, { key: limited }),
      await call(t, 'DELETE', `/templates/${id}`, { key: limited }),
      await call(broken(), 'DELETE', `/templates/${id}`, { key: KEY }),
    ];
  },
  async createTemplateDocument() {
    const { id, sk } = await newTemplate();
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (templateId: string) => `/templates/${templateId}/documents`;
    return [
      await call(t, 'POST', path(id), { key: sk, body: {} }),
      await call(t, 'POST', path(id), { key: sk, body: { signers: [{ role: 'signer', name: 'Ada' }] } }),
      await call(t, 'POST', path(id), { key: sk, body: { values: { signed_date: { type: 'date', content: '2026-02-31' } } } }),
      await call(t, 'POST', path(id), { body: {} }),
      await call(t, 'POST', path(id), { key: (await t.createKey()).secret, body: {} }),
      await call(t, 'POST', path(TPL), { key: sk, body: {} }),
      await call(small, 'POST', path(id), { key: (await small.createKey({ kind: 'sk' })).secret, body: { pad: 'x'.repeat(4096) } }),
      await call(t, 'POST', path(id), { key: sk, body: '{}', headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'POST', path(id), { key: limited, body: {} }),
      await call(t, 'POST', path(id), { key: limited, body: {} }),
      await call(broken(), 'POST', path(id), { key: KEY, body: {} }),
    ];
  },
  async createTemplateBuilderSession() {
    const { id, sk } = await newTemplate();
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (templateId: string) => `/templates/${templateId}/builder-sessions`;
    const body = { origins: ['https://host.example'] };
    return [
      await call(t, 'POST', path(id), { key: sk, body }),
      await call(t, 'POST', path(id), { key: sk, body: { expiresInSeconds: 1 } }),
      await call(t, 'POST', path(id), { body }),
      await call(t, 'POST', path(id), { key: (await t.createKey()).secret, body }),
      await call(t, 'POST', path(TPL), { key: sk, body }),
      await call(t, 'POST', path(id), { key: sk, body: { pad: 'x'.repeat(20_000) } }),
      await call(t, 'POST', path(id), { key: sk, body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'POST', path(id), { key: limited, body }),
      await call(t, 'POST', path(id), { key: limited, body }),
      await call(broken(), 'POST', path(id), { key: KEY, body }),
    ];
  },
  async revokeTemplateBuilderSession() {
    const { id, sk } = await newTemplate();
    const created = await call(t, 'POST', `/templates/${id}/builder-sessions`, { key: sk, body: {} });
    const session = ((await created.json()) as { data: { id: string } }).data;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (templateId: string, keyId = session.id) => `/templates/${templateId}/builder-sessions/${keyId}`;
    return [
      await call(t, 'DELETE', path(id), { key: sk }),
      await call(t, 'DELETE', path(id, 'xyz'), { key: sk }),
      await call(t, 'DELETE', path(id)),
      await call(t, 'DELETE', path(id), { key: (await t.createKey()).secret }),
      await call(t, 'DELETE', path(TPL), { key: sk }),
      await call(t, 'DELETE', path(id), { key: limited }),
      await call(t, 'DELETE', path(id), { key: limited }),
      await call(broken(), 'DELETE', path(id), { key: KEY }),
    ];
  },
  async createBulkJob() {
    const { id, sk } = await newTemplate();
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (templateId: string) => `/templates/${templateId}/bulk`;
    const body = { rows: [{ key: 'row-1' }] };
    return [
      await call(t, 'POST', path(id), { key: sk, body }),
      await call(t, 'POST', path(id), { key: sk, body: 'key\nrow-2\n', headers: { 'Content-Type': 'text/csv' } }),
      await call(t, 'POST', path(id), { key: sk, body: { rows: [{ key: 'a' }, { key: 'a' }] } }),
      await call(t, 'POST', path(id), { body }),
      await call(t, 'POST', path(id), { key: (await t.createKey()).secret, body }),
      await call(t, 'POST', path(TPL), { key: sk, body }),
      await call(small, 'POST', path(id), { key: (await small.createKey({ kind: 'sk' })).secret, body: { rows: [{ key: 'x'.repeat(4096) }] } }),
      await call(t, 'POST', path(id), { key: sk, body: 'key', headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'POST', path(id), { key: limited, body }),
      await call(t, 'POST', path(id), { key: limited, body }),
      await call(broken(), 'POST', path(id), { key: KEY, body }),
    ];
  },
  async getBulkJob() {
    return bulkJobRefusals((id) => `/bulk-jobs/${id}`);
  },
  async listBulkJobRows() {
    return bulkJobRefusals((id) => `/bulk-jobs/${id}/rows`, '?limit=1');
  },
  async getTemplateFile() {
    const { id, sk } = await newTemplate();
    const { documentUrl, fileSize } = ((await (await call(t, 'GET', `/templates/${id}`, { key: sk })).json()) as { data: { documentUrl: string; fileSize: number } }).data;
    const file = new URL(documentUrl).pathname + new URL(documentUrl).search;
    const whole = await t.app.request(file);
    return [
      whole,
      await t.app.request(file, { headers: { Range: 'bytes=0-99' } }),
      await t.app.request(file, { headers: { 'If-None-Match': whole.headers.get('ETag')! } }),
      await t.app.request(file.replace(id, 'xyz')),
      await t.app.request(file.replace(/token=.*/, 'token=nope')),
      await t.app.request(file, { headers: { Range: `bytes=${fileSize + 10}-` } }),
      await broken().app.request(file),
    ];
  },
  async getSignedDocumentFile() {
    const { document, pk, signed } = await sealedDocument();
    const whole = await t.app.request(signed);
    const unsealed = await t.createDocument({ pages: 1 });
    return [
      whole,
      await t.app.request(signed, { headers: { Range: 'bytes=0-99' } }),
      await t.app.request(signed, { headers: { 'If-None-Match': whole.headers.get('ETag')! } }),
      await t.app.request(signed.replace(document.id, 'xyz')),
      await t.app.request(signed.replace(/token=.*/, 'token=nope')),
      await t.app.request((await documentUrls(t, pk, unsealed.id)).file.replace('/file?', '/signed.pdf?')),
      await t.app.request(signed, { headers: { Range: 'bytes=99999999-' } }),
      await broken().app.request(signed),
    ];
  },
  async getSignedDocument() {
    const { document } = await sealedDocument();
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/signed.pdf`;
    const whole = await call(t, 'GET', path(document.id), { key: sk });
    return [
      whole,
      await call(t, 'GET', path(document.id), { key: sk, headers: { Range: 'bytes=0-99' } }),
      await call(t, 'GET', path(document.id), { key: sk, headers: { 'If-None-Match': whole.headers.get('ETag')! } }),
      await call(t, 'GET', path(document.id), { key: sk, headers: { Range: 'bytes=99999999-' } }),
      await call(t, 'GET', path('xyz'), { key: sk }),
      await call(t, 'GET', path(document.id)),
      await call(t, 'GET', path(document.id), { key: (await t.createKey()).secret }),
      await call(t, 'GET', path(DOC), { key: sk }),
      await call(t, 'GET', path((await t.createDocument({ pages: 1 })).id), { key: sk }),
      await call(t, 'GET', path(document.id), { key: limited }),
      await call(t, 'GET', path(document.id), { key: limited }),
      await call(broken(), 'GET', path(document.id), { key: KEY }),
    ];
  },
  async getAuditTrail() {
    const document = await t.createDocument({ pages: 1 });
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const path = (id: string) => `/documents/${id}/audit`;
    return [
      await call(t, 'GET', path(document.id), { key: sk }),
      await call(t, 'GET', path('xyz'), { key: sk }),
      await call(t, 'GET', path(document.id)),
      await call(t, 'GET', path(document.id), { key: (await t.createKey()).secret }),
      await call(t, 'GET', path(DOC), { key: sk }),
      await call(t, 'GET', path(document.id), { key: limited }),
      await call(t, 'GET', path(document.id), { key: limited }),
      await call(broken(), 'GET', path(document.id), { key: KEY }),
    ];
  },
  async verifyDocument() {
    const pk = (await t.createKey()).secret;
    const limited = (await t.createKey({ rateLimit: 1 })).secret;
    const verify = async (app: { app: TestApp['app'] }, key: string, body?: FormData | string, headers: Record<string, string> = {}) => {
      const form = new FormData();
      form.set('file', new File([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>], 'a.pdf'));
      return app.app.request('/verify', {
        method: 'POST',
        headers: { 'X-API-Key': key, 'X-Forwarded-For': '203.0.113.7', ...headers },
        body: body ?? form,
      });
    };
    const large = new FormData();
    large.set('file', new File([new Uint8Array(5000)], 'big.pdf'));
    const pooled = alteredApp({ pdfPool: failingPool });
    const responses = [
      await verify(t, pk),
      await verify(t, pk, 'file=x'),
      await verify(t, KEY),
      await verify(t, (await t.createKey({ kind: 'sk' })).secret, undefined, { Origin: 'https://host.example' }),
      await verify(small, (await small.createKey()).secret, large),
      await verify(t, limited),
      await verify(t, limited),
      await verify(broken(), KEY),
    ];
    poolFailure = () => new PdfLimitError('time', 'the PDF took longer than 10000 ms to process');
    responses.push(await verify(pooled, pk));
    poolFailure = () => new PdfPoolBusyError();
    responses.push(await verify(pooled, pk));
    return responses;
  },
  async createWebhook() {
    const sk = (await t.createKey({ kind: 'sk' })).secret;
    const limited = (await t.createKey({ kind: 'sk', rateLimit: 1 })).secret;
    const body = { url: HOOK_URL, events: ['document.completed', 'document.sealed'] };
    return [
      await call(t, 'POST', '/webhooks', { key: sk, body }),
      await call(t, 'POST', '/webhooks', { key: sk, body: { url: HOOK_URL, events: ['document.signed'] } }),
      await call(t, 'POST', '/webhooks', { body }),
      await call(t, 'POST', '/webhooks', { key: (await t.createKey()).secret, body }),
      await call(t, 'POST', '/webhooks', { key: sk, body: { ...body, description: 'x'.repeat(20_000) } }),
      await call(t, 'POST', '/webhooks', { key: sk, body: { ...body, url: 'http://127.0.0.1:8080/hook' } }),
      await call(t, 'POST', '/webhooks', { key: sk, body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      await call(t, 'POST', '/webhooks', { key: limited, body }),
      await call(t, 'POST', '/webhooks', { key: limited, body }),
      await call(broken(), 'POST', '/webhooks', { key: KEY, body }),
    ];
  },
  async listWebhooks() {
    const { sk } = await ownWebhook();
    return [
      await call(t, 'GET', '/webhooks?limit=1', { key: sk }),
      await call(t, 'GET', '/webhooks?limit=0', { key: sk }),
      ...(await webhookRefusals('GET', () => '/webhooks', undefined, { one: false })),
    ];
  },
  async getWebhook() {
    const { sk, id } = await ownWebhook();
    return [await call(t, 'GET', `/webhooks/${id}`, { key: sk }), ...(await webhookRefusals('GET', (hook) => `/webhooks/${hook}`))];
  },
  async updateWebhook() {
    const { sk, id } = await ownWebhook();
    const path = `/webhooks/${id}`;
    return [
      await call(t, 'PATCH', path, { key: sk, body: { events: ['document.sealed'], enabled: false } }),
      await call(t, 'PATCH', path, { key: sk, body: {} }),
      await call(t, 'PATCH', path, { key: sk, body: { description: 'x'.repeat(20_000) } }),
      await call(t, 'PATCH', path, { key: sk, body: { url: 'http://10.0.0.1/hook' } }),
      await call(t, 'PATCH', path, { key: sk, body: '{"enabled":false}', headers: { 'Content-Type': 'text/plain' } }),
      ...(await webhookRefusals('PATCH', (hook) => `/webhooks/${hook}`, { enabled: true })),
    ];
  },
  async deleteWebhook() {
    const { sk, id } = await ownWebhook();
    return [await call(t, 'DELETE', `/webhooks/${id}`, { key: sk }), ...(await webhookRefusals('DELETE', (hook) => `/webhooks/${hook}`))];
  },
  async rotateWebhookSecret() {
    const { sk, id } = await ownWebhook();
    const path = (hook: string) => `/webhooks/${hook}/rotate-secret`;
    return [await call(t, 'POST', path(id), { key: sk }), ...(await webhookRefusals('POST', path))];
  },
  async listWebhookDeliveries() {
    const { sk, id } = await ownWebhook();
    const path = (hook: string) => `/webhooks/${hook}/deliveries`;
    return [
      await call(t, 'GET', path(id), { key: sk }),
      await call(t, 'GET', `${path(id)}?cursor=nope`, { key: sk }),
      ...(await webhookRefusals('GET', path)),
    ];
  },
  async retryWebhookDelivery() {
    const { sk, id } = await ownWebhook();
    const queued = await call(t, 'POST', `/webhooks/${id}/test`, { key: sk });
    const { data } = (await queued.json()) as { data: { id: string } };
    const path = (hook: string, delivery = data.id) => `/webhooks/${hook}/deliveries/${delivery}/retry`;
    const unknown = `dlv_${'Q'.repeat(30)}`;
    const retried = await call(t, 'POST', path(id), { key: sk });
    const missing = await call(t, 'POST', path(id, unknown), { key: sk });
    await call(t, 'PATCH', `/webhooks/${id}`, { key: sk, body: { enabled: false } });
    return [
      retried,
      missing,
      await call(t, 'POST', path(id), { key: sk }),
      await call(t, 'POST', path(id, 'dlv_short'), { key: sk }),
      ...(await webhookRefusals('POST', (hook) => path(hook, unknown))),
    ];
  },
  async testWebhook() {
    const { sk, id } = await ownWebhook();
    const path = (hook: string) => `/webhooks/${hook}/test`;
    const sent = await call(t, 'POST', path(id), { key: sk });
    await call(t, 'PATCH', `/webhooks/${id}`, { key: sk, body: { enabled: false } });
    return [sent, await call(t, 'POST', path(id), { key: sk }), ...(await webhookRefusals('POST', path))];
  },
};

beforeAll(async () => {
  // Every operation's scenarios send a request without a key and one with an unknown key: more than the default
  // limit of failed authentications a minute from one address (whose own 429 is the auth tests' concern).
  t = await createTestApp(undefined, { AUTH_FAILURES_PER_MINUTE: '10000' });
  small = await createTestApp(undefined, { MAX_BODY_BYTES: '2048', MAX_PDF_BYTES: '2000' });
  const document = (await (await t.app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, Operation & { operationId: string }>>;
    components: unknown;
  };
  components = document.components;
  operations = Object.fromEntries(Object.values(document.paths).flatMap((methods) => Object.values(methods).map((op) => [op.operationId, op])));
});
afterAll(async () => {
  await t.close();
  await small.close();
});

describe('/openapi.json describes every real answer', () => {
  it.each(Object.keys(endpoints) as EndpointName[])('%s', async (operationId) => {
    const statuses = new Set<number>();
    for (const response of await scenarios[operationId]()) statuses.add(await documented(operationId, response));
    const listed = Object.keys(operations[operationId]!.responses).map(Number);
    expect([...statuses].sort((a, b) => a - b)).toEqual(listed.sort((a, b) => a - b));
  });
});

/** The service routes `/openapi.json` describes beside the contract's endpoints (health, readiness, metrics). */
type ServiceOperation = 'getHealth' | 'getReadiness' | 'getMetrics';

const METRICS_TOKEN = `mt_${randomBytes(24).toString('base64url')}`;

const serviceScenarios: Record<ServiceOperation, () => Promise<Response[]>> = {
  getHealth: async () => {
    const { logger } = capturingLogger();
    const stopping = createApp({ storage: t.storage, rateLimits: t.rateLimits, config: t.config, secret: t.secret, logger }, { isShuttingDown: () => true });
    return [await call(t, 'GET', '/healthz'), await stopping.request('/healthz')];
  },
  getReadiness: async () => {
    const closed = await sqliteEngine.open();
    await closed.close();
    return [await call(t, 'GET', '/readyz'), await call(alteredApp({ storage: closed }), 'GET', '/readyz')];
  },
  getMetrics: async () => {
    const { logger } = capturingLogger();
    const config = { ...t.config, metricsToken: METRICS_TOKEN };
    const enabled = { app: createApp({ storage: t.storage, rateLimits: t.rateLimits, config, secret: t.secret, logger }) };
    return [
      await call(enabled, 'GET', '/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }),
      await call(enabled, 'GET', '/metrics', { key: (await t.createKey({ kind: 'sk' })).secret }),
      await call(t, 'GET', '/metrics'),
    ];
  },
};

describe('/openapi.json describes the service routes as they answer', () => {
  it.each(Object.keys(serviceScenarios) as ServiceOperation[])('%s', async (operationId) => {
    const statuses = new Set<number>();
    for (const response of await serviceScenarios[operationId]()) statuses.add(await documented(operationId, response));
    const listed = Object.keys(operations[operationId]!.responses).map(Number);
    expect([...statuses].sort((a, b) => a - b)).toEqual(listed.sort((a, b) => a - b));
  });
});
