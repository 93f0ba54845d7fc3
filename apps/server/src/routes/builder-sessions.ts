import { BUILDER_SESSION_TTL_SECONDS, endpoints, type BuilderSession } from '@signet/contract';
import { ApiError } from '../errors.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { notDraft } from '../documents/drafts.js';
import type { AppContext } from '../app-context.js';
import { sendEnvelope } from '../http/envelope.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { parseOrThrow } from '../http/validation.js';
import type { SessionKeyRecord } from '../storage/types.js';
import { revokeSessionKey } from '../storage/queries/api-keys.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument } from './sdk-documents.js';

/** A builder session request is a flag, a lifetime and a few origins: 16 KiB is plenty. */
const MAX_BUILDER_SESSION_BODY_BYTES = 16 * 1024;

/** What a builder session key may read and change: its draft, and what its PDF needs. */
export const BUILDER_SCOPES = ['documents:read', 'documents:write'] as const;

/** A builder session key as the API shows it: never its secret. */
function presentBuilderSession(key: SessionKeyRecord): BuilderSession {
  return {
    id: key.id,
    documentId: key.documentId!,
    allowSend: key.builder === 'send',
    expiresAt: key.expiresAt!,
    origins: key.allowedOrigins,
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
  };
}

/** `POST /documents/{id}/builder-sessions` and `DELETE /documents/{id}/builder-sessions/{keyId}` (docs/api.md, "Drafts"). */
export function builderSessionHandlers(deps: AppContext): Pick<EndpointHandlers, 'createBuilderSession' | 'revokeBuilderSession'> {
  const now = () => (deps.now ? deps.now() : new Date());
  return {
    createBuilderSession: handler(endpoints.createBuilderSession, {
      before: [smallJsonBodyLimit(MAX_BUILDER_SESSION_BODY_BYTES)],
      readsItself: ['body'],
      async handle(c, { params }) {
        const body = parseOrThrow(endpoints.createBuilderSession.request.body.schema, await readJsonObject(c));
        const organizationId = c.get('apiKey').organizationId;
        const document = await findOwnDocument(deps, organizationId, params.documentId);
        if (document.status !== 'draft') throw notDraft(document);
        const seconds = body.expiresInSeconds ?? BUILDER_SESSION_TTL_SECONDS.default;
        const createdAt = now();
        const origins = body.origins ?? [];
        const builder = body.allowSend ? 'send' : 'edit';
        const created = await createApiKeyRecord(deps.storage, {
          organizationId,
          kind: 'pk',
          scopes: [...BUILDER_SCOPES],
          createdAt: createdAt.toISOString(),
          expiresAt: new Date(createdAt.getTime() + seconds * 1000).toISOString(),
          origins,
          documentId: document.id,
          builder,
        });
        const session = presentBuilderSession({
          id: created.id,
          expiresAt: created.expiresAt,
          revokedAt: null,
          allowedOrigins: origins,
          createdAt: createdAt.toISOString(),
          documentId: document.id,
          builder,
        });
        return sendEnvelope(c, { ...session, key: created.key }, 201);
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
