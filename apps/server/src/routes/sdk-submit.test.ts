import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, SubmissionResultSchema, submissionChecksum } from '@signet/contract';
import { buildPayload, call, completeValues, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { pngDataUrl } from '../../test/submissions/test-png.js';
import type { DocumentRecord } from '../storage/types.js';
import { MAX_JSON_DEPTH } from '../http/json-body.js';
import { findDocument } from '../storage/queries/documents.js';
import { claimIdempotencyKey } from '../storage/queries/idempotency.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { findSubmissionForDocument } from '../storage/queries/submissions.js';

let t: TestApp;
let key: string;
let document: DocumentRecord;
beforeEach(async () => {
  t = await createTestApp();
  key = (await t.createKey()).secret;
  document = await t.createDocument({ pages: 3 });
});
afterEach(() => t.close());

const submit = (body: unknown, headers: Record<string, string> = {}, k = key) =>
  call(t, 'POST', '/sdk/documents/submit', { key: k, body, headers });

/** The error of a response, whose body must be exactly the contract's error envelope. */
async function errorOf(res: Response) {
  const body = ErrorEnvelopeSchema.parse(await res.json());
  expect(body.meta.requestId).toBe(res.headers.get('X-Request-Id'));
  return body.error;
}

describe('POST /sdk/documents/submit: accepted', () => {
  it('201 with the submission result; the document becomes completed and the submission is stored', async () => {
    const payload = await buildPayload(document);
    const res = await submit(payload, { 'User-Agent': 'vitest-agent' });
    expect(res.status).toBe(201);
    const result = SubmissionResultSchema.parse(await res.json());
    expect(result).toMatchObject({ success: true, documentId: document.id, message: expect.any(String) });
    expect(Date.parse(result.timestamp)).not.toBeNaN();

    const stored = await findSubmissionForDocument(t.storage.db.query, document.id);
    expect(stored).toMatchObject({ id: result.submissionId, checksum: payload.checksum, clientIp: '203.0.113.7', userAgent: 'vitest-agent' });
    expect(JSON.parse(stored!.payload)).toEqual(payload);
    expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('completed');
  });

  it('replays the original result (200) for the same payload, and refuses another with 409 SUBMISSION_FAILED', async () => {
    const payload = await buildPayload(document);
    const first = await (await submit(payload)).json();
    const again = await submit(payload);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(first);

    const other = await buildPayload(document, { ...completeValues(document.fields), signer_name: { type: 'text', content: 'Someone Else' } });
    const res = await submit(other);
    expect(res.status).toBe(409);
    const error = await errorOf(res);
    expect(error.code).toBe('SUBMISSION_FAILED');
    expect(error.details?.reason).toMatch(/already completed/);
  });

  it('accepts the checksum computed by the contract package over a payload with keys in any order', async () => {
    const payload = await buildPayload(document);
    const reordered = Object.fromEntries(Object.entries(payload).reverse());
    expect(await submissionChecksum(reordered)).toBe(payload.checksum);
    expect((await submit(reordered)).status).toBe(201);
  });
});

describe('POST /sdk/documents/submit: refused', () => {
  it('422 VALIDATION_ERROR with missingFields listing every incomplete required field', async () => {
    const values = completeValues(document.fields);
    delete values['signature'];
    values['signer_name'] = { type: 'text', content: '   ' };
    const res = await submit(await buildPayload(document, values));
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual({ missingFields: ['signer_name', 'signature'] });
    expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('pending');
  });

  it('422 for a tampered payload: the checksum no longer matches', async () => {
    const payload = await buildPayload(document);
    payload.fields[1].value.content = 'Mallory';
    const res = await submit(payload);
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'checksum', reason: expect.any(String) } });
  });

  it.each([
    ['an unknown field id', (p: any) => (p.fields[1].id = 'nope'), 'fields[1].id'],
    ['a type differing from the definition', (p: any) => { p.fields[1].type = 'date'; p.fields[1].value = { type: 'date', content: '2026-01-01' }; }, 'fields[1].type'],
    ['a moved field', (p: any) => (p.fields[1].position.x += 0.01), 'fields[1].position.x'],
    ['a changed read-only prefill', (p: any) => (p.fields[0].value.content = 'AGR-HACKED'), 'fields[0].value'],
    ['text over 10,000 characters', (p: any) => (p.fields[1].value.content = 'x'.repeat(10_001)), 'fields[1].value.content'],
    ['an image that is not a PNG', (p: any) => (p.fields.find((f: any) => f.type === 'signature').value.imageData = 'data:image/png;base64,' + Buffer.from('GIF89a not a png at all').toString('base64')), 'value.imageData'],
    ['an image over 4096 px', (p: any) => (p.fields.find((f: any) => f.type === 'signature').value.imageData = pngDataUrl(4097, 1)), 'value.imageData'],
    ['a date that is not real', (p: any) => (p.fields.find((f: any) => f.type === 'date').value.content = '2026-02-30'), 'value.content'],
    ['submittedAt in the future', (p: any) => (p.submittedAt = new Date(Date.now() + 10 * 60_000).toISOString()), 'submittedAt'],
    ['a required checkbox unchecked', (p: any) => (p.fields.find((f: any) => f.type === 'checkbox').value.checked = false), 'value.checked'],
  ])('422 VALIDATION_ERROR for %s, naming the field', async (_case, mutate, field) => {
    const res = await submit(await buildPayload(document, undefined, mutate));
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details?.field).toContain(field);
    expect(error.details?.reason).toEqual(expect.any(String));
  });

  it.each([
    ['not JSON', '{"documentId":', 'body'],
    ['a JSON array', '[]', 'body'],
    ['a missing renderContext', { documentId: 'doc_AAAAAAAAAAAAAAAAAAAAAAAA', submittedAt: 'x', pages: [], fields: [], checksum: 'x' }, 'renderContext'],
    ['a malformed documentId', { documentId: 'd1' }, 'documentId'],
    ['a text value without content', null, 'fields[1].value.content'],
  ])('400 VALIDATION_ERROR for %s, naming the field', async (_case, body, field) => {
    const payload = body ?? (await buildPayload(document, undefined, (p) => delete p.fields[1].value.content));
    const res = await submit(payload);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', details: { field, reason: expect.any(String) } });
  });

  it('413 VALIDATION_ERROR for a body over MAX_BODY_BYTES', async () => {
    await t.close();
    t = await createTestApp(undefined, { MAX_BODY_BYTES: '2048' });
    key = (await t.createKey()).secret;
    document = await t.createDocument();
    const res = await submit(await buildPayload(document));
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body' } });
  });

  it('404 DOCUMENT_NOT_FOUND for a document of another organization', async () => {
    const other = await ensureOrganization(t.storage.db.query, 'other-org', 'Other');
    const foreign = await t.createDocument({ organizationId: other.id });
    const res = await submit(await buildPayload(foreign));
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('DOCUMENT_NOT_FOUND');
  });
});

describe('Idempotency-Key', () => {
  it('same key and body replays the first response with Idempotent-Replayed: true', async () => {
    const payload = await buildPayload(document);
    const headers = { 'Idempotency-Key': 'order-42' };
    const first = await submit(payload, headers);
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const second = await submit(payload, headers);
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await second.json()).toEqual(firstBody);
  });

  it('same key with a different body: 422 VALIDATION_ERROR', async () => {
    const headers = { 'Idempotency-Key': 'order-43' };
    expect((await submit(await buildPayload(document), headers)).status).toBe(201);
    const other = await buildPayload(document, { ...completeValues(document.fields), signer_name: { type: 'text', content: 'Other' } });
    const res = await submit(other, headers);
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'Idempotency-Key' } });
  });

  it('same key while the first request is in flight: 409 SUBMISSION_FAILED with Retry-After', async () => {
    const payload = await buildPayload(document);
    await claimIdempotencyKey(t.storage.db, { organizationId: t.org.id, key: 'busy' }, `${payload.checksum}:${payload.checksum}`, {
      now: new Date(),
      expiresAfterMs: 86_400_000,
      staleAfterMs: 60_000,
    });
    const res = await submit(payload, { 'Idempotency-Key': 'busy' });
    expect(res.status).toBe(409);
    expect(res.headers.get('Retry-After')).toBe('1');
    expect((await errorOf(res)).code).toBe('SUBMISSION_FAILED');
  });

  it('a refused request frees its key, so the corrected body may use it', async () => {
    const headers = { 'Idempotency-Key': 'retry-me' };
    const values = completeValues(document.fields);
    delete values['signature'];
    expect((await submit(await buildPayload(document, values), headers)).status).toBe(422);
    expect((await submit(await buildPayload(document), headers)).status).toBe(201);
  });

  it('400 for an Idempotency-Key over 255 characters', async () => {
    const res = await submit(await buildPayload(document), { 'Idempotency-Key': 'k'.repeat(256) });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ details: { field: 'Idempotency-Key' } });
  });
});

describe.each(engines)('on $name', (engine) => {
  it('the whole flow: get the document and its file, submit, replay, read the submission back', async () => {
    const c = await createTestApp(engine);
    try {
      const pk = (await c.createKey()).secret;
      const sk = (await c.createKey({ kind: 'sk' })).secret;
      const doc = await c.createDocument({ pages: 300 });
      const got = (await (await call(c, 'GET', `/sdk/documents/${doc.id}`, { key: pk })).json()) as { documentUrl: string };
      const file = new URL(got.documentUrl);
      const part = await c.app.request(file.pathname + file.search, { headers: { Range: 'bytes=262000-262300' } });
      expect(part.status).toBe(206);
      expect((await part.arrayBuffer()).byteLength).toBe(301);
      const payload = await buildPayload(doc);
      const first = await call(c, 'POST', '/sdk/documents/submit', { key: pk, body: payload });
      expect(first.status).toBe(201);
      const replay = await call(c, 'POST', '/sdk/documents/submit', { key: pk, body: payload });
      expect(replay.status).toBe(200);
      expect(await replay.json()).toEqual(await first.json());
      const record = (await (await call(c, 'GET', `/documents/${doc.id}/submission`, { key: sk })).json()) as any;
      expect(record.data).toMatchObject({ documentId: doc.id, checksum: payload.checksum, fields: payload.fields });
    } finally {
      await c.close();
    }
  });

  it('concurrent identical submissions create exactly one submission, with or without an Idempotency-Key', async () => {
    const c = await createTestApp(engine);
    try {
      const pk = (await c.createKey()).secret;
      for (const headers of [{}, { 'Idempotency-Key': 'same-key' }] as Array<Record<string, string>>) {
        const doc = await c.createDocument();
        const payload = await buildPayload(doc);
        const responses = await Promise.all(
          Array.from({ length: 12 }, () => call(c, 'POST', '/sdk/documents/submit', { key: pk, body: payload, headers })),
        );
        const statuses = responses.map((r) => r.status);
        expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
        expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
        const ids = new Set<string>();
        for (const r of responses) if (r.status < 300) ids.add(((await r.json()) as { submissionId: string }).submissionId);
        expect(ids.size).toBe(1);
        const stored = await findSubmissionForDocument(c.storage.db.query, doc.id);
        expect(ids.has(stored!.id)).toBe(true);
      }
    } finally {
      await c.close();
    }
  });
});

describe('POST /sdk/documents/submit: the JSON body, read strictly', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  /** The status and error of a response whose body is the contract's error envelope. */
  async function refused(res: Response) {
    const status = res.status;
    const { code, details } = await errorOf(res);
    return { status, code, details };
  }

  it('accepts application/json with or without charset=utf-8', async () => {
    const payload = JSON.stringify(await buildPayload(document));
    expect((await submit(payload, { 'Content-Type': 'Application/JSON; charset="UTF-8"' })).status).toBe(201);
    expect((await submit(payload, { 'Content-Type': 'application/json' })).status).toBe(200);
  });

  it('415 VALIDATION_ERROR for any other Content-Type, or none', async () => {
    const payload = JSON.stringify(await buildPayload(document));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json-patch+json', 'application/json; charset=latin1', '']) {
      const answer = await refused(await submit(payload, { 'Content-Type': type }));
      expect(answer, type).toMatchObject({ status: 415, code: 'VALIDATION_ERROR', details: { field: 'Content-Type' } });
      expect(answer.details?.reason).toEqual(expect.any(String));
    }
    // A body sent as bytes carries no Content-Type at all.
    const res = await t.app.request('/sdk/documents/submit', {
      method: 'POST',
      headers: { 'X-API-Key': key, 'X-Forwarded-For': '203.0.113.7' },
      body: new TextEncoder().encode(payload),
    });
    expect(await refused(res)).toMatchObject({ status: 415, details: { field: 'Content-Type', reason: expect.stringMatching(/missing/) } });
    expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('pending');
  });

  it('400 for a 10,000-deep array in an extra member, not a 500', async () => {
    const payload = await buildPayload(document);
    const text = JSON.stringify(payload).replace(/^\{/, `{"extra":${nested(10_000)},`);
    expect(await refused(await submit(text))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { field: 'body', reason: `arrays and objects may nest at most ${MAX_JSON_DEPTH} levels deep` },
    });
  });

  it('400 for a number beyond a double in an extra member, not a 500 from the canonical JSON', async () => {
    const text = JSON.stringify(await buildPayload(document)).replace(/^\{/, '{"extra":{"n":1e999},');
    expect(await refused(await submit(text))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { field: 'extra.n', reason: 'is a number beyond the range of a double (I-JSON, RFC 7493)' },
    });
  });

  it('400 for an extra member within the depth limit, naming it, though the checksum covers it', async () => {
    const deep = JSON.parse(nested(MAX_JSON_DEPTH - 1)) as unknown;
    const payload = await buildPayload(document, undefined, (p) => (p.extra = deep));
    expect(await refused(await submit(JSON.stringify(payload)))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { field: 'extra', reason: 'received unknown member "extra"; members not in the schema are refused, not ignored' },
    });
    expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('pending');
  });

  it('400 for a duplicated member, naming it, even when the checksum matches what JSON.parse keeps', async () => {
    const payload = await buildPayload(document);
    const text = JSON.stringify(payload).replace('"documentId":', `"documentId":"doc_${'x'.repeat(24)}","documentId":`);
    expect(JSON.parse(text)).toEqual(payload);
    expect(await refused(await submit(text))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { field: 'documentId', reason: 'the member "documentId" appears more than once' },
    });
    expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('pending');
  });

  it('401 before 415: an unauthenticated request learns about its key first', async () => {
    const res = await call(t, 'POST', '/sdk/documents/submit', { key: 'pk_nope', body: '{}', headers: { 'Content-Type': 'text/plain' } });
    expect(await refused(res)).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });
});
