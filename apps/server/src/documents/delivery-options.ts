import { DeliverySchema, RemindersSchema } from '@signet/contract';
import { validationError } from '../errors.js';
import { issueDetails } from '../http/validation.js';
import type { EmailDelivery } from '../storage/types.js';
import { parseJsonPart } from './create-document.js';

/** What checking a delivery needs to know: whether this server sends mail, and the request's origin. */
export interface DeliveryOptions {
  mailConfigured: boolean;
  linkBaseUrl?: string;
}

/**
 * The `delivery` and `reminders` of a new document (docs/email.md), checked: absent or `none` is no delivery by
 * e-mail (and then `reminders` is a 400); `email` needs a server that sends mail (`mailConfigured`, else a 422 naming
 * `delivery`). `reminders` may be JSON text (a multipart part) or a parsed value. `linkBaseUrl` is the request's
 * origin, which the document's links use when `PUBLIC_BASE_URL` is not set.
 * @example parseDelivery({ delivery: 'email', reminders: '{"firstAfterDays":3,"everyDays":7,"max":2}' }, { mailConfigured: true })
 */
export function parseDelivery(input: { delivery?: unknown; reminders?: unknown }, options: DeliveryOptions): EmailDelivery | undefined {
  const delivery = DeliverySchema.safeParse(input.delivery ?? 'none');
  if (!delivery.success) throw validationError('delivery', 'must be "none" or "email"');
  if (delivery.data === 'none') {
    if (input.reminders !== undefined) throw validationError('reminders', 'applies only with delivery "email"');
    return undefined;
  }
  if (!options.mailConfigured) {
    throw validationError('delivery', 'this server sends no e-mail: SIGNET_SMTP_URL is not set (docs/email.md)', 422);
  }
  let reminders;
  if (input.reminders !== undefined) {
    const parsed = RemindersSchema.safeParse(parseJsonPart('reminders', input.reminders, 'a JSON object { firstAfterDays, everyDays, max }'));
    if (!parsed.success) {
      const { field, reason } = issueDetails(parsed.error, ['reminders']);
      throw validationError(field, reason);
    }
    reminders = parsed.data;
  }
  return { ...(reminders ? { reminders } : {}), ...(options.linkBaseUrl ? { linkBaseUrl: options.linkBaseUrl } : {}) };
}
