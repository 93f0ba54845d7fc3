import { endpoints } from '@signet/contract';
import type { AppContext } from '../app-context.js';
import { ApiError } from '../errors.js';
import { sendEnvelope } from '../http/envelope.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { parseOrThrow } from '../http/validation.js';
import { findOrganizationProfile, updateOrganizationProfile } from '../storage/queries/organizations.js';
import { handler, type EndpointHandlers } from './serve.js';

/** A name and a colour: 4 KiB is plenty. */
const MAX_ORGANIZATION_BODY_BYTES = 4 * 1024;

/** The key's organization is gone (deleted by hand under a live key): nothing to show, and no other's to reveal. */
const organizationGone = () => new ApiError('INTERNAL_ERROR', "The key's organization no longer exists");

/** `GET` and `PATCH /organization` (docs/email.md, "Branding"): the key's own organization, never another's. */
export function organizationHandlers(deps: AppContext): Pick<EndpointHandlers, 'getOrganization' | 'updateOrganization'> {
  return {
    getOrganization: handler(endpoints.getOrganization, {
      async handle(c) {
        const organization = await findOrganizationProfile(deps.storage.db.query, c.get('apiKey').organizationId);
        if (!organization) throw organizationGone();
        return sendEnvelope(c, organization, 200);
      },
    }),

    updateOrganization: handler(endpoints.updateOrganization, {
      before: [smallJsonBodyLimit(MAX_ORGANIZATION_BODY_BYTES)],
      readsItself: ['body'],
      async handle(c) {
        const body = parseOrThrow(endpoints.updateOrganization.request.body.schema, await readJsonObject(c));
        const updated = await updateOrganizationProfile(deps.storage.db.query, c.get('apiKey').organizationId, body);
        if (!updated) throw organizationGone();
        return sendEnvelope(c, updated, 200);
      },
    }),
  };
}
