import { useEffect, useState } from 'react';
import { demoApi, type CaughtMessage } from './demo-api.js';

/** How often the page asks its backend for new mail. */
const POLL_MS = 2000;

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * What Signet e-mailed (the demo's mail catcher, docs/email.md): each invitation or reminder with its recipient and
 * a button that follows its signing link, as the recipient would, to Signet's hosted signing page.
 */
export function MailPanel() {
  const [mail, setMail] = useState<{ enabled: boolean; messages: CaughtMessage[] } | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      const next = await demoApi.mail().catch(() => null);
      if (stopped) return;
      if (next) setMail((current) => (current && current.messages[0]?.id === next.messages[0]?.id ? current : next));
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);

  if (mail && !mail.enabled) return null;
  return (
    <section className="panel mail" aria-labelledby="mail-title">
      <div className="panel-head">
        <h2 id="mail-title">Mail</h2>
        <span className="muted">{mail ? mail.messages.length : ''}</span>
      </div>
      <p className="events-intro">What Signet e-mailed the signers, caught on this machine.</p>
      {mail && mail.messages.length > 0 ? (
        <ol className="mail-list" aria-label="Received mail">
          {mail.messages.slice(0, 8).map((message) => (
            <li key={message.id} className="mail-item">
              <span className="event-row">
                <span className="mail-to">To {message.to.join(', ')}</span>
                <time dateTime={message.receivedAt}>{clock.format(new Date(message.receivedAt))}</time>
              </span>
              <span className="mail-subject">{message.subject}</span>
              {message.signingLink && (
                <a className="btn mail-open" href={message.signingLink} target="_blank" rel="noreferrer">
                  Open the signing link
                </a>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted events-empty">{mail ? 'None yet. Start a lease by e-mail: the invitation appears here.' : 'Loading…'}</p>
      )}
    </section>
  );
}
