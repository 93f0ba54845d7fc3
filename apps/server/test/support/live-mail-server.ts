import { JobRunner } from '../../src/jobs/runner.js';
import { mailJobKind } from '../../src/mail/mail-kind.js';
import { startMailCatcher, type MailCatcher } from '../mail/mail-catcher.js';
import { startLiveServer, type LiveServer } from './live-server.js';

/** A live server that sends e-mail to a local catcher, with its mail jobs running. */
export interface LiveMailServer {
  server: LiveServer;
  catcher: MailCatcher;
  close(): Promise<void>;
}

/**
 * `startLiveServer` with `SIGNET_SMTP_URL` pointing at a mail catcher and a job runner sending the `mail` jobs as
 * they are queued: for tests of what a signer receives (docs/signer-auth.md).
 * @example const { server, catcher } = await startLiveMailServer(); (await catcher.waitFor('ada@example.com')).text
 */
export async function startLiveMailServer(): Promise<LiveMailServer> {
  const catcher = await startMailCatcher();
  const server = await startLiveServer({ SIGNET_SMTP_URL: catcher.smtpUrl, SIGNET_MAIL_FROM: 'Signet <sign@acme.test>' });
  const { kind, close } = mailJobKind({ mail: server.test.config.mail!, secret: server.test.secret });
  const runner = new JobRunner({ db: server.test.storage.db, logger: server.test.logger });
  runner.register(kind);
  runner.start();
  return {
    server,
    catcher,
    async close() {
      await runner.stop();
      await close();
      await server.close();
      await catcher.close();
    },
  };
}
