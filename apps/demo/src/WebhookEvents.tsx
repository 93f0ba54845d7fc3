import type { ReactNode } from 'react';
import type { ReceivedEvent } from './demo-api.js';
import { useDocumentEvents } from './useDocumentEvents.js';

/** One line about what an event says, in the page's words; nothing secret (the signed PDF's URL needs the sk key). */
function describe(event: ReceivedEvent): ReactNode {
  switch (event.type) {
    case 'document.created':
      return `${event.data.filename}, ${event.data.pageCount} ${event.data.pageCount === 1 ? 'page' : 'pages'}`;
    case 'document.viewed':
      return 'The signer opened it';
    case 'signer.opened':
      return `${event.data.signerName} opened it`;
    case 'signer.completed':
      return `${event.data.signerName} signed; ${event.data.remaining === 0 ? 'nobody' : event.data.remaining} left to sign`;
    case 'document.completed':
      return (
        <>
          Submission <code>{event.data.submissionId}</code>
        </>
      );
    case 'document.sealed':
      return (
        <>
          Signed PDF ready, SHA-256 <code>{event.data.sha256.slice(0, 12)}…</code>
        </>
      );
    case 'document.declined':
      return `Declined${event.data.signerName ? ` by ${event.data.signerName}` : ''}: ${event.data.reason}`;
    case 'document.voided':
      return `Voided by the sender: ${event.data.reason}`;
    case 'document.expired':
      return `Expired unsigned at ${event.data.expiresAt}`;
    case 'document.sealing_failed':
      return `Sealing gave up after ${event.data.attempts} attempts: ${event.data.error}`;
    case 'webhook.test':
      return event.data.message;
  }
}

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The webhook events the demo's backend received about the open document, as they arrive. */
export function WebhookEvents({ documentId }: { documentId: string }) {
  const { events, failed } = useDocumentEvents(documentId);
  return (
    <section className="panel events" aria-labelledby="webhook-events-title">
      <div className="panel-head">
        <h2 id="webhook-events-title">Webhook events</h2>
        <span className="muted">{events ? events.length : ''}</span>
      </div>
      <p className="events-intro">Sent by Signet to this page’s backend, which checks each signature.</p>
      {failed && (
        <p className="events-problem" role="status">
          The demo backend is not answering; retrying.
        </p>
      )}
      {events && events.length > 0 ? (
        <ol className="events-list" aria-label="Received events">
          {events.map((event) => (
            <li key={event.id} className={`event event-${event.type.replace('document.', '')}`}>
              <span className="event-row">
                <code className="event-type">{event.type}</code>
                <time dateTime={event.receivedAt} title={`Sent ${new Date(event.timestamp).toLocaleString()}`}>
                  {clock.format(new Date(event.receivedAt))}
                </time>
              </span>
              <span className="event-detail">{describe(event)}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted events-empty">{events ? 'None yet. They appear here as Signet sends them.' : 'Loading…'}</p>
      )}
    </section>
  );
}
