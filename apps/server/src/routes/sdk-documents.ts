import { createRoute, z } from '@hono/zod-openapi';
import { LRUCache } from 'lru-cache';
import { KeyValidationResultSchema, SdkDocumentSchema, idSchema, isId, type SdkDocument } from '@signet/contract';
import { ApiError, methodNotAllowed, validationError } from '../errors.js';
import { admit, apiKey, authenticate } from '../middleware/api-key/index.js';
import { documentMetadata } from '../documents/present.js';
import { signDocumentToken } from '../documents/token.js';
import type { AppContext } from '../http/env.js';
import type { DocumentRecord } from '../storage/types.js';
import { API_KEY_SECURITY, errorResponses, type SignetApp } from './openapi.js';

/** `scheme://host[:port]` of an absolute URL, without parsing it. */
function requestOrigin(url: string): string {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart < 0 ? url : url.slice(0, pathStart);
}

/** A document id from a path, or the 400 naming `documentId`. */
export function requireDocumentId(value: string): string {
  if (!isId('doc', value)) throw validationError('documentId', 'must be "doc_" followed by 20 or more letters and digits');
  return value;
}

export const DocumentIdParams = z.object({
  documentId: idSchema('doc').meta({ param: { name: 'documentId', in: 'path' }, example: 'doc_V1StGXR8Z5jdHi6BmyTaQ7fz' }),
});

const validateKeyRoute = createRoute({
  method: 'post',
  path: '/sdk/validate-key',
  tags: ['SDK'],
  summary: 'Validate the API key',
  description: 'Tells whether the key of `X-API-Key` is usable, and its organization and scopes. No envelope.',
  security: API_KEY_SECURITY,
  responses: {
    200: { description: 'The key is valid', content: { 'application/json': { schema: KeyValidationResultSchema } } },
    401: {
      description: 'Missing, unknown, revoked or expired key: `{ "valid": false, "error": "…" }`',
      content: { 'application/json': { schema: KeyValidationResultSchema } },
    },
    ...errorResponses(429),
  },
});

const getDocumentRoute = createRoute({
  method: 'get',
  path: '/sdk/documents/{documentId}',
  tags: ['SDK'],
  summary: 'Get a document with its fields',
  description:
    'Metadata, a `documentUrl` for the PDF (a token in its query string grants it for `DOCUMENT_TOKEN_TTL_SECONDS`) and the predefined fields. Scope `documents:read`. No envelope.',
  security: API_KEY_SECURITY,
  request: { params: DocumentIdParams },
  responses: {
    200: { description: 'The document', content: { 'application/json': { schema: SdkDocumentSchema } } },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

/** The document of the key's organization, or the 404 that never reveals another organization's documents. */
export async function findOwnDocument(deps: Pick<AppContext, 'reads'>, organizationId: string, documentId: string) {
  const document = await deps.reads.document(documentId);
  if (!document || document.organizationId !== organizationId) {
    throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} not found`);
  }
  return document;
}

/** `POST /sdk/validate-key` and `GET /sdk/documents/{documentId}`. */
export function registerSdkDocumentRoutes(app: SignetApp, deps: AppContext): void {
  app.openapi(validateKeyRoute, async (c) => {
    let key;
    try {
      key = await authenticate(c, deps);
    } catch (error) {
      // The contract answers a key that cannot be used with a body of its own, not the error envelope.
      if (error instanceof ApiError && error.status === 401) return c.json({ valid: false, error: error.message }, 401);
      throw error;
    }
    await admit(c, deps, key, {});
    return c.json(
      {
        valid: true,
        organizationId: key.organization.id,
        organizationName: key.organization.name,
        scopes: key.scopes,
        ...(key.expiresAt ? { expiresAt: key.expiresAt } : {}),
      },
      200,
    );
  });

  // A document's response changes only with its state and its token; tokens expire on a step of 1/60 of their
  // lifetime (a minute by default), so one rendering serves every request within the step.
  const rendered = new LRUCache<string, RenderedDocument>({ max: 1000 });
  const ttl = deps.config.documentTokenTtlSeconds;
  const step = Math.max(1, Math.floor(ttl / 60));

  // The hottest route is a plain Hono route checking its one parameter itself; the OpenAPI description is the same.
  app.openAPIRegistry.registerPath(getDocumentRoute);
  // `submit` is not a document id: a GET there is a wrong method, not a malformed id.
  app.get('/sdk/documents/submit', (c) => {
    throw methodNotAllowed(c.req.method, c.req.path, ['POST']);
  });
  app.get('/sdk/documents/:documentId', apiKey(deps, { scopes: ['documents:read'] }), async (c) => {
    const documentId = requireDocumentId(c.req.param('documentId'));
    const document = await findOwnDocument(deps, c.get('apiKey').organizationId, documentId);
    const now = Math.floor((deps.now ? deps.now().getTime() : Date.now()) / 1000);
    const expires = (Math.floor((now + ttl) / step) + 1) * step;
    const base = deps.config.publicBaseUrl ?? requestOrigin(c.req.url);
    let entry = rendered.get(document.id);
    if (!entry || entry.document !== document || entry.base !== base || entry.expires !== expires) {
      const token = signDocumentToken(deps.secret, { documentId: document.id, version: document.version, expires });
      const response: SdkDocument = {
        metadata: documentMetadata(document),
        documentUrl: `${base}/sdk/documents/${document.id}/file?token=${token}`,
        fields: document.fields,
      };
      entry = { document, base, expires, body: JSON.stringify(response) };
      rendered.set(document.id, entry);
    }
    return c.body(entry.body, 200, { 'Content-Type': 'application/json' });
  });
}

/** A rendered `GET /sdk/documents/{id}` body and what it was rendered from (the cached record itself). */
interface RenderedDocument {
  document: DocumentRecord;
  base: string;
  expires: number;
  body: string;
}
