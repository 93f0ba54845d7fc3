import type { WebhookEvent } from '@signet/api/webhooks';

/** How many received events the demo keeps: the oldest go first. */
export const INBOX_CAPACITY = 500;

/** A verified webhook event as it reached the demo's backend. */
export type ReceivedEvent = WebhookEvent & {
  /** The `webhook-id` header: the same on every attempt of one event. */
  id: string;
  /** When it arrived here (`timestamp` is when Signet says it happened). */
  receivedAt: string;
};

/**
 * The verified webhook events the demo's backend has received, in arrival order, kept in memory up to `capacity`.
 * Standard Webhooks delivers at least once, so an event that comes again under the same id is kept once.
 * @example const inbox = new WebhookInbox(); inbox.add(event); inbox.forDocument('doc_…')
 */
export class WebhookInbox {
  readonly #events: ReceivedEvent[] = [];
  readonly #capacity: number;

  constructor(capacity = INBOX_CAPACITY) {
    this.#capacity = capacity;
  }

  /** Keeps `event` unless one with its id is already here; returns whether it was new. */
  add(event: ReceivedEvent): boolean {
    if (this.#events.some((kept) => kept.id === event.id)) return false;
    this.#events.push(event);
    if (this.#events.length > this.#capacity) this.#events.splice(0, this.#events.length - this.#capacity);
    return true;
  }

  /** The events about `documentId`, oldest first. */
  forDocument(documentId: string): ReceivedEvent[] {
    return this.#events.filter((event) => 'documentId' in event.data && event.data.documentId === documentId);
  }
}
