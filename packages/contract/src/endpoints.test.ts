import { describe, expect, it } from 'vitest';
import { endpointPath } from './endpoint-path.js';
import { endpoints, errorEnvelope } from './endpoints.js';

describe('endpointPath', () => {
  it('fills each parameter, URL-encoded, and leaves a path without parameters as it is', () => {
    expect(endpointPath(endpoints.getSubmission, { documentId: 'doc_V1StGXR8Z5jdHi6BmyTaQ7fz' })).toBe(
      '/documents/doc_V1StGXR8Z5jdHi6BmyTaQ7fz/submission',
    );
    expect(endpointPath(endpoints.getDocument, { documentId: 'a/b?c' })).toBe('/sdk/documents/a%2Fb%3Fc');
    expect(endpointPath(endpoints.validateKey, {})).toBe('/sdk/validate-key');
  });
});

describe('errorEnvelope', () => {
  const envelope = (code: string) => ({
    success: false,
    error: { code, message: 'm', details: { field: 'documentId', reason: 'r' } },
    meta: { requestId: 'req_V1StGXR8Z5jdHi6BmyTaQ7fz', timestamp: '2026-11-22T10:00:00.000Z' },
  });

  it('accepts an envelope with one of its codes, whole, and refuses another code', () => {
    const schema = errorEnvelope(['DOCUMENT_NOT_FOUND', 'NOT_FOUND']);
    expect(schema.parse(envelope('NOT_FOUND'))).toEqual(envelope('NOT_FOUND'));
    expect(schema.safeParse(envelope('VALIDATION_ERROR')).success).toBe(false);
  });
});

describe('the table', () => {
  it('names every path parameter of a path in its params schema, and no other', () => {
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const inPath = [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const params = 'params' in endpoint.request ? Object.keys(endpoint.request.params.shape) : [];
      expect(params, name).toEqual(inPath);
    }
  });

  it('gives every endpoint reached with a key the refusals of a key (401, 403, 429) and every endpoint a 500', () => {
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const statuses = [...Object.keys(endpoint.responses), ...Object.keys(endpoint.errors)].map(Number);
      if (endpoint.access.by === 'key') expect(statuses, name).toEqual(expect.arrayContaining([401, 403, 429]));
      expect(statuses, name).toContain(500);
    }
  });
});
