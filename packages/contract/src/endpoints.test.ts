import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpointPath } from './endpoint-path.js';
import { endpoints, errorEnvelope } from './endpoints.js';
import { FieldDefinitionListSchema } from './schemas/document.js';
import { SignerDefinitionListSchema } from './schemas/signers.js';

/** The paths of the objects in a JSON Schema that let members they do not list through. */
function openObjects(node: unknown, at = '#'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => openObjects(item, `${at}/${index}`));
  if (node === null || typeof node !== 'object') return [];
  const schema = node as Record<string, unknown>;
  // A map keyed by ids (`values` by field id: `propertyNames`) names its members by pattern; the handler refuses an unknown id.
  const map = 'propertyNames' in schema && typeof schema['additionalProperties'] === 'object';
  const own = schema['type'] === 'object' && schema['additionalProperties'] !== false && !map ? [at] : [];
  return [...own, ...Object.entries(schema).flatMap(([keyword, value]) => openObjects(value, `${at}/${keyword}`))];
}

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

  it('makes every object of every JSON request body, and of the fields and signers of an upload, strict', () => {
    const bodies: Array<[string, z.ZodType]> = [
      ['createDocument fields', FieldDefinitionListSchema],
      ['createDocument signers', SignerDefinitionListSchema],
    ];
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const body = 'body' in endpoint.request ? endpoint.request.body : undefined;
      if (body?.mediaType === 'application/json') bodies.push([name, body.schema]);
    }
    expect(bodies.map(([name]) => name)).toEqual(
      expect.arrayContaining(['submitDocument', 'declineDocument', 'createSession', 'createWebhook', 'updateWebhook']),
    );
    for (const [name, schema] of bodies) {
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
      expect(openObjects(json), name).toEqual([]);
      // Not vacuous: the walk finds an object it is told is open.
      expect(openObjects({ ...json, additionalProperties: true, type: 'object' }), name).toContain('#');
    }
  });
});
