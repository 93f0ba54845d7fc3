import { LRUCache } from 'lru-cache';
import { endpointPath, endpoints, type SdkDocument } from '@signet/contract';
import { ApiError } from '../errors.js';
import { admit, authenticate } from '../middleware/api-key/index.js';
import { documentMetadata } from '../documents/present.js';
import { signDocumentToken } from '../documents/token.js';
import type { AppContext } from '../http/env.js';
import type { DocumentRecord } from '../storage/types.js';
import { handler, type EndpointHandlers } from './serve.js';

/** `scheme://host[:port]` of an absolute URL, without parsing it. */
function requestOrigin(url: string): string {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart < 0 ? url : url.slice(0, pathStart);
}

/** The document of the key's organization, or the 404 that never reveals another organization's documents. */
export async function findOwnDocument(deps: Pick<AppContext, 'reads'>, organizationId: string, documentId: string) {
  const document = await deps.reads.document(documentId);
  if (!document || document.organizationId !== organizationId) {
    throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} not found`);
  }
  return document;
}

/** `POST /sdk/validate-key` and `GET /sdk/documents/{documentId}`. */
export function sdkDocumentHandlers(deps: AppContext): Pick<EndpointHandlers, 'validateKey' | 'getDocument'> {
  const validateKey = handler(endpoints.validateKey, {
    checksKeyItself: true,
    async handle(c) {
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
    },
  });

  // A document's response changes only with its state and its token; tokens expire on a step of 1/60 of their
  // lifetime (a minute by default), so one rendering serves every request within the step.
  const rendered = new LRUCache<string, RenderedDocument>({ max: 1000 });
  const ttl = deps.config.documentTokenTtlSeconds;
  const step = Math.max(1, Math.floor(ttl / 60));

  const getDocument = handler(endpoints.getDocument, {
    async handle(c, { params }) {
      const document = await findOwnDocument(deps, c.get('apiKey').organizationId, params.documentId);
      const now = Math.floor((deps.now ? deps.now().getTime() : Date.now()) / 1000);
      const expires = (Math.floor((now + ttl) / step) + 1) * step;
      const base = deps.config.publicBaseUrl ?? requestOrigin(c.req.url);
      let entry = rendered.get(document.id);
      // A completed document's seal may have landed since its rendering: asked until it has.
      const sealed = entry?.sealed || (document.status === 'completed' && (await isSealed(deps, document.id)));
      if (!entry || entry.document !== document || entry.base !== base || entry.expires !== expires || entry.sealed !== sealed) {
        const token = signDocumentToken(deps.secret, { documentId: document.id, version: document.version, expires });
        const url = (endpoint: { path: '/sdk/documents/{documentId}/file' | '/sdk/documents/{documentId}/signed.pdf' }) =>
          `${base}${endpointPath(endpoint, { documentId: document.id })}?token=${token}`;
        const response: SdkDocument = {
          metadata: documentMetadata(document),
          documentUrl: url(endpoints.getDocumentFile),
          fields: document.fields,
          ...(sealed ? { signedDocumentUrl: url(endpoints.getSignedDocumentFile) } : {}),
        };
        entry = { document, base, expires, sealed, body: JSON.stringify(response) };
        rendered.set(document.id, entry);
      }
      return c.body(entry.body, 200, { 'Content-Type': 'application/json' });
    },
  });

  return { validateKey, getDocument };
}

/** A rendered `GET /sdk/documents/{id}` body and what it was rendered from (the cached record itself). */
interface RenderedDocument {
  document: DocumentRecord;
  base: string;
  expires: number;
  /** Whether its signed copy existed (then `signedDocumentUrl` is in the body): once sealed, always sealed. */
  sealed: boolean;
  body: string;
}

async function isSealed(deps: AppContext, documentId: string): Promise<boolean> {
  return (await deps.storage.getSealState(documentId)).sealed !== null;
}
