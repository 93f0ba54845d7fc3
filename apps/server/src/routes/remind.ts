import { endpoints } from '@signet/contract';
import type { AppContext } from '../app-context.js';
import { sendEnvelope } from '../http/envelope.js';
import { remindSigner } from '../mail/remind.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument, requestOrigin } from './sdk-documents.js';

/** `POST /documents/{documentId}/signers/{signerId}/remind` (docs/email.md, "Reminders"). */
export function remindHandler(deps: AppContext): Pick<EndpointHandlers, 'remindSigner'> {
  return {
    remindSigner: handler(endpoints.remindSigner, {
      async handle(c, { params }) {
        const key = c.get('apiKey');
        // The organization's document, or the 404 that never reveals another's.
        const document = await findOwnDocument(deps, key.organizationId, params.documentId);
        const reminder = await remindSigner(deps.storage, {
          config: deps.config,
          secret: deps.secret,
          documentId: document.id,
          signerId: params.signerId,
          sentBy: key.id,
          now: deps.now ? deps.now() : new Date(),
          origin: requestOrigin(c.req.url),
        });
        return sendEnvelope(c, reminder, 202);
      },
    }),
  };
}
