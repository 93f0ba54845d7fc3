import type { Context } from 'hono';
import { LRUCache } from 'lru-cache';
import { endpointPath, endpoints, type SdkDocument } from '@signet/contract';
import { ApiError } from '../errors.js';
import { admit, assertSessionDocument, authenticate } from '../middleware/api-key/index.js';
import { clientIp } from '../middleware/api-key/client-ip.js';
import { documentMetadata } from '../documents/present.js';
import { sdkSignersOf, submittedValuesOf } from '../documents/signers.js';
import { requestHeader } from '../http/request-header.js';
import { FILE_VERSION, signDocumentToken } from '../documents/token.js';
import type { AppEnv } from '../http/env.js';
import type { AppContext } from '../app-context.js';
import type { AuthenticatedKey, DocumentRecord } from '../storage/types.js';
import { handler, type EndpointHandlers } from './serve.js';
import { recordSignerOpened } from '../documents/opening.js';
import { findSignerStates } from '../storage/queries/signers.js';
import { findSealState } from '../storage/queries/seals.js';
import { draftNotSignable } from '../documents/drafts.js';
import { voidedNotSignable } from '../documents/void.js';
import { erasedNotFound } from '../documents/erase.js';
import { expiredNotSignable } from '../documents/expiry.js';
import { assertVerified } from '../signer-auth/gate.js';

/** `scheme://host[:port]` of an absolute URL, without parsing it. */
export function requestOrigin(url: string): string {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart < 0 ? url : url.slice(0, pathStart);
}

/**
 * The document of the key's organization, or the 404 that never reveals another organization's documents; an erased
 * one is a 404 too (`details.reason: "erased"`), unless `erased` allows its tombstone (its audit trail).
 */
export async function findOwnDocument(deps: Pick<AppContext, 'reads'>, organizationId: string, documentId: string, options: { erased?: boolean } = {}) {
  const document = await deps.reads.document(documentId);
  if (!document || document.organizationId !== organizationId) {
    throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} not found`);
  }
  if (document.erased && !options.erased) throw erasedNotFound(document);
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
      await admit(c, deps, key, { sessions: true, builders: 'edit' });
      return c.json(
        {
          valid: true,
          organizationId: key.organization.id,
          organizationName: key.organization.name,
          scopes: key.scopes,
          ...(key.expiresAt ? { expiresAt: key.expiresAt } : {}),
          ...(key.documentId ? { documentId: key.documentId } : {}),
          ...(key.signerId ? { signerId: key.signerId } : {}),
        },
        200,
      );
    },
  });

  // A document's response changes only with its state and its token; tokens expire on a step of 1/60 of their
  // lifetime (a minute by default), so one rendering serves every request within the step.
  const rendered = new LRUCache<string, RenderedDocument>({ max: 1000 });

  const getDocument = handler(endpoints.getDocument, {
    async handle(c, { params }) {
      const key = c.get('apiKey');
      assertSessionDocument(key, params.documentId);
      const document = await findOwnDocument(deps, key.organizationId, params.documentId);
      if (document.status === 'draft') throw draftNotSignable(document);
      if (document.status === 'voided') throw voidedNotSignable(document);
      if (document.status === 'expired') throw expiredNotSignable(document);
      // Before anything of its content (the token of its file and preview, its fields, other signers' values).
      await assertVerified(deps, key, document);
      const expires = tokenExpiry(deps);
      const base = deps.config.publicBaseUrl ?? requestOrigin(c.req.url);
      const render = (sealed: boolean) => renderDocument(deps, document, key.id, base, expires, sealed);
      if (!document.implicitSigner) {
        const sealed = document.status === 'completed' && (await isSealed(deps, document.id));
        return c.json(await signerView(deps, c, key, document, render(sealed)), 200);
      }
      // Per key too: the token names the key that obtained it.
      const cacheKey = `${document.id} ${key.id}`;
      let entry = rendered.get(cacheKey);
      // A completed document's seal may have landed since its rendering: asked until it has.
      const sealed = entry?.sealed || (document.status === 'completed' && (await isSealed(deps, document.id)));
      if (!entry || entry.document !== document || entry.base !== base || entry.expires !== expires || entry.sealed !== sealed) {
        entry = { document, base, expires, sealed, body: JSON.stringify(render(sealed)) };
        rendered.set(cacheKey, entry);
      }
      return c.body(entry.body, 200, { 'Content-Type': 'application/json' });
    },
  });

  return { validateKey, getDocument };
}

/**
 * When a document token made now expires: `DOCUMENT_TOKEN_TTL_SECONDS` ahead, rounded up to a step of 1/60 of it, so
 * that the tokens of one step are the same text.
 */
export function tokenExpiry(deps: AppContext): number {
  const ttl = deps.config.documentTokenTtlSeconds;
  const step = Math.max(1, Math.floor(ttl / 60));
  const now = Math.floor((deps.now ? deps.now().getTime() : Date.now()) / 1000);
  return (Math.floor((now + ttl) / step) + 1) * step;
}

/**
 * The `documentUrl` of `document` for the key `keyId`, as `GET /sdk/documents/{id}` gives it (a builder's draft).
 * @example draftOf(document, documentUrlFor(deps, c, document, key.id))
 */
export function documentUrlFor(deps: AppContext, c: Context<AppEnv>, document: DocumentRecord, keyId: string): string {
  const base = deps.config.publicBaseUrl ?? requestOrigin(c.req.url);
  const token = signDocumentToken(deps.secret, { documentId: document.id, version: FILE_VERSION, expires: tokenExpiry(deps), keyId });
  return `${base}${endpointPath(endpoints.getDocumentFile, { documentId: document.id })}?token=${token}`;
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
  return (await findSealState(deps.storage.db.query, documentId)).sealed !== null;
}

/**
 * `GET /sdk/documents/{id}`'s answer: metadata, the token-granted URLs (bound to the key `keyId` that asked), and the
 * fields as defined.
 */
function renderDocument(
  deps: AppContext,
  document: DocumentRecord,
  keyId: string,
  base: string,
  expires: number,
  sealed: boolean,
): SdkDocument {
  const token = signDocumentToken(deps.secret, { documentId: document.id, version: FILE_VERSION, expires, keyId });
  const url = (endpoint: { path: '/sdk/documents/{documentId}/file' | '/sdk/documents/{documentId}/signed.pdf' }) =>
    `${base}${endpointPath(endpoint, { documentId: document.id })}?token=${token}`;
  return {
    metadata: documentMetadata(document),
    documentUrl: url(endpoints.getDocumentFile),
    fields: document.fields,
    ...(sealed ? { signedDocumentUrl: url(endpoints.getSignedDocumentFile) } : {}),
  };
}

/**
 * A document with signers, as `key` sees it: the signers and where they stand; with a session key, the
 * signer it signs as and the values the other signers have submitted, on their (read-only) fields. A session key's
 * first request records that its signer opened the document.
 */
async function signerView(
  deps: AppContext,
  c: Context<AppEnv>,
  key: AuthenticatedKey,
  document: DocumentRecord,
  rendered: SdkDocument,
): Promise<SdkDocument> {
  const signerId = key.signerId ?? undefined;
  let states = await findSignerStates(deps.storage.db.query, document.id);
  const signer = document.signers.find((candidate) => candidate.id === signerId);
  if (signer && !states.find((state) => state.signerId === signer.id)?.openedAt) {
    const occurredAt = new Date(c.get('receivedAt')).toISOString();
    const event = { occurredAt, ip: clientIp(c, deps.config.trustProxy), userAgent: requestHeader(c, 'user-agent') ?? null };
    if (await recordSignerOpened(deps.storage, document.id, signer, event)) {
      states = states.map((state) => (state.signerId === signer.id ? { ...state, openedAt: occurredAt } : state));
    }
  }
  const view: SdkDocument = { ...rendered, signingOrder: document.signingOrder ?? 'parallel', signers: sdkSignersOf(document, states) };
  if (!signer) return view;
  const completed = new Set(states.filter((state) => state.completedAt && state.signerId !== signer.id).map((state) => state.signerId));
  const values = completed.size > 0 ? await submittedValuesOf(deps, document.id) : new Map();
  const fields = document.fields.map((field) => {
    const value = field.signerId && completed.has(field.signerId) ? values.get(field.id) : undefined;
    return value ? { ...field, value } : field;
  });
  return { ...view, fields, signerId: signer.id };
}
