import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalPayload } from '@signet/contract';
import { answerProblem, type Answer } from './fuzz-oracle.js';
import { ENDPOINT_PATHS, type Endpoint, type FuzzRequest } from './fuzz-requests.js';

// The fuzz passes only if its judge can fail: each way an answer can break the contract is caught.

const requestTo = (endpoint: Endpoint, body?: unknown): FuzzRequest => ({
  endpoint,
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
    const payload = { documentId: 'doc_AAAAAAAAAAAAAAAAAAAAAAAA', fields: [] };
    const checksum = createHash('sha256').update(canonicalPayload(payload)).digest('hex');
    const result = { success: true, submissionId: 'sub_AAAAAAAAAAAAAAAAAAAAAAAA', documentId: payload.documentId, timestamp: '2026-11-23T10:00:00.000Z', message: 'ok' };
    expect(answerProblem(requestTo('submit', { ...payload, checksum }), answer(201, result))).toBeUndefined();
    expect(answerProblem(requestTo('submit', { ...payload, checksum: 'f'.repeat(64) }), answer(201, result))).toMatch(/checksum is wrong/);
    expect(answerProblem(requestTo('submit', { ...payload, checksum }), answer(201, { ...result, submissionId: 'x' }))).toMatch(/schema/);
  });

  it('flags a created document off its schema', () => {
    expect(answerProblem(requestTo('create-document'), answer(201, { success: true, data: {}, meta: { requestId: 'req_1', timestamp: 't' } }))).toMatch(/schema/);
  });
});
