import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalPayload } from '@signet/contract';
import { answerProblem, type Answer } from './fuzz-oracle.js';
import { ENDPOINT_PATHS, type Endpoint, type FuzzRequest } from './fuzz-requests.js';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

// The fuzz passes only if its judge can fail: each way an answer can break the contract is caught.

const requestTo = (endpoint: Endpoint, body?: unknown): FuzzRequest => ({
  endpoint,
  method: 'POST',
  path: ENDPOINT_PATHS[endpoint],
  headers: [],
  body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
  chunked: false,
  recipe: [],
});

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return {
    status,
    headers: new Headers({ 'Content-Type': 'application/json', 'X-Request-Id': 'req_1', ...headers }),
    text: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

const envelope = (code: string, requestId = 'req_1') => ({
  success: false,
  error: { code, message: 'Refused' },
  meta: { requestId, timestamp: '2026-01-01T00:00:00.000Z' },
});

describe('answerProblem', () => {
  it('accepts a refusal in the envelope, and validate-key’s own 401', () => {
    expect(answerProblem(requestTo('submit'), answer(400, envelope('VALIDATION_ERROR')))).toBeUndefined();
    expect(answerProblem(requestTo('submit'), answer(415, envelope('VALIDATION_ERROR')))).toBeUndefined();
    expect(answerProblem(requestTo('validate-key'), answer(401, { valid: false, error: 'Unknown API key' }))).toBeUndefined();
  });

  it.each([
    ['a 500, even in the envelope', answer(500, envelope('INTERNAL_ERROR')), /500 answer/],
    ['a bare status', answer(431, ''), /not JSON/],
    ['a body that is not the envelope', answer(400, { error: 'bad' }), /without the error envelope/],
    ['a request id unlike the header', answer(400, envelope('VALIDATION_ERROR', 'req_2')), /X-Request-Id/],
    ['a code that does not go with the status', answer(404, envelope('VALIDATION_ERROR')), /404 with code VALIDATION_ERROR/],
    ['a 429 without Retry-After', answer(429, envelope('RATE_LIMIT_EXCEEDED')), /Retry-After/],
    ['a stack trace in the message', answer(400, { ...envelope('VALIDATION_ERROR'), error: { code: 'VALIDATION_ERROR', message: 'x\n    at f (/app/src/a.ts:1:2)' } }), /internals/],
    ['no X-Request-Id', { ...answer(400, envelope('VALIDATION_ERROR')), headers: new Headers({ 'Content-Type': 'application/json' }) }, /X-Request-Id/],
  ])('flags %s', (_case, given, problem) => {
    expect(answerProblem(requestTo('submit'), given)).toMatch(problem);
  });

  it('flags validate-key’s 401 in the envelope instead of { valid: false, error }', () => {
    expect(answerProblem(requestTo('validate-key'), answer(401, envelope('INVALID_API_KEY')))).toMatch(/valid: false/);
  });

  it('flags an accepted submission whose checksum is wrong, and accepts one whose checksum is right', () => {
    const payload = {
      documentId: 'doc_AAAAAAAAAAAAAAAAAAAAAAAA',
      submittedAt: '2026-11-23T10:00:00.000Z',
      renderContext: { scale: 1, viewportWidth: 800, viewportHeight: 600, devicePixelRatio: 1 },
      pages: [{ pageNumber: 1, width: 612, height: 792, rotation: 0 }],
      fields: [],
    };
    const checksum = createHash('sha256').update(canonicalPayload(payload)).digest('hex');
    const result = { success: true, submissionId: 'sub_AAAAAAAAAAAAAAAAAAAAAAAA', documentId: payload.documentId, timestamp: '2026-11-23T10:00:00.000Z', message: 'ok' };
    expect(answerProblem(requestTo('submit', { ...payload, checksum }), answer(201, result))).toBeUndefined();
    expect(answerProblem(requestTo('submit', { ...payload, checksum: 'f'.repeat(64) }), answer(201, result))).toMatch(/checksum is wrong/);
    expect(answerProblem(requestTo('submit', { ...payload, checksum }), answer(201, { ...result, submissionId: 'x' }))).toMatch(/schema/);
  });

  it('flags an accepted submission with a member the contract does not list, even when its checksum covers it', () => {
    const payload = {
      documentId: 'doc_AAAAAAAAAAAAAAAAAAAAAAAA',
      submittedAt: '2026-11-23T10:00:00.000Z',
      renderContext: { scale: 1, viewportWidth: 800, viewportHeight: 600, devicePixelRatio: 1, zoom: 2 },
      pages: [],
      fields: [],
    };
    const checksum = createHash('sha256').update(canonicalPayload(payload)).digest('hex');
    const result = { success: true, submissionId: 'sub_AAAAAAAAAAAAAAAAAAAAAAAA', documentId: payload.documentId, timestamp: '2026-11-23T10:00:00.000Z', message: 'ok' };
    expect(answerProblem(requestTo('submit', { ...payload, checksum }), answer(201, result))).toMatch(/off the contract's schema \(renderContext: Unrecognized key: "zoom"\)/);
  });

  it('accepts a refusal naming an unknown member the body sent, and flags one naming a member it did not send', () => {
    const refusal = (field: string, name: string) => ({
      ...envelope('VALIDATION_ERROR'),
      error: { code: 'VALIDATION_ERROR', message: 'Refused', details: { field, reason: `received unknown member "${name}"; members not in the schema are refused, not ignored` } },
    });
    const sent = requestTo('submit', { documentId: 'doc_A', fields: [{ id: 'a', value: { type: 'text', content: 'x', html: '<b>' } }] });
    expect(answerProblem(sent, answer(400, refusal('fields[0].value.html', 'html')))).toBeUndefined();
    expect(answerProblem(sent, answer(400, refusal('fields[1].value.html', 'html')))).toMatch(/unknown member at fields\[1\]\.value\.html, where the body has none/);
    expect(answerProblem(sent, answer(400, refusal('fields[0].value.bold', 'bold')))).toMatch(/where the body has none/);
    expect(answerProblem(sent, answer(400, refusal('fields[0].value.html', 'content')))).toMatch(/does not quote the member/);
    expect(answerProblem(sent, answer(400, refusal('fields[0]', '0')))).toMatch(/where the body has none/);
  });

  it('flags a created document off its schema', () => {
    expect(answerProblem(requestTo('create-document'), answer(201, { success: true, data: {}, meta: { requestId: 'req_1', timestamp: 't' } }))).toMatch(/schema/);
  });
});

const DOCUMENT = 'doc_AAAAAAAAAAAAAAAAAAAAAAAA';
const PDF = new TextEncoder().encode('%PDF-1.7\n% a sealed file\n%%EOF\n');
const ETAG = `"${sha256(PDF)}"`;

const readOf = (endpoint: 'signed-document' | 'signed-copy', options: { method?: 'GET' | 'HEAD'; tail?: string; headers?: Record<string, string> } = {}): FuzzRequest => ({
  endpoint,
  method: options.method ?? 'GET',
  path: `${endpoint === 'signed-copy' ? '/sdk' : ''}/documents/${DOCUMENT}/${options.tail ?? 'signed.pdf'}${endpoint === 'signed-copy' ? '?token=t' : ''}`,
  headers: Object.entries(options.headers ?? {}),
  body: undefined,
  chunked: false,
  recipe: [],
});

/** A sealed PDF's answer that keeps every rule, to break one at a time. */
function pdfAnswer(status: number, body: Uint8Array, headers: Record<string, string | undefined> = {}): Answer {
  const all: Record<string, string | undefined> = {
    'Content-Type': 'application/pdf',
    'X-Request-Id': 'req_1',
    ETag: ETAG,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, no-cache',
    'Content-Disposition': 'attachment; filename="a-signed.pdf"',
    'Content-Length': String(body.length),
    ...headers,
  };
  const defined = Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { status, headers: new Headers(defined), text: new TextDecoder().decode(body), bytes: body };
}

describe('answerProblem on the sealed PDF (not JSON)', () => {
  const range = { Range: 'bytes=5-9' };
  const part = (headers: Record<string, string | undefined> = {}) =>
    pdfAnswer(206, PDF.subarray(5, 10), { 'Content-Range': `bytes 5-9/${PDF.length}`, ...headers });

  it('accepts the whole file, a range, a 304, a HEAD, and the signer’s copy with its own caching', () => {
    expect(answerProblem(readOf('signed-document'), pdfAnswer(200, PDF))).toBeUndefined();
    expect(answerProblem(readOf('signed-document', { headers: range }), part())).toBeUndefined();
    const notModified = pdfAnswer(304, new Uint8Array(), { 'Content-Length': undefined, 'Content-Type': undefined });
    expect(answerProblem(readOf('signed-document', { headers: { 'If-None-Match': `"x", ${ETAG}` } }), notModified)).toBeUndefined();
    const head = { ...pdfAnswer(200, PDF), text: '', bytes: new Uint8Array() };
    expect(answerProblem(readOf('signed-document', { method: 'HEAD' }), head)).toBeUndefined();
    const copy = pdfAnswer(200, PDF, { 'Cache-Control': 'private, max-age=300', Vary: 'Origin' });
    expect(answerProblem(readOf('signed-copy'), copy)).toBeUndefined();
  });

  it.each([
    ['JSON for the PDF', readOf('signed-document'), pdfAnswer(200, PDF, { 'Content-Type': 'application/json' }), /200 not application\/pdf/],
    ['a Content-Length that is not the body’s', readOf('signed-document'), pdfAnswer(200, PDF, { 'Content-Length': String(PDF.length + 1) }), /Content-Length \d+ and a body of/],
    ['an ETag that is not the body’s SHA-256', readOf('signed-document'), pdfAnswer(200, PDF, { ETag: `"${'0'.repeat(64)}"` }), /ETag is not the SHA-256/],
    ['no ETag', readOf('signed-document'), pdfAnswer(200, PDF, { ETag: undefined }), /headers off the contract \(ETag/],
    ['a download shown inline', readOf('signed-document'), pdfAnswer(200, PDF, { 'Content-Disposition': 'inline; filename="a.pdf"' }), /Content-Disposition/],
    ['the signer’s copy without Vary: Origin', readOf('signed-copy'), pdfAnswer(200, PDF, { 'Cache-Control': 'private, max-age=300' }), /headers off the contract \(Vary/],
    ['a body that is not a PDF', readOf('signed-document'), pdfAnswer(200, new TextEncoder().encode('{}'), { ETag: `"${sha256('{}')}"` }), /not a PDF/],
    ['a 206 of more bytes than its Content-Range', readOf('signed-document', { headers: range }), { ...part({ 'Content-Length': '6' }), bytes: PDF.subarray(5, 11) }, /206 of 5 bytes by its Content-Range, 6/],
    ['a 206 past the end of the file', readOf('signed-document', { headers: range }), part({ 'Content-Range': `bytes 5-9/9` }), /206 with Content-Range/],
    ['a 206 without Content-Range', readOf('signed-document', { headers: range }), part({ 'Content-Range': undefined }), /Content-Range/],
    ['a 206 nobody asked for', readOf('signed-document'), part(), /without Range/],
    ['a 304 with a body', readOf('signed-document', { headers: { 'If-None-Match': ETAG } }), pdfAnswer(304, PDF), /304 with a body/],
    ['a 304 to an If-None-Match of another version', readOf('signed-document', { headers: { 'If-None-Match': '"x"' } }), pdfAnswer(304, new Uint8Array()), /If-None-Match naming its ETag/],
    ['a HEAD with a body', readOf('signed-document', { method: 'HEAD' }), pdfAnswer(200, PDF), /HEAD answered with a body/],
  ])('flags %s', (_case, request, given, problem) => {
    expect(answerProblem(request, given)).toMatch(problem);
  });

  it("flags a signed copy served for a revoked key's token or a swapped key id, and accepts their 403", () => {
    const copy = pdfAnswer(200, PDF, { 'Cache-Control': 'private, max-age=300', Vary: 'Origin' });
    for (const step of ['the token a revoked key obtained', "token with another key's id", 'token without its key id']) {
      const request = { ...readOf('signed-copy'), recipe: ['sealed', step] };
      expect(answerProblem(request, copy)).toBe(`200 for ${step}`);
      expect(answerProblem(request, answer(403, envelope('INSUFFICIENT_PERMISSIONS')))).toBeUndefined();
    }
  });

  it('flags a 409 DOCUMENT_NOT_SEALED without Retry-After and a 416 without Content-Range', () => {
    expect(answerProblem(readOf('signed-copy'), answer(409, envelope('DOCUMENT_NOT_SEALED'), { 'Retry-After': '5' }))).toBeUndefined();
    expect(answerProblem(readOf('signed-document'), answer(409, envelope('DOCUMENT_NOT_SEALED')))).toMatch(/409 headers off the contract \(Retry-After/);
    expect(answerProblem(readOf('signed-document'), answer(416, envelope('VALIDATION_ERROR'), { 'Content-Range': `bytes */${PDF.length}` }))).toBeUndefined();
    expect(answerProblem(readOf('signed-copy'), answer(416, envelope('VALIDATION_ERROR')))).toMatch(/416 headers off the contract \(Content-Range/);
  });
});

describe('answerProblem on the audit trail and /verify', () => {
  const meta = { requestId: 'req_1', timestamp: '2026-11-23T10:00:00.000Z' };
  const trail = (documentId: string) => ({ success: true, data: { documentId, events: [{ type: 'document.created', occurredAt: meta.timestamp, ip: null, userAgent: null }] }, meta });

  it('accepts the trail of the document the path names, and flags another’s or one off its schema', () => {
    const request = readOf('signed-document', { tail: 'audit' });
    expect(answerProblem(request, answer(200, trail(DOCUMENT)))).toBeUndefined();
    expect(answerProblem(request, answer(200, trail('doc_BBBBBBBBBBBBBBBBBBBBBBBB')))).toMatch(/another document/);
    expect(answerProblem(request, answer(200, { ...trail(DOCUMENT), data: { documentId: DOCUMENT } }))).toMatch(/audit envelope off its schema/);
  });

  const SEALED = sha256('sealed');
  const OTHER = sha256('other');
  const verifyOf = (files: string[]): FuzzRequest => ({ ...requestTo('verify'), files, sealedFiles: { [SEALED]: DOCUMENT } });
  const verdict = (data: Record<string, unknown>) => ({ success: true, data, meta });
  const sealedVerdict = { sealed: true, intact: true, documentId: DOCUMENT, submissionId: 'sub_AAAAAAAAAAAAAAAAAAAAAAAA', sealedAt: meta.timestamp, sha256: SEALED };

  it('accepts a verdict on the file sent: the sealed one intact, another one not sealed or altered', () => {
    expect(answerProblem(verifyOf([SEALED]), answer(200, verdict(sealedVerdict)))).toBeUndefined();
    expect(answerProblem(verifyOf([OTHER]), answer(200, verdict({ sealed: false, intact: false, sha256: OTHER })))).toBeUndefined();
    expect(answerProblem(verifyOf([OTHER]), answer(200, verdict({ ...sealedVerdict, intact: false, sha256: OTHER })))).toBeUndefined();
  });

  it.each([
    ['a sha256 of another file', verifyOf([OTHER]), { sealed: false, intact: false, sha256: SEALED }, /not the SHA-256 of the file sent/],
    ['a verdict without a file sent', verifyOf([]), { sealed: false, intact: false, sha256: OTHER }, /without a file part/],
    ['intact but not sealed', verifyOf([OTHER]), { sealed: false, intact: true, sha256: OTHER }, /intact but not sealed/],
    ['sealed without its ids', verifyOf([OTHER]), { sealed: true, intact: false, sha256: OTHER }, /sealed without its document/],
    ['ids of a file not sealed', verifyOf([OTHER]), { sealed: false, intact: false, documentId: DOCUMENT, sha256: OTHER }, /not sealed, yet naming/],
    ['the sealed file not intact', verifyOf([SEALED]), { ...sealedVerdict, intact: false }, /not called sealed and intact/],
    ['another file intact', verifyOf([OTHER]), { ...sealedVerdict, sha256: OTHER }, /intact, for a file that is no sealed file/],
    ['a sha256 that is not hex', verifyOf(['x']), { sealed: false, intact: false, sha256: 'x' }, /verdict envelope off its schema/],
  ])('flags %s', (_case, request, data, problem) => {
    expect(answerProblem(request, answer(200, verdict(data)))).toMatch(problem);
  });
});

describe('answerProblem on the JSON writes (decline, sessions, webhooks)', () => {
  const meta = { requestId: 'req_1', timestamp: '2026-11-23T10:00:00.000Z' };
  const WEBHOOK = 'wh_AAAAAAAAAAAAAAAAAAAAAAAA';
  const writeTo = (endpoint: Endpoint, path: string, body: unknown): FuzzRequest => ({
    ...requestTo(endpoint, body),
    method: endpoint === 'update-webhook' ? 'PATCH' : 'POST',
    path,
  });
  const decline = writeTo('decline', `/sdk/documents/${DOCUMENT}/decline`, { reason: 'Wrong rent' });
  const declined = { documentId: DOCUMENT, status: 'declined', reason: 'Wrong rent', declinedAt: meta.timestamp };
  const sessionRequest = writeTo('create-session', `/documents/${DOCUMENT}/sessions`, { signerId: 'tenant', expiresInSeconds: 60 });
  const session = {
    id: 'key_AAAAAAAAAAAAAAAAAAAAAAAA',
    documentId: DOCUMENT,
    signerId: 'tenant',
    expiresAt: '2026-11-23T10:01:00.000Z',
    origins: [],
    createdAt: meta.timestamp,
    revokedAt: null,
    key: `pk_${'A'.repeat(40)}`,
  };
  const created = { url: 'https://93.184.216.34/hook', events: ['document.sealed', 'document.declined'] };
  const createRequest = writeTo('create-webhook', '/webhooks', created);
  const webhook = {
    id: WEBHOOK,
    ...created,
    events: ['document.declined', 'document.sealed'],
    description: null,
    enabled: true,
    disabledReason: null,
    createdAt: meta.timestamp,
    updatedAt: meta.timestamp,
  };
  const updateRequest = (body: unknown) => writeTo('update-webhook', `/webhooks/${WEBHOOK}`, body);
  const enveloped = (data: unknown) => ({ success: true, data, meta });

  it('accepts answers that keep the contract and say what was asked (events in any order)', () => {
    expect(answerProblem(decline, answer(200, declined))).toBeUndefined();
    expect(answerProblem(sessionRequest, answer(201, enveloped(session)))).toBeUndefined();
    expect(answerProblem(createRequest, answer(201, enveloped({ ...webhook, secret: 'whsec_AAAA' })))).toBeUndefined();
    expect(answerProblem(updateRequest({ enabled: false, description: 'Orders' }), answer(200, enveloped({ ...webhook, enabled: false, description: 'Orders' })))).toBeUndefined();
  });

  it.each([
    ['a decline of another document', decline, answer(200, { ...declined, documentId: 'doc_BBBBBBBBBBBBBBBBBBBBBBBB' }), /another document/],
    ['a decline whose reason is empty (a NUL cut off)', decline, answer(200, { ...declined, reason: '' }), /reason the contract refuses/],
    ['a decline answered 201', decline, answer(201, declined), /answered 201/],
    ['a decline off its schema', decline, answer(200, { ...declined, status: 'pending' }), /declineDocument answer off the contract/],
    ['a session for another signer', sessionRequest, answer(201, enveloped({ ...session, signerId: 'landlord' })), /signer landlord/],
    ['a session of another lifetime', sessionRequest, answer(201, enveloped({ ...session, expiresAt: '2026-11-23T11:00:00.000Z' })), /3600 s, 60 asked/],
    ['a session key that is no pk key', sessionRequest, answer(201, enveloped({ ...session, key: 'sk_x' })), /createSession answer off the contract \(data\.key/],
    ['a webhook on an IPv4-mapped loopback', writeTo('create-webhook', '/webhooks', { ...created, url: 'http://[::ffff:7f00:1]/' }), answer(201, enveloped({ ...webhook, url: 'http://[::ffff:7f00:1]/', secret: 'whsec_AAAA' })), /internal address/],
    ['a webhook on an IPv4-compatible loopback', writeTo('create-webhook', '/webhooks', { ...created, url: 'http://[::7f00:1]/' }), answer(201, enveloped({ ...webhook, url: 'http://[::7f00:1]/', secret: 'whsec_AAAA' })), /internal address/],
    ['a webhook on a NAT64 metadata address', writeTo('create-webhook', '/webhooks', { ...created, url: 'http://[64:ff9b::a9fe:a9fe]/' }), answer(201, enveloped({ ...webhook, url: 'http://[64:ff9b::a9fe:a9fe]/', secret: 'whsec_AAAA' })), /internal address/],
    ['a webhook on a 6to4 private address', writeTo('create-webhook', '/webhooks', { ...created, url: 'http://[2002:a00:1::1]/' }), answer(201, enveloped({ ...webhook, url: 'http://[2002:a00:1::1]/', secret: 'whsec_AAAA' })), /internal address/],
    ['a webhook of other events', createRequest, answer(201, enveloped({ ...webhook, events: ['document.sealed'], secret: 'whsec_AAAA' })), /events is not as sent/],
    ['a webhook without its secret', createRequest, answer(201, enveloped(webhook)), /data\.secret: required/],
    ['a description cut at a NUL', updateRequest({ description: 'a\u0000b' }), answer(200, enveloped({ ...webhook, description: 'a' })), /description is not as sent/],
    ['another endpoint changed', updateRequest({ enabled: true }), answer(200, enveloped({ ...webhook, id: 'wh_BBBBBBBBBBBBBBBBBBBBBBBB' })), /another endpoint/],
    ['a change accepted from a body that is no object', updateRequest([{ enabled: true }]), answer(200, enveloped(webhook)), /not a JSON object/],
    ['a change accepted with an unknown member', updateRequest({ enabled: true, secret: 'whsec_mine' }), answer(200, enveloped(webhook)), /off the contract's schema \(\(root\): Unrecognized key: "secret"\)/],
    ['a decline accepted with an unknown member', writeTo('decline', `/sdk/documents/${DOCUMENT}/decline`, { reason: 'Wrong rent', signerId: 'tenant' }), answer(200, declined), /off the contract's schema/],
    ['a request id unlike the header', sessionRequest, answer(201, { ...enveloped(session), meta: { ...meta, requestId: 'req_2' } }), /X-Request-Id/],
  ])('flags %s', (_case, request, given, problem) => {
    expect(answerProblem(request, given)).toMatch(problem);
  });
});
