import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** How many messages the demo keeps: the oldest go first. */
export const MAIL_CAPACITY = 200;

/** A message Signet sent, as the demo's inbox shows it. */
export interface CaughtMessage {
  id: number;
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
  /** The hosted signing page's link in it, if any: what the recipient would click. */
  signingLink: string | null;
}

/** The demo's mail catcher: an SMTP server on a loopback port that keeps what Signet sends. */
export interface MailInbox {
  /** What the API server sends to (`SIGNET_SMTP_URL`). */
  smtpUrl: string;
  /** The messages received, newest first. */
  messages(): CaughtMessage[];
  close(): Promise<void>;
}

/**
 * Starts the demo's mail catcher (docs/email.md, "Trying it"): `pnpm start` points the API at it when no
 * `SIGNET_SMTP_URL` is set, so a new user reads the invitations on the demo page and follows their links. It accepts
 * any sender and recipient on loopback only, and relays nothing.
 * @example const inbox = await startMailInbox(); … config.mail = { smtpUrl: inbox.smtpUrl, … }
 */
export async function startMailInbox(options: { host?: string; capacity?: number } = {}): Promise<MailInbox> {
  const capacity = options.capacity ?? MAIL_CAPACITY;
  const kept: CaughtMessage[] = [];
  let next = 1;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const text = parsed.text ?? '';
          kept.unshift({
            id: next++,
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: parsed.subject ?? '',
            text,
            receivedAt: new Date().toISOString(),
            signingLink: /https?:\/\/\S+\/sign\/[A-Za-z0-9._~-]+/.exec(text)?.[0] ?? null,
          });
          kept.splice(capacity);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  server.listen(0, options.host ?? '127.0.0.1');
  await once(server.server, 'listening');
  const { address, port } = server.server.address() as AddressInfo;
  return {
    smtpUrl: `smtp://${address}:${port}`,
    messages: () => kept.slice(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
