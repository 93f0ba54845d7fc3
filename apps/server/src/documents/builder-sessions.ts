import { BUILDER_SESSION_TTL_SECONDS, type BuilderSession, type CreatedBuilderSession } from '@signet/contract';
import type { DocumentRecord, SessionKeyRecord, Storage } from '../storage/types.js';
import { notDraft } from './drafts.js';
import { createApiKeyRecord } from './seed.js';

/** What a builder session key may read and change: its draft, and what its PDF needs. */
export const BUILDER_SCOPES = ['documents:read', 'documents:write'] as const;

/**
 * A builder session key as the API shows it: never its secret.
 * @example presentBuilderSession(revoked)
 */
export function presentBuilderSession(key: SessionKeyRecord): BuilderSession {
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

/**
 * Mints a builder session key of a draft (docs/api.md, "Drafts"): a `pk_` key bound to it that reads and edits it,
 * and sends it with `allowSend`; 409 `DOCUMENT_NOT_DRAFT` for a document already sent. The key is in the answer only.
 * @example const { key } = await createBuilderSession(storage, draft, { allowSend: true, origins: ['https://app.example'] })
 */
export async function createBuilderSession(
  storage: Storage,
  document: DocumentRecord,
  options: { allowSend?: boolean; origins?: string[]; expiresInSeconds?: number; now?: Date },
): Promise<CreatedBuilderSession> {
  if (document.status !== 'draft') throw notDraft(document);
  const createdAt = options.now ?? new Date();
  const seconds = options.expiresInSeconds ?? BUILDER_SESSION_TTL_SECONDS.default;
  const origins = options.origins ?? [];
  const builder = options.allowSend ? 'send' : 'edit';
  const created = await createApiKeyRecord(storage, {
    organizationId: document.organizationId,
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
  return { ...session, key: created.key };
}
