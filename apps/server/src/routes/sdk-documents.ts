import { createRoute, z } from '@hono/zod-openapi';
import { KeyValidationResultSchema, SdkDocumentSchema, idSchema } from '@signet/contract';
import { ApiError } from '../errors.js';
import { apiKey, authenticate, applyRateLimit, authorize } from '../middleware/api-key/index.js';
import { documentMetadata } from '../documents/present.js';
import { signDocumentToken } from '../documents/token.js';
import type { AppDependencies } from '../http/env.js';
import { API_KEY_SECURITY, errorResponses, type SignetApp } from './openapi.js';

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
export async function findOwnDocument(deps: AppDependencies, organizationId: string, documentId: string) {
  const document = await deps.storage.getDocument(documentId);
  if (!document || document.organizationId !== organizationId) {
    throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} not found`);
  }
  return document;
}

/** `POST /sdk/validate-key` and `GET /sdk/documents/{documentId}`. */
export function registerSdkDocumentRoutes(app: SignetApp, deps: AppDependencies): void {
  app.openapi(validateKeyRoute, async (c) => {
    let key;
    try {
      key = await authenticate(c, deps);
    } catch (error) {
      // The contract answers a key that cannot be used with a body of its own, not the error envelope.
      if (error instanceof ApiError && error.status === 401) return c.json({ valid: false, error: error.message }, 401);
      throw error;
    }
    c.set('apiKey', key);
    c.set('keyId', key.id);
    await applyRateLimit(c, deps, key);
    authorize(c, key, {});
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

  app.openapi(
    { ...getDocumentRoute, middleware: [apiKey(deps, { scopes: ['documents:read'] })] as const },
    async (c) => {
      const { documentId } = c.req.valid('param');
      const key = c.get('apiKey');
      const document = await findOwnDocument(deps, key.organizationId, documentId);
      const now = deps.now?.() ?? new Date();
      const token = signDocumentToken(deps.secret, {
        documentId: document.id,
        version: document.version,
        expires: Math.floor(now.getTime() / 1000) + deps.config.documentTokenTtlSeconds,
      });
      const base = deps.config.publicBaseUrl ?? new URL(c.req.url).origin;
      return c.json(
        {
          metadata: documentMetadata(document),
          documentUrl: `${base}/sdk/documents/${document.id}/file?token=${token}`,
          fields: document.fields,
        },
        200,
      );
    },
  );
}
