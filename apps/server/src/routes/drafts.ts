import type { Context } from 'hono';
import { endpoints } from '@signet/contract';
import { ApiError } from '../errors.js';
import { assertEmailCodesSendable } from '../signer-auth/mail-required.js';
import { assertSessionDocument } from '../middleware/api-key/index.js';
import type { AppContext } from '../app-context.js';
import type { AppEnv } from '../http/env.js';
import { sendEnvelope } from '../http/envelope.js';
import { requireIfMatch, versionTag } from '../http/if-match.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { parseOrThrow } from '../http/validation.js';
import { draftOf, managedDocument, sealingOf } from '../documents/present.js';
import { notDraft, replaceDraft, sendDraft } from '../documents/drafts.js';
import { signerStatesOf } from '../documents/signers.js';
import { findDocument } from '../storage/queries/documents.js';
import type { DocumentRecord } from '../storage/types.js';
import { documentUrlFor } from './sdk-documents.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findSealState } from '../storage/queries/seals.js';
import { erasedNotFound } from '../documents/erase.js';

/**
 * The document of the path, read from storage itself rather than the read cache: a builder saves, then reads, and
 * must see its own save on every instance. A builder session key reaches only its own (403 else, before the lookup).
 */
async function ownFreshDocument(deps: AppContext, c: Context<AppEnv>, documentId: string): Promise<DocumentRecord> {
  const key = c.get('apiKey');
  assertSessionDocument(key, documentId);
  const document = await findDocument(deps.storage.db.query, documentId);
  if (!document || document.organizationId !== key.organizationId) throw new ApiError('DOCUMENT_NOT_FOUND', `Document ${documentId} not found`);
  if (document.erased) throw erasedNotFound(document);
  return document;
}

/** `GET` and `PUT /documents/{id}/draft`, `POST /documents/{id}/send` (docs/api.md, "Drafts"). */
export function draftHandlers(deps: AppContext): Pick<EndpointHandlers, 'getDraft' | 'updateDraft' | 'sendDocument'> {
  const now = () => (deps.now ? deps.now() : new Date()).toISOString();
  const answerDraft = (c: Context<AppEnv>, document: DocumentRecord) => {
    c.header('ETag', versionTag(document.version));
    return sendEnvelope(c, draftOf(document, documentUrlFor(deps, c, document, c.get('apiKey').id)), 200);
  };
  return {
    getDraft: handler(endpoints.getDraft, {
      async handle(c, { params }) {
        return answerDraft(c, await ownFreshDocument(deps, c, params.documentId));
      },
    }),

    updateDraft: handler(endpoints.updateDraft, {
      before: [smallJsonBodyLimit(deps.config.maxBodyBytes)],
      readsItself: ['body', 'headers'],
      async handle(c, { params }) {
        const body = parseOrThrow(endpoints.updateDraft.request.body.schema, await readJsonObject(c));
        const document = await ownFreshDocument(deps, c, params.documentId);
        const expected = requireIfMatch(c);
        if (document.status !== 'draft') throw notDraft(document);
        assertEmailCodesSendable(body.signers, deps.config.mail !== undefined);
        const saved = await replaceDraft(deps.storage, document, body, expected, now());
        deps.reads.forgetDocument(saved.id);
        return answerDraft(c, saved);
      },
    }),

    sendDocument: handler(endpoints.sendDocument, {
      readsItself: ['headers'],
      async handle(c, { params }) {
        const document = await ownFreshDocument(deps, c, params.documentId);
        const expected = requireIfMatch(c);
        const sent = await sendDraft(deps.storage, document.id, expected, now());
        deps.reads.forgetDocument(sent.id);
        const [seal, states] = await Promise.all([findSealState(deps.storage.db.query, sent.id), signerStatesOf(deps, sent)]);
        c.header('ETag', versionTag(sent.version));
        return sendEnvelope(c, managedDocument(sent, sealingOf(seal), states), 200);
      },
    }),
  };
}
