import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the catcher received: the SMTP envelope and the parsed message. */
export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | undefined;
  parsed: ParsedMail;
  /** When it arrived, on this process's `performance.now()` clock (the mail benchmark times by it). */
  receivedAt: number;
}

/** A local SMTP server that keeps what it receives (`smtpUrl` points the server at it). */
export interface MailCatcher {
  smtpUrl: string;
  messages: CaughtMail[];
  /** Resolves with the `count`-th message sent to `to` (the first by default), waiting up to `timeoutMs`. */
  waitFor(to: string, options?: { count?: number; timeoutMs?: number }): Promise<CaughtMail>;
  /** Answers the next `count` messages with a reply of `code` (a 4xx the sender retries, a 5xx it gives up on). */
  refuseNext(count: number, code: number): void;
  close(): Promise<void>;
}

/**
 * Starts an SMTP server on a loopback port (no TLS, any login accepted) for tests of what Signet sends.
 * @example const catcher = await startMailCatcher(); … const mail = await catcher.waitFor('ada@example.com');
 */
export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  let refusals: { left: number; code: number } = { left: 0, code: 0 };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      if (refusals.left > 0) {
        refusals.left -= 1;
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('refused by the test'), { responseCode: refusals.code })));
        return;
      }
      simpleParser(stream).then(
        (parsed) => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : undefined,
            parsed,
            receivedAt: performance.now(),
          });
          for (const wake of waiters) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, options = {}) {
      const count = options.count ?? 1;
      const deadline = Date.now() + (options.timeoutMs ?? 15_000);
      const find = () => messages.filter((message) => message.to.includes(to))[count - 1];
      for (;;) {
        const found = find();
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no message #${count} to ${to} within the time limit; received: ${messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none'}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, 200));
          function done() {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
    },
    refuseNext(count, code) {
      refusals = { left: count, code };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
