import {
  BUILDER_SESSION_TTL_SECONDS,
  type CreatedTemplateBuilderSession,
  type CreateTemplateBuilderSessionRequest,
  type TemplateBuilderSession,
} from '@signet/contract';
import { createApiKeyRecord } from '../documents/seed.js';
import { BUILDER_SCOPES } from '../documents/builder-sessions.js';
import type { SessionKeyRecord, Storage, TemplateRecord } from '../storage/types.js';

/**
 * A template's builder session key as the API shows it: never its secret. It is bound to the template as a draft's
 * is to the draft (its id in the key's `documentId`: docs/decisions.md, "Templates").
 * @example presentTemplateBuilderSession(revoked)
 */
export function presentTemplateBuilderSession(key: SessionKeyRecord): TemplateBuilderSession {
  return {
    id: key.id,
    templateId: key.documentId!,
    expiresAt: key.expiresAt!,
    origins: key.allowedOrigins,
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
  };
}

/**
 * Mints a builder session key of a template (docs/templates.md): a `pk_` key that reads and edits it and its PDF,
 * nothing else. The key is in the answer only.
 * @example const { key } = await createTemplateBuilderSession(storage, template, { origins: ['https://app.example'] })
 */
export async function createTemplateBuilderSession(
  storage: Storage,
  template: TemplateRecord,
  options: CreateTemplateBuilderSessionRequest & { now?: Date },
): Promise<CreatedTemplateBuilderSession> {
  const createdAt = options.now ?? new Date();
  const seconds = options.expiresInSeconds ?? BUILDER_SESSION_TTL_SECONDS.default;
  const origins = options.origins ?? [];
  const created = await createApiKeyRecord(storage, {
    organizationId: template.organizationId,
    kind: 'pk',
    scopes: [...BUILDER_SCOPES],
    createdAt: createdAt.toISOString(),
    expiresAt: new Date(createdAt.getTime() + seconds * 1000).toISOString(),
    origins,
    documentId: template.id,
    builder: 'edit',
  });
  const session = presentTemplateBuilderSession({
    id: created.id,
    expiresAt: created.expiresAt,
    revokedAt: null,
    allowedOrigins: origins,
    createdAt: createdAt.toISOString(),
    documentId: template.id,
    builder: 'edit',
  });
  return { ...session, key: created.key };
}
