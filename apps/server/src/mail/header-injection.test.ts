import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageEngines } from '../../test/storage/test-engines.js';
import { capturingLogger } from '../../test/support/harness.js';
import { startMailCatcher, type MailCatcher } from '../../test/mail/mail-catcher.js';
import { JobRunner } from '../jobs/runner.js';
import { mailJobKind } from './mail-kind.js';
import { enqueueMail } from './outbox.js';
import { signingInvitationMessage } from './signing-invitation.js';

/*
 * Hostile input in what an invitation carries (docs/email.md): names and file names are the sender's and the
 * signer's words, and must never become headers or recipients of their own (SMTP header injection).
 */

const SECRET = 'header-injection-test-secret-32-chars!!';
const sqlite = (await storageEngines()).find((engine) => engine.name === 'sqlite')!;
let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(() => catcher.close());

describe('an invitation with line breaks and headers in its names', () => {
  const hostile = 'Acme\r\nBcc: thief@evil.test\r\nX-Injected: yes\n\nBody takeover';

  it('keeps the subject on one line, adds no header, and reaches only its one recipient', async () => {
    const message = signingInvitationMessage({
      kind: 'invitation',
      to: 'ada@example.com',
      signerName: `Ada\r\nCc: thief@evil.test`,
      organizationName: hostile,
      documentName: 'lease.pdf\r\nContent-Type: text/html',
      url: 'https://sign.acme.test/sign/abc.123.def',
      expiresAt: new Date('2027-03-01T12:00:00Z'),
    });
    expect(message.subject).not.toMatch(/[\r\n]/);

    const storage = await sqlite.open();
    const { kind, close } = mailJobKind({ mail: { smtpUrl: catcher.smtpUrl, from: 'Signet <signet@acme.test>', timeoutMs: 5_000 }, secret: SECRET });
    const runner = new JobRunner({ db: storage.db, logger: capturingLogger().logger });
    runner.register(kind);
    try {
      await expect(
        storage.db.transaction((tx) => enqueueMail(tx, SECRET, { ...message, to: 'ada@example.com\r\nBcc: thief@evil.test' }, { purpose: 'invitation' })),
      ).rejects.toThrow();
      await storage.db.transaction((tx) => enqueueMail(tx, SECRET, message, { purpose: 'invitation' }));
      expect(await runner.runOnce('mail')).toBe(true);
      const caught = await catcher.waitFor('ada@example.com');
      expect(caught.to).toEqual(['ada@example.com']);
      expect(catcher.messages.filter((received) => received.to.includes('thief@evil.test'))).toHaveLength(0);
      const headers = caught.parsed.headers;
      expect(headers.has('bcc')).toBe(false);
      expect(headers.has('cc')).toBe(false);
      expect(headers.has('x-injected')).toBe(false);
      expect(headers.get('content-type')).not.toMatchObject({ value: 'text/html' });
      expect(caught.subject).toBe('Acme Bcc: thief@evil.test X-Injected: yes Body takeover asks you to sign lease.pdf Content-Type: text/html');
      // The HTML body shows the words as text.
      expect(caught.html).toContain('Hello Ada Cc: thief@evil.test,');
    } finally {
      await runner.stop();
      close();
      await storage.close();
    }
  });
});
