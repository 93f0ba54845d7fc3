import { sealQueue } from '../sealing/seal-queue.js';
import { deliveryQueue } from '../webhooks/delivery-queue.js';
import { genericQueue } from './generic-queue.js';
import type { NamedQueue } from './admin.js';
import { DOCUMENT_MAIL_KINDS } from '../mail/message.js';

/**
 * The queue of every job kind, for `signet jobs list|retry` and the health output, which read jobs without running
 * them. A new kind adds its queue here (`genericQueue(name)` for one on the `jobs` table).
 */
export function jobQueues(): NamedQueue[] {
  return [
    { name: 'seal', queue: sealQueue() },
    { name: 'webhook', queue: deliveryQueue() },
    // Kinds on the `jobs` table: a document's expiry (documents/expiry.ts), the hourly retention run (documents/retention.ts).
    { name: 'expire', queue: genericQueue('expire') },
    { name: 'retention', queue: genericQueue('retention') },
    // Bulk creation from a template (templates/bulk/bulk-kind.ts).
    { name: 'bulk', queue: genericQueue('bulk') },
    // E-mail (mail/): the messages, and the kinds that write them to signers (invitations, reminders, expiry notices,
    // the signed copy's link).
    ...DOCUMENT_MAIL_KINDS.map((name) => ({ name, queue: genericQueue(name) })),
  ];
}
