import { endpoints, type DeclineResult } from '@signet/contract';
import { ApiError } from '../errors.js';
import type { AppContext } from '../app-context.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { requestHeader } from '../http/request-header.js';
import { parseOrThrow } from '../http/validation.js';
import { clientIp } from '../middleware/api-key/client-ip.js';
import { assertSessionDocument } from '../middleware/api-key/index.js';
import type { DocumentRecord } from '../storage/types.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument } from './sdk-documents.js';
import { assertVerified } from '../signer-auth/gate.js';
import { declineDocument } from '../documents/decline.js';
import { findSubmissionOfSigner } from '../storage/queries/submissions.js';

/** A reason is at most a thousand characters: 16 KiB is plenty. */
const MAX_DECLINE_BODY_BYTES = 16 * 1024;

function declineResult(document: DocumentRecord): DeclineResult {
  const { reason, at, signerId } = document.declined!;
  return { documentId: document.id, status: 'declined', reason, declinedAt: at, ...(signerId ? { signerId } : {}) };
}

import { draftNotSignable } from '../documents/drafts.js';
import { voidedNotSignable } from '../documents/void.js';
import { expiredNotSignable } from '../documents/expiry.js';

const refused = (message: string, reason: string) => new ApiError('SUBMISSION_FAILED', message, { details: { reason } });

/** `POST /sdk/documents/{documentId}/decline`: a signer declines, with a reason; idempotent. */
export function declineHandler(deps: AppContext): Pick<EndpointHandlers, 'declineDocument'> {
  return {
    declineDocument: handler(endpoints.declineDocument, {
      before: [smallJsonBodyLimit(MAX_DECLINE_BODY_BYTES)],
      readsItself: ['body'],
      async handle(c, { params }) {
        const key = c.get('apiKey');
        assertSessionDocument(key, params.documentId);
        const { reason } = parseOrThrow(endpoints.declineDocument.request.body.schema, await readJsonObject(c));
        const document = await findOwnDocument(deps, key.organizationId, params.documentId);
        await assertVerified(deps, key, document);
        // Declining again (a retry, a second tab) answers the first decline.
        if (document.declined) return c.json(declineResult(document), 200);
        if (document.status === 'completed') throw refused(`Document ${document.id} is completed`, 'completed');
        if (document.status === 'draft') throw draftNotSignable(document);
        if (document.status === 'voided') throw voidedNotSignable(document);
        if (document.status === 'expired') throw expiredNotSignable(document);
        const signer = document.signers.find((candidate) => candidate.id === key.signerId);
        if (signer && (await findSubmissionOfSigner(deps.storage.db.query, document.id, signer.id))) {
          throw refused(`${signer.name} has already signed document ${document.id}`, 'already_signed');
        }
        const after = await declineDocument(deps.storage, document.id, {
          reason,
          at: new Date(c.get('receivedAt')).toISOString(),
          signerId: signer?.id ?? null,
          ...(signer ? { signerName: signer.name } : {}),
          ip: clientIp(c, deps.config.trustProxy),
          userAgent: requestHeader(c, 'user-agent') ?? null,
        });
        deps.reads.forgetDocument(document.id);
        if (after?.voided) throw voidedNotSignable(after);
        if (after?.status === 'expired') throw expiredNotSignable(after);
        if (!after?.declined) throw refused(`Document ${document.id} is completed`, 'completed');
        return c.json(declineResult(after), 200);
      },
    }),
  };
}
