import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '@signet/contract';
import { ApiError } from '../errors.js';
import { buildPayload, call, createTestApp, type TestApp } from '../test-support/harness.js';
import type { DocumentRecord } from '../storage/types.js';
import { MAX_JSON_DEPTH, parseJsonText } from './json-body.js';

/** The ApiError `parseJsonText` throws for `text`. */
function refusal(text: string): ApiError {
  try {
    parseJsonText(text);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`accepted: ${text.slice(0, 80)}`);
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('parseJsonText', () => {
  it('parses JSON as JSON.parse does', () => {
    const text = '{"a":[1,2.5,-0,1e21,"é\\u2028",null,true,false,{}],"b":{"c":"\\"x\\""}, "__proto__": 1}';
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
    expect(parseJsonText(' \n\t"text" ')).toBe('text');
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more, whatever the depth`, () => {
    expect(parseJsonText(nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    for (const depth of [MAX_JSON_DEPTH + 1, 10_000, 1_000_000]) {
      const error = refusal(`{"extra":${nested(depth)}}`);
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
      expect(error.details).toEqual({ field: 'body', reason: `arrays and objects may nest at most ${MAX_JSON_DEPTH} levels deep` });
    }
    expect(refusal(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`).details?.field).toBe('body');
  });

  it('refuses a member named twice in one object, at any depth, naming it and where it is', () => {
    expect(refusal('{"a":1,"a":1}').details).toEqual({ field: 'a', reason: 'the member "a" appears more than once' });
    expect(refusal('{"fields":[{"id":"x"},{"value":{"content":"a","content":"b"}}]}').details).toEqual({
      field: 'fields[1].value.content',
      reason: 'the member "content" appears more than once',
    });
    // Escapes name the same member: "\u0061" is "a".
    expect(refusal('{"x":{"a":1,"\\u0061":2}}').details?.reason).toBe('the member "a" appears more than once');
    expect(refusal('[{"a":1},{"b":1,"c":{},"b":2}]').details?.field).toBe('[1].b');
    // The same name in different objects is fine.
    expect(parseJsonText('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}')).toBeTruthy();
  });

  it('refuses a number beyond a double, which JSON.parse makes Infinity and canonical JSON cannot write', () => {
    expect(refusal('{"a":{"b":[1,-1e999]}}').details).toEqual({ field: 'a.b[1]', reason: 'is a number beyond the range of a double (I-JSON, RFC 7493)' });
    expect(refusal(`{"a":${'9'.repeat(400)}}`).details?.field).toBe('a');
    expect(refusal('1E400').details?.field).toBe('body');
    expect(parseJsonText('[1e308,-1.5e-999,1E+2,0.5,-0,12345678901234567890]')).toEqual([1e308, -0, 100, 0.5, -0, 12345678901234567890]);
  });

  it('is not misled by brackets, quotes, commas and backslashes inside strings', () => {
    const text = JSON.stringify({ 'a"': '}{[,"a":', b: '\\', 'a\\': `${'['.repeat(1000)}"`, c: ['"', '\\"', { a: ',"a":1' }] });
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
  });

  it('refuses what is not JSON', () => {
    const texts = ['', '{"a":', '{"a":1,}', '[1,]', '{a:1}', "{'a':1}", '{"a":1} // c', '01', 'NaN', '"\u0001"', '\uFEFF{}', '{"a":1}}'];
    for (const text of texts) {
      expect(refusal(text).details, JSON.stringify(text)).toEqual({ field: 'body', reason: 'the body is not valid JSON' });
    }
  });
});

describe('POST /sdk/documents/submit: JSON body', () => {
  let t: TestApp;
  let key: string;
  let document: DocumentRecord;
  beforeEach(async () => {
    t = await createTestApp();
    key = (await t.createKey()).secret;
    document = await t.createDocument({ pages: 3 });
  });
  afterEach(() => t.close());

  const submit = (body: string, headers: Record<string, string> = {}) =>
    call(t, 'POST', '/sdk/documents/submit', { key, body, headers });

  /** The status and error of a response whose body is the contract's error envelope. */
  async function refused(res: Response) {
    const body = ErrorEnvelopeSchema.parse(await res.json());
    expect(body.meta.requestId).toBe(res.headers.get('X-Request-Id'));
    return { status: res.status, code: body.error.code, details: body.error.details };
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
    expect((await t.storage.getDocument(document.id))?.status).toBe('pending');
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

  it('keeps extra members within the depth limit (the checksum covers them)', async () => {
    const deep = JSON.parse(nested(MAX_JSON_DEPTH - 1)) as unknown;
    const payload = await buildPayload(document, undefined, (p) => (p.extra = deep));
    expect((await submit(JSON.stringify(payload))).status).toBe(201);
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
    expect((await t.storage.getDocument(document.id))?.status).toBe('pending');
  });

  it('401 before 415: an unauthenticated request learns about its key first', async () => {
    const res = await call(t, 'POST', '/sdk/documents/submit', { key: 'pk_nope', body: '{}', headers: { 'Content-Type': 'text/plain' } });
    expect(await refused(res)).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });
});
