import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { storageEngines } from '../../test/storage/test-engines.js';
import { capturingLogger } from '../../test/support/harness.js';
import { startMailCatcher, type MailCatcher } from '../../test/mail/mail-catcher.js';
import { loadConfig } from '../config.js';
import { JobRunner } from '../jobs/runner.js';
import type { Storage } from '../storage/types.js';
import { mailJobKind } from './mail-kind.js';
import { enqueueMail } from './outbox.js';

const engines = await storageEngines();
const SECRET = 'mail-kind-test-secret-of-32-characters!';

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(() => catcher.close());

describe('the mail settings', () => {
  it('are absent without SIGNET_SMTP_URL, and refuse an address that is not SMTP', () => {
    expect(loadConfig({}).mail).toBeUndefined();
    expect(loadConfig({ SIGNET_SMTP_URL: 'smtps://u:p@mail.example.com:465', SIGNET_MAIL_FROM: 'Acme <sign@acme.test>' }).mail).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      from: 'Acme <sign@acme.test>',
      timeoutMs: 15_000,
    });
    expect(() => loadConfig({ SIGNET_SMTP_URL: 'https://mail.example.com' })).toThrow(/SIGNET_SMTP_URL: an smtp:\/\/ or smtps:\/\//);
  });
});

describe.each(engines)('the mail job kind on $name', (engine) => {
  let storage: Storage;
  const stops: (() => Promise<unknown> | void)[] = [];

  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await storage.close();
  });

  async function runner() {
    storage = await engine.open();
    const { kind, close } = mailJobKind({ mail: { smtpUrl: catcher.smtpUrl, from: 'Signet <signet@acme.test>', timeoutMs: 5_000 }, secret: SECRET });
    const { logger, logs } = capturingLogger();
    const created = new JobRunner({ db: storage.db, logger });
    created.register(kind);
    stops.push(close, () => created.stop());
    return { runner: created, logs };
  }

  it('sends a queued message once, keeps it encrypted while queued, and a key queues it once', async () => {
    const { runner: created, logs } = await runner();
    const to = `ada-${engine.name}@example.com`;
    const message = { to, subject: 'Please sign the lease', text: 'Open https://sign.acme.test/sign/secret-link to sign.', html: '<p>Open the link</p>' };
    const id = await storage.db.transaction((tx) => enqueueMail(tx, SECRET, message, { purpose: 'invitation', documentId: 'doc_1', key: `invite:${engine.name}` }));
    expect(id).toMatch(/^job_/);
    expect(await storage.db.transaction((tx) => enqueueMail(tx, SECRET, message, { purpose: 'invitation', key: `invite:${engine.name}` }))).toBeNull();
    const row = await storage.db.query.selectFrom('jobs').select('payload').where('id', '=', id!).executeTakeFirstOrThrow();
    expect(String(row.payload)).not.toContain('secret-link');
    expect(JSON.parse(String(row.payload))).toMatchObject({ to, purpose: 'invitation', documentId: 'doc_1' });

    expect(await created.runOnce('mail')).toBe(true);
    const mail = await catcher.waitFor(to);
    expect(mail).toMatchObject({ from: 'signet@acme.test', to: [to], subject: 'Please sign the lease', html: '<p>Open the link</p>' });
    expect(mail.text.trim()).toBe(message.text);
    expect(logs.find((line) => line.msg === 'mail sent')).toMatchObject({ purpose: 'invitation', documentId: 'doc_1' });
    expect(JSON.stringify(logs)).not.toContain('secret-link');
    expect(await created.runOnce('mail')).toBe(false);
  });

  it('tries again after a 4xx reply, and gives up at once on a 5xx reply with the reason', async () => {
    const { runner: created } = await runner();
    const to = `grace-${engine.name}@example.com`;
    catcher.refuseNext(1, 451);
    const id = await storage.db.transaction((tx) => enqueueMail(tx, SECRET, { to, subject: 'Code', text: 'Your code is 123456' }, { purpose: 'signer-code' }));
    expect(await created.runOnce('mail')).toBe(true);
    let job = await storage.db.query.selectFrom('jobs').select(['status', 'attempts', 'last_error']).where('id', '=', id!).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'pending', attempts: 1 });

    catcher.refuseNext(1, 550);
    await storage.db.query.updateTable('jobs').set({ run_at: 0 }).where('id', '=', id!).execute();
    expect(await created.runOnce('mail')).toBe(true);
    job = await storage.db.query.selectFrom('jobs').select(['status', 'attempts', 'last_error']).where('id', '=', id!).executeTakeFirstOrThrow();
    expect(job.status).toBe('dead');
    expect(job.last_error).toMatch(/the mail server refused the message/);
    expect(catcher.messages.filter((message) => message.to.includes(to))).toHaveLength(0);
  });
});
