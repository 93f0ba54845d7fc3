import type { Context } from 'hono';
import { endpoints } from '@signet/contract';
import { ApiError } from '../errors.js';
import { sealingOf, signedFilename } from '../documents/present.js';
import type { AppEnv } from '../http/env.js';
import type { AppContext } from '../app-context.js';
import { sendEnvelope } from '../http/envelope.js';
import { contentDisposition, sendStoredFile } from '../http/file-response.js';
import type { DocumentRecord } from '../storage/types.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument } from './sdk-documents.js';
import { cacheForTokenHolder } from './sdk-document-token.js';
import { listAuditEvents } from '../storage/queries/audit.js';
import { findSealState, readSealedContent } from '../storage/queries/seals.js';

/** How long a client is asked to wait before asking again for a document that is not sealed yet. */
const NOT_SEALED_RETRY_SECONDS = 5;

/**
 * Answers with a document's sealed PDF, or the 409 `DOCUMENT_NOT_SEALED` that says where its seal stands.
 * `cache` sets the caching headers of the route (a token holder's, or a key holder's).
 */
async function sendSealed(
  c: Context<AppEnv>,
  deps: AppContext,
  document: DocumentRecord,
  cache: (etag: string) => void,
): Promise<Response> {
  const state = await findSealState(deps.storage.db.query, document.id);
  const sealed = state.sealed;
  if (!sealed) {
    const sealing = sealingOf(state);
    const reason =
      document.status === 'pending'
        ? 'the document has not been submitted yet'
        : sealing.status === 'failed'
          ? 'sealing failed; the operator can retry it (signet jobs retry)'
          : 'the document is being sealed';
    throw new ApiError('DOCUMENT_NOT_SEALED', `Document ${document.id} is not sealed yet: ${reason}`, {
      details: { reason, sealing: sealing.status },
      headers: { 'Retry-After': String(NOT_SEALED_RETRY_SECONDS) },
    });
  }
  const etag = `"${sealed.sha256}"`;
  cache(etag);
  c.header('Content-Disposition', contentDisposition('attachment', signedFilename(document.filename)));
  return sendStoredFile(c, {
    size: sealed.fileSize,
    etag,
    read: (start, end) => readSealedContent(deps.storage.db.query, document.id, start, end),
  });
}

/** The sealed PDF (for a key, and for the signer's token) and the audit trail. */
export function sealedDocumentHandlers(
  deps: AppContext,
): Pick<EndpointHandlers, 'getSignedDocument' | 'getSignedDocumentFile' | 'getAuditTrail'> {
  return {
    getSignedDocument: handler(endpoints.getSignedDocument, {
      async handle(c, { params }) {
        const document = await findOwnDocument(deps, c.get('apiKey').organizationId, params.documentId);
        return sendSealed(c, deps, document, () => c.header('Cache-Control', 'private, no-cache'));
      },
    }),

    // Same capability as the original's file: the token of `documentUrl` (read by the access check).
    getSignedDocumentFile: handler(endpoints.getSignedDocumentFile, {
      readsItself: ['params', 'query'],
      handle: (c) => sendSealed(c, deps, c.get('tokenDocument'), (etag) => cacheForTokenHolder(c, etag)),
    }),

    getAuditTrail: handler(endpoints.getAuditTrail, {
      async handle(c, { params }) {
        const document = await findOwnDocument(deps, c.get('apiKey').organizationId, params.documentId, { erased: true });
        return sendEnvelope(c, { documentId: document.id, events: await listAuditEvents(deps.storage.db.query, document.id) }, 200);
      },
    }),
  };
}
