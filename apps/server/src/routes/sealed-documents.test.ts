import { execFile } from 'node:child_process';
import { hash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuditTrailSchema,
  ManagedDocumentSchema,
  SdkDocumentSchema,
  VerifyResultSchema,
  successEnvelope,
} from '@signet/contract';
import { generateSamplePdf } from '../pdf/sample.js';
import type { DocumentRecord } from '../storage/types.js';
import { buildPayload, call, createTestApp, type TestApp } from '../../test/support/harness.js';
import { readDocumentContent } from '../storage/queries/document-files.js';
import { ensureOrganization } from '../storage/queries/organizations.js';

const run = promisify(execFile);
const SIGNER = { ip: '198.51.100.23', ua: 'Mozilla/5.0 (X11; Linux x86_64) SignerBrowser/1.0' };

let t: TestApp;
let sk: string;
let pk: string;
let dir: string;
/** A document taken through the whole life: opened, submitted, sealed. */
let signed: { document: DocumentRecord; pdf: Uint8Array; openedAt: number };
/** A document nobody submitted. */
let pending: DocumentRecord;

const path = (document: { id: string }, tail = 'signed.pdf') => `/documents/${document.id}/${tail}`;

async function documentUrls(documentId: string, key = pk) {
  const res = await call(t, 'GET', `/sdk/documents/${documentId}`, { key });
  const body = SdkDocumentSchema.parse(await res.json());
  const local = (url: string | undefined) => (url ? new URL(url).pathname + new URL(url).search : undefined);
  return { file: local(body.documentUrl)!, signed: local(body.signedDocumentUrl) };
}

function verify(pdf: Uint8Array, key = sk) {
  const form = new FormData();
  form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], 'check.pdf', { type: 'application/pdf' }));
  return t.app.request('/verify', { method: 'POST', headers: { 'X-API-Key': key }, body: form });
}

async function pdfsig(pdf: Uint8Array): Promise<string> {
  const file = join(dir, `${hash('sha256', pdf, 'hex')}.pdf`);
  await writeFile(file, pdf);
  return (await run('pdfsig', [file])).stdout;
}

beforeAll(async () => {
  t = await createTestApp();
  sk = (await t.createKey({ kind: 'sk' })).secret;
  pk = (await t.createKey()).secret;
  dir = await mkdtemp(join(tmpdir(), 'signet-sealed-'));
  pending = await t.createDocument({ pages: 1 });

  const document = await t.createDocument({ pages: 2 });
  const { file } = await documentUrls(document.id);
  const openedAt = Date.now();
  for (const ua of [SIGNER.ua, 'A later visit/2.0']) {
    const opened = await t.app.request(file, { headers: { 'User-Agent': ua, 'X-Forwarded-For': SIGNER.ip } });
    expect(opened.status).toBe(200);
  }
  const submit = await call(t, 'POST', '/sdk/documents/submit', {
    key: pk,
    body: await buildPayload(document),
    headers: { 'User-Agent': SIGNER.ua },
    ip: SIGNER.ip,
  });
  expect(submit.status).toBe(201);

  // Not sealed until the worker has run.
  const early = await call(t, 'GET', path(document), { key: sk });
  expect(early.status).toBe(409);
  expect(early.headers.get('Retry-After')).toBe('5');
  expect(await early.json()).toMatchObject({ success: false, error: { code: 'DOCUMENT_NOT_SEALED', details: { sealing: 'pending' } } });
  expect((await documentUrls(document.id)).signed).toBeUndefined();

  expect(await t.sealDue()).toBe(1);
  const res = await call(t, 'GET', path(document), { key: sk });
  expect(res.status).toBe(200);
  signed = { document, pdf: new Uint8Array(await res.arrayBuffer()), openedAt };
}, 60_000);

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('GET /documents/{id}/signed.pdf', () => {
  it('serves the sealed PDF: signed, whole, the original as its first bytes, with a strong ETag of its SHA-256', async () => {
    const res = await call(t, 'GET', path(signed.document), { key: sk });
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('ETag')).toBe(`"${hash('sha256', signed.pdf, 'hex')}"`);
    expect(res.headers.get('Accept-Ranges')).toBe('bytes');
    expect(res.headers.get('Cache-Control')).toBe('private, no-cache');
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="agreement-signed\.pdf"/);
    const report = await pdfsig(signed.pdf);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(report).toContain('ETSI.CAdES.detached');
    const original = await readDocumentContent(t.storage.db.query, signed.document.id, 0, signed.document.fileSize - 1);
    expect(Buffer.from(signed.pdf.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
  });

  it('answers a range with 206, a matching If-None-Match with 304, and an impossible range with 416', async () => {
    const etag = `"${hash('sha256', signed.pdf, 'hex')}"`;
    const part = await call(t, 'GET', path(signed.document), { key: sk, headers: { Range: 'bytes=10-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('Content-Range')).toBe(`bytes 10-99/${signed.pdf.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(signed.pdf.subarray(10, 100)))).toBe(true);
    const same = await call(t, 'GET', path(signed.document), { key: sk, headers: { 'If-None-Match': etag } });
    expect(same.status).toBe(304);
    for (const condition of [`W/${etag}`, `"other", ${etag}`, '*']) {
      const weak = await call(t, 'GET', path(signed.document), { key: sk, headers: { 'If-None-Match': condition } });
      expect(weak.status, condition).toBe(304);
    }
    const other = await call(t, 'GET', path(signed.document), { key: sk, headers: { 'If-None-Match': '"other"' } });
    expect(other.status).toBe(200);
    const beyond = await call(t, 'GET', path(signed.document), { key: sk, headers: { Range: `bytes=${signed.pdf.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('Content-Range')).toBe(`bytes */${signed.pdf.length}`);
    expect(await beyond.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field: 'Range' } } });
  });

  it('409 DOCUMENT_NOT_SEALED with Retry-After for a document not submitted', async () => {
    const res = await call(t, 'GET', path(pending), { key: sk });
    expect(res.status).toBe(409);
    expect(res.headers.get('Retry-After')).toBe('5');
    expect(await res.json()).toMatchObject({
      error: { code: 'DOCUMENT_NOT_SEALED', details: { reason: 'the document has not been submitted yet', sealing: 'pending' } },
    });
  });

  it.each([
    ['no key', undefined, 401, 'INVALID_API_KEY'],
    ['a pk key (a management route)', 'pk', 403, 'INSUFFICIENT_PERMISSIONS'],
    ['an sk key without documents:read', 'sk-write', 403, 'INSUFFICIENT_PERMISSIONS'],
    ['an sk key of another organization', 'sk-other', 404, 'DOCUMENT_NOT_FOUND'],
  ])('refuses %s', async (_case, which, status, code) => {
    const keys: Record<string, () => Promise<string>> = {
      pk: async () => pk,
      'sk-write': async () => (await t.createKey({ kind: 'sk', scopes: ['documents:write'] })).secret,
      'sk-other': async () =>
        (await t.createKey({ kind: 'sk' }, (await ensureOrganization(t.storage.db.query, 'other-org', 'Other')).id)).secret,
    };
    for (const tail of ['signed.pdf', 'audit']) {
      const res = await call(t, 'GET', path(signed.document, tail), { key: which ? await keys[which]!() : undefined });
      expect(res.status, tail).toBe(status);
      expect(await res.json()).toMatchObject({ success: false, error: { code } });
    }
  });

  it('400 for a malformed id, 404 for an unknown one', async () => {
    const malformed = await call(t, 'GET', '/documents/not-an-id/signed.pdf', { key: sk });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    const unknown = await call(t, 'GET', `/documents/doc_${'Z'.repeat(24)}/audit`, { key: sk });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'DOCUMENT_NOT_FOUND' } });
  });
});

describe('the sealing of GET /documents/{id}', () => {
  it('is pending before the seal and sealed, with the file’s SHA-256 and time, after', async () => {
    const before = successEnvelope(ManagedDocumentSchema).parse(await (await call(t, 'GET', `/documents/${pending.id}`, { key: sk })).json());
    expect(before.data.sealing).toEqual({ status: 'pending' });
    const after = successEnvelope(ManagedDocumentSchema).parse(
      await (await call(t, 'GET', `/documents/${signed.document.id}`, { key: sk })).json(),
    );
    expect(after.data.sealing).toEqual({
      status: 'sealed',
      sha256: hash('sha256', signed.pdf, 'hex'),
      sealedAt: expect.stringMatching(/Z$/),
      // No timestamp authority here: the level the seal reached is B-B.
      level: 'B-B',
    });
  });
});

describe("the signer's copy", () => {
  it('is offered as signedDocumentUrl once sealed, with the token of documentUrl, and is the same file', async () => {
    const urls = await documentUrls(signed.document.id);
    expect(urls.signed).toMatch(/\/sdk\/documents\/doc_\w+\/signed\.pdf\?token=/);
    expect(new URL(urls.signed!, 'http://x').searchParams.get('token')).toBe(new URL(urls.file, 'http://x').searchParams.get('token'));
    const res = await t.app.request(urls.signed!, { headers: { Origin: 'https://host.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('private, max-age=300');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('https://host.example');
    // A host page that fetches the file may read its name.
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('Content-Disposition');
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(signed.pdf))).toBe(true);
  });

  it('403 without a token or with a bad one; 409 for an unsealed document', async () => {
    const bare = await t.app.request(`/sdk/documents/${signed.document.id}/signed.pdf`);
    expect(bare.status).toBe(403);
    expect(await bare.json()).toMatchObject({ error: { code: 'INSUFFICIENT_PERMISSIONS' } });
    const tampered = await t.app.request(`/sdk/documents/${signed.document.id}/signed.pdf?token=AAAA`);
    expect(tampered.status).toBe(403);
    const { file } = await documentUrls(pending.id);
    const early = await t.app.request(file.replace('/file?', '/signed.pdf?'));
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ error: { code: 'DOCUMENT_NOT_SEALED' } });
  });
});

describe('GET /documents/{id}/audit', () => {
  it('lists created, the first opening with the signer’s address and browser, submitted and sealed, oldest first', async () => {
    const res = await call(t, 'GET', path(signed.document, 'audit'), { key: sk });
    expect(res.status).toBe(200);
    const { data } = successEnvelope(AuditTrailSchema).parse(await res.json());
    expect(data.documentId).toBe(signed.document.id);
    expect(data.events.map((event) => event.type)).toEqual(['document.created', 'document.opened', 'document.submitted', 'document.sealed']);
    expect(data.events[1]).toMatchObject({ ip: SIGNER.ip, userAgent: SIGNER.ua });
    expect(Date.parse(data.events[1]!.occurredAt)).toBeGreaterThanOrEqual(signed.openedAt - 1);
    expect(data.events[2]).toMatchObject({ ip: SIGNER.ip, userAgent: SIGNER.ua });
    const sealedAt = successEnvelope(ManagedDocumentSchema).parse(
      await (await call(t, 'GET', `/documents/${signed.document.id}`, { key: sk })).json(),
    ).data.sealing.sealedAt;
    expect(data.events[3]).toEqual({ type: 'document.sealed', occurredAt: sealedAt, ip: null, userAgent: null });
  });
});

describe('POST /verify', () => {
  const verdictOf = async (res: Response) => {
    expect(res.status).toBe(200);
    return successEnvelope(VerifyResultSchema).parse(await res.json()).data;
  };

  it('recognizes the sealed file, intact, for an sk or a pk key of its organization', async () => {
    const expected = { sealed: true, intact: true, documentId: signed.document.id, sha256: hash('sha256', signed.pdf, 'hex') };
    expect(await verdictOf(await verify(signed.pdf))).toMatchObject(expected);
    expect(await verdictOf(await verify(signed.pdf, pk))).toMatchObject(expected);
  });

  it('says sealed but not intact once one byte changes, and pdfsig agrees', async () => {
    const flipped = signed.pdf.slice();
    flipped[200] = flipped[200]! ^ 0x01;
    expect(await verdictOf(await verify(flipped))).toMatchObject({ sealed: true, intact: false, documentId: signed.document.id });
    expect(await pdfsig(flipped)).toContain('Digest Mismatch.');
  });

  it('reveals nothing of another organization’s seal, and says no to a PDF it never sealed or to garbage', async () => {
    const other = (await t.createKey({ kind: 'sk' }, (await ensureOrganization(t.storage.db.query, 'third-org', 'Third')).id)).secret;
    // `pades` is what the file itself proves, read from its bytes alone: nothing of the store.
    const pades = expect.objectContaining({ level: expect.any(String), chain: expect.any(Array) });
    expect(await verdictOf(await verify(signed.pdf, other))).toEqual({ sealed: false, intact: false, sha256: hash('sha256', signed.pdf, 'hex'), pades });
    expect(await verdictOf(await verify(await generateSamplePdf({ pages: 1 })))).toMatchObject({ sealed: false, intact: false });
    expect(await verdictOf(await verify(new TextEncoder().encode('%PDF-1.7 /ByteRange [0 1 2 3] /Contents <zz>')))).toMatchObject({ sealed: false });
  });

  it('400 for a body that is not multipart or lacks the file; 401 without a key', async () => {
    const json = await call(t, 'POST', '/verify', { key: sk, body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field: 'body' } } });
    const empty = await t.app.request('/verify', { method: 'POST', headers: { 'X-API-Key': sk }, body: new FormData() });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { field: 'file' } } });
    const anonymous = await t.app.request('/verify', { method: 'POST', body: new FormData() });
    expect(anonymous.status).toBe(401);
  });
});
