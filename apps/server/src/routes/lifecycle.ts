import { endpoints } from '@signet/contract';
import type { AppContext } from '../app-context.js';
import { sendEnvelope } from '../http/envelope.js';
import { versionTag } from '../http/if-match.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { parseOrThrow } from '../http/validation.js';
import { managedDocument, sealingOf } from '../documents/present.js';
import { signerStatesOf } from '../documents/signers.js';
import { voidDocument } from '../documents/void.js';
import { eraseDocument } from '../documents/erase.js';
import { ApiError } from '../errors.js';
import { findDocument } from '../storage/queries/documents.js';
import { findSealState } from '../storage/queries/seals.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument } from './sdk-documents.js';

/** A reason is at most 500 characters: 16 KiB is plenty. */
const MAX_VOID_BODY_BYTES = 16 * 1024;

/** `POST /documents/{documentId}/void` and `DELETE /documents/{documentId}` (docs/lifecycle.md). */
export function lifecycleHandlers(deps: AppContext): Pick<EndpointHandlers, 'voidDocument' | 'eraseDocument'> {
  return {
    eraseDocument: handler(endpoints.eraseDocument, {
      async handle(c, { params }) {
        const key = c.get('apiKey');
        // Read from storage: an erasure made on another instance a moment ago is a 410, not an erasure again.
        const found = await findDocument(deps.storage.db.query, params.documentId);
        if (!found || found.organizationId !== key.organizationId) throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${params.documentId} not found`);
        const at = new Date(c.get('receivedAt')).toISOString();
        const { tombstone, revokedKeys } = await eraseDocument(deps.storage, found.id, { at, by: key.id });
        deps.reads.forgetDocument(found.id);
        for (const id of revokedKeys) deps.reads.forgetApiKey(id);
        return sendEnvelope(c, tombstone, 200);
      },
    }),

    voidDocument: handler(endpoints.voidDocument, {
      before: [smallJsonBodyLimit(MAX_VOID_BODY_BYTES)],
      readsItself: ['body'],
      async handle(c, { params }) {
        const key = c.get('apiKey');
        const { reason } = parseOrThrow(endpoints.voidDocument.request.body.schema, await readJsonObject(c));
        await findOwnDocument(deps, key.organizationId, params.documentId);
        const at = new Date(c.get('receivedAt')).toISOString();
        const { document, revokedKeys } = await voidDocument(deps.storage, params.documentId, { reason, at, keyId: key.id });
        deps.reads.forgetDocument(document.id);
        for (const id of revokedKeys) deps.reads.forgetApiKey(id);
        const [seal, states] = await Promise.all([findSealState(deps.storage.db.query, document.id), signerStatesOf(deps, document)]);
        c.header('ETag', versionTag(document.version));
        return sendEnvelope(c, managedDocument(document, sealingOf(seal), states), 200);
      },
    }),
  };
}
