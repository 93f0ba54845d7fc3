import { endpoints } from '@signet/contract';
import { ApiError } from '../errors.js';
import { createBuilderSession, presentBuilderSession } from '../documents/builder-sessions.js';
import type { AppContext } from '../app-context.js';
import { sendEnvelope } from '../http/envelope.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { parseOrThrow } from '../http/validation.js';
import { revokeSessionKey } from '../storage/queries/api-keys.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument } from './sdk-documents.js';

/** A builder session request is a flag, a lifetime and a few origins: 16 KiB is plenty. */
const MAX_BUILDER_SESSION_BODY_BYTES = 16 * 1024;

/** `POST /documents/{id}/builder-sessions` and `DELETE /documents/{id}/builder-sessions/{keyId}` (docs/api.md, "Drafts"). */
export function builderSessionHandlers(deps: AppContext): Pick<EndpointHandlers, 'createBuilderSession' | 'revokeBuilderSession'> {
  const now = () => (deps.now ? deps.now() : new Date());
  return {
    createBuilderSession: handler(endpoints.createBuilderSession, {
      before: [smallJsonBodyLimit(MAX_BUILDER_SESSION_BODY_BYTES)],
      readsItself: ['body'],
      async handle(c, { params }) {
        const body = parseOrThrow(endpoints.createBuilderSession.request.body.schema, await readJsonObject(c));
        const document = await findOwnDocument(deps, c.get('apiKey').organizationId, params.documentId);
        return sendEnvelope(c, await createBuilderSession(deps.storage, document, { ...body, now: now() }), 201);
      },
    }),

    revokeBuilderSession: handler(endpoints.revokeBuilderSession, {
      async handle(c, { params }) {
        const document = await findOwnDocument(deps, c.get('apiKey').organizationId, params.documentId);
        const revoked = await revokeSessionKey(deps.storage.db.query, document.id, params.keyId, now().toISOString(), { builder: true });
        if (!revoked) {
          throw new ApiError('NOT_FOUND', `Document ${document.id} has no builder session key ${params.keyId}`, {
            details: { field: 'keyId' },
          });
        }
        deps.reads.forgetApiKey(revoked.id);
        return sendEnvelope(c, presentBuilderSession(revoked), 200);
      },
    }),
  };
}
