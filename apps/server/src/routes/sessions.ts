import { SESSION_TTL_SECONDS, endpoints, type Session } from '@signet/contract';
import { ApiError, validationError } from '../errors.js';
import { createApiKeyRecord, DEFAULT_SCOPES } from '../documents/seed.js';
import type { AppContext } from '../app-context.js';
import { sendEnvelope } from '../http/envelope.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { parseOrThrow } from '../http/validation.js';
import type { DocumentRecord, SessionKeyRecord } from '../storage/types.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument } from './sdk-documents.js';
import { revokeSessionKey } from '../storage/queries/api-keys.js';
import { draftNotSignable } from '../documents/drafts.js';
import { voidedNotSignable } from '../documents/void.js';
import { expiredNotSignable } from '../documents/expiry.js';

/** A session request is a signer id, a lifetime and a few origins: 16 KiB is plenty. */
const MAX_SESSION_BODY_BYTES = 16 * 1024;

/** A session key as the API shows it: never its secret. */
function presentSession(key: SessionKeyRecord): Session {
  return {
    id: key.id,
    documentId: key.documentId!,
    ...(key.signerId ? { signerId: key.signerId } : {}),
    expiresAt: key.expiresAt!,
    origins: key.allowedOrigins,
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
  };
}

/** The signer a session is for: one of the document's signers, or none on a document without signers (422 else). */
function sessionSigner(document: DocumentRecord, signerId: string | undefined): string | undefined {
  if (document.implicitSigner) {
    if (signerId !== undefined) throw validationError('signerId', 'the document has no signers: leave signerId out', 422);
    return undefined;
  }
  if (signerId === undefined) throw validationError('signerId', 'is required: the document has signers', 422);
  if (!document.signers.some((signer) => signer.id === signerId)) {
    throw validationError('signerId', `no signer "${signerId}" on this document`, 422);
  }
  return signerId;
}

/** `POST /documents/{id}/sessions` and `DELETE /documents/{id}/sessions/{keyId}`. */
export function sessionHandlers(deps: AppContext): Pick<EndpointHandlers, 'createSession' | 'revokeSession'> {
  const now = () => (deps.now ? deps.now() : new Date());
  return {
    createSession: handler(endpoints.createSession, {
      before: [smallJsonBodyLimit(MAX_SESSION_BODY_BYTES)],
      readsItself: ['body'],
      async handle(c, { params }) {
        const body = parseOrThrow(endpoints.createSession.request.body.schema, await readJsonObject(c));
        const organizationId = c.get('apiKey').organizationId;
        const document = await findOwnDocument(deps, organizationId, params.documentId);
        if (document.status === 'draft') throw draftNotSignable(document);
        if (document.status === 'voided') throw voidedNotSignable(document);
        if (document.status === 'expired') throw expiredNotSignable(document);
        const signerId = sessionSigner(document, body.signerId);
        const seconds = body.expiresInSeconds ?? SESSION_TTL_SECONDS.default;
        const createdAt = now();
        const origins = body.origins ?? [];
        const created = await createApiKeyRecord(deps.storage, {
          organizationId,
          kind: 'pk',
          scopes: DEFAULT_SCOPES.pk,
          createdAt: createdAt.toISOString(),
          expiresAt: new Date(createdAt.getTime() + seconds * 1000).toISOString(),
          origins,
          documentId: document.id,
          ...(signerId === undefined ? {} : { signerId }),
        });
        const session = presentSession({
          id: created.id,
          expiresAt: created.expiresAt,
          revokedAt: null,
          allowedOrigins: origins,
          createdAt: createdAt.toISOString(),
          documentId: document.id,
          signerId: signerId ?? null,
        });
        return sendEnvelope(c, { ...session, key: created.key }, 201);
      },
    }),

    revokeSession: handler(endpoints.revokeSession, {
      async handle(c, { params }) {
        const document = await findOwnDocument(deps, c.get('apiKey').organizationId, params.documentId);
        const revoked = await revokeSessionKey(deps.storage.db.query, document.id, params.keyId, now().toISOString());
        if (!revoked) {
          throw new ApiError('NOT_FOUND', `Document ${document.id} has no session key ${params.keyId}`, {
            details: { field: 'keyId' },
          });
        }
        deps.reads.forgetApiKey(revoked.id);
        return sendEnvelope(c, presentSession(revoked), 200);
      },
    }),
  };
}
