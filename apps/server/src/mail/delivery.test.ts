import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startMailCatcher, type MailCatcher } from '../../test/mail/mail-catcher.js';
import { expectError } from '../../test/support/envelope.js';
import { buildPayload, call, completeValues, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { createDocument } from '../documents/create-document.js';
import { JobRunner } from '../jobs/runner.js';
import { listJobs } from '../jobs/admin.js';
import { jobQueues } from '../jobs/queues.js';
import { generateSamplePdf, sampleLeaseFields } from '../pdf/sample.js';
import type { Reminders, SignerLocale } from '@signet/contract';
import { deliveryJobKinds } from './delivery-kinds.js';
import { mailJobKind } from './mail-kind.js';

/*
 * Delivery by e-mail (docs/email.md): invitations when a signer's turn comes, reminders on the document's schedule,
 * each once; the hosted page their link opens. Through the real app, job runner and an SMTP catcher, on both engines.
 */

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(() => catcher.close());

describe.each(engines)('delivery by e-mail on $name', (engine) => {
  let t: TestApp;
  let runner: JobRunner;
  let closeMail: () => void;
  let sk: string;
  beforeAll(async () => {
    t = await createTestApp(engine, { SIGNET_SMTP_URL: 'smtp://127.0.0.1:1', SIGNET_MAIL_FROM: 'Signet <signet@acme.test>' });
    const mail = mailJobKind({ mail: { smtpUrl: catcher.smtpUrl, from: 'Signet <signet@acme.test>', timeoutMs: 5_000 }, secret: t.secret });
    runner = new JobRunner({ db: t.storage.db, logger: t.logger });
    runner.register(mail.kind);
    for (const kind of deliveryJobKinds({ config: t.config, secret: t.secret })) runner.register(kind);
    closeMail = mail.close;
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterAll(async () => {
    await runner.stop();
    closeMail();
    await t.close();
  });

  /** Runs every due job of `kind` until none is left; resolves with how many ran. */
  async function drain(kind: string): Promise<number> {
    let ran = 0;
    while (await runner.runOnce(kind)) ran += 1;
    return ran;
  }
  const deliver = async () => (await drain('invitation')) + (await drain('reminder')) + (await drain('mail'));

  /** A lease whose two signers have addresses of their own, with delivery by e-mail. */
  async function lease(
    options: { reminders?: Reminders; signingOrder?: 'sequential' | 'parallel'; expiresAt?: string; locales?: { tenant?: SignerLocale; landlord?: SignerLocale } } = {},
  ) {
    const tag = randomBytes(4).toString('hex');
    const { tenant: tenantLocale, landlord: landlordLocale } = options.locales ?? {};
    const signers = [
      { id: 'tenant', name: 'Tina <b>Tenant</b>', email: `tina-${tag}@example.com`, order: 1, ...(tenantLocale ? { locale: tenantLocale } : {}) },
      { id: 'landlord', name: 'Lars Landlord', email: `lars-${tag}@example.com`, order: 2, ...(landlordLocale ? { locale: landlordLocale } : {}) },
    ];
    const document = await createDocument(t.storage, {
      organizationId: t.org.id,
      filename: 'lease <2026>.pdf',
      bytes: await generateSamplePdf({ pages: 2, title: 'Lease', countersigned: true }),
      fields: sampleLeaseFields(2),
      signers,
      signingOrder: options.signingOrder ?? 'sequential',
      delivery: { ...(options.reminders ? { reminders: options.reminders } : {}), linkBaseUrl: 'https://sign.acme.test' },
      ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
      maxPdfBytes: t.config.maxPdfBytes,
    });
    return { document, tenant: signers[0]!.email, landlord: signers[1]!.email };
  }

  const linkOf = (text: string) => /https:\/\/sign\.acme\.test(\/sign\/[A-Za-z0-9_.-]+)/.exec(text)![1]!;
  const sentTo = (to: string) => catcher.messages.filter((message) => message.to.includes(to));
  const auditTypes = async (documentId: string) =>
    (((await (await call(t, 'GET', `/documents/${documentId}/audit`, { key: sk })).json()) as any).data.events as { type: string; signerId?: string }[]).map(
      (event) => `${event.type}${event.signerId ? `:${event.signerId}` : ''}`,
    );

  it('invites the first signer at creation and the next when their turn comes, once each, with an escaped message', async () => {
    const { document, tenant, landlord } = await lease();
    expect(await drain('invitation')).toBe(1);
    expect(await drain('mail')).toBe(1);
    const invitation = await catcher.waitFor(tenant);
    expect(invitation.subject).toBe('Acme Test asks you to sign lease <2026>.pdf');
    expect(invitation.text).toContain('Hello Tina <b>Tenant</b>,');
    expect(invitation.html).toContain('Tina &lt;b&gt;Tenant&lt;/b&gt;');
    expect(invitation.html).not.toContain('<b>Tenant');
    expect(sentTo(landlord)).toHaveLength(0);

    // The link opens the hosted page with a session key for the tenant.
    const page = await t.app.request(linkOf(invitation.text), { headers: { 'Accept-Language': 'de-CH, de;q=0.9, en;q=0.5' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Security-Policy')).toMatch(/script-src 'self';/);
    expect(page.headers.get('Cache-Control')).toBe('no-store');
    const html = await page.text();
    // A signer without a language: the page speaks the browser's.
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<title>lease &lt;2026&gt;.pdf unterschreiben · Acme Test</title>');
    expect(html).toMatch(/<signet-signing-viewer document-id="doc_\w+" api-key="pk_\w+" base-url="http:\/\/localhost" locale="de">/);
    expect(html).not.toMatch(/<script>|<script type="module">/);
    const key = /api-key="(pk_\w+)"/.exec(html)![1]!;

    // The tenant signs with that key: the landlord's turn comes, and with it their invitation.
    const sdk = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key })).json()) as any;
    expect(sdk.signerId).toBe('tenant');
    const tenantFields = document.fields.filter((field) => field.signerId === 'tenant');
    const submitted = await call(t, 'POST', '/sdk/documents/submit', {
      key,
      body: await buildPayload({ ...document, fields: tenantFields }, completeValues(tenantFields)),
    });
    expect(submitted.status).toBe(201);
    expect(await deliver()).toBe(2);
    expect((await catcher.waitFor(landlord)).subject).toBe('Acme Test asks you to sign lease <2026>.pdf');
    // Again: nothing more (keyed per signer).
    expect(await deliver()).toBe(0);
    expect(sentTo(tenant)).toHaveLength(1);
    expect(await auditTypes(document.id)).toEqual(
      expect.arrayContaining(['signer.invited:tenant', 'signer.invited:landlord', 'signer.completed:tenant']),
    );
  });

  it("writes to each signer in their language, and the hosted page speaks it whatever the browser's", async () => {
    const expiresAt = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const { document, tenant, landlord } = await lease({ signingOrder: 'parallel', expiresAt, locales: { tenant: 'de', landlord: 'ja' } });
    expect(await deliver()).toBe(4); // two invitations, two mails
    const german = await catcher.waitFor(tenant);
    expect(german.subject).toBe('Acme Test bittet Sie, lease <2026>.pdf zu unterschreiben');
    expect(german.text).toContain('Hallo Tina <b>Tenant</b>,');
    expect(german.text).toContain('Acme Test hat Ihnen „lease <2026>.pdf“ zur Unterschrift gesendet.');
    expect(german.text).toMatch(/Der Link gilt bis \d+\. \p{L}+ \d{4} um \d\d:\d\d UTC\. Er gilt nur für Sie/u);
    expect(german.html).toContain('<html lang="de" dir="ltr">');
    expect(german.html).toContain('Hallo Tina &lt;b&gt;Tenant&lt;/b&gt;,');
    expect(german.html).toContain('>Prüfen und unterschreiben</a>');
    const japanese = await catcher.waitFor(landlord);
    expect(japanese.subject).toBe('Acme Testから「lease <2026>.pdf」への署名のお願い');
    expect(japanese.text).toMatch(/このリンクは\d{4}年\d+月\d+日 \d\d:\d\d UTCまで有効です。/);
    expect(japanese.html).toContain('<html lang="ja" dir="ltr">');

    // The page: the signer's language, not the browser's; the viewer is told it too.
    const html = await (await t.app.request(linkOf(german.text), { headers: { 'Accept-Language': 'fr' } })).text();
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<div class="who">Sie unterschreiben als Tina &lt;b&gt;Tenant&lt;/b&gt;</div>');
    expect(html).toMatch(/<signet-signing-viewer [^>]*locale="de">/);

    // The expiry notice and the signed copy: in each signer's language too.
    await t.storage.db.query.updateTable('jobs').set({ run_at: 0 }).where('kind', '=', 'expiry-notice').where('key', 'like', `${document.id}:%`).execute();
    expect(await drain('expiry-notice')).toBe(2);
    expect(await drain('mail')).toBe(2);
    expect((await catcher.waitFor(tenant, { count: 2 })).subject).toMatch(/^Läuft bald ab: lease <2026>\.pdf braucht Ihre Unterschrift bis \d+\. /);
    expect((await catcher.waitFor(landlord, { count: 2 })).subject).toMatch(/^まもなく期限切れ：「lease <2026>\.pdf」に\d{4}年/);
    await signAs(document, 'tenant');
    await signAs(document, 'landlord');
    expect(await t.sealDue()).toBe(1);
    expect(await drain('completion')).toBe(2);
    expect(await drain('mail')).toBe(2);
    const copy = await catcher.waitFor(tenant, { count: 3 });
    expect(copy.subject).toBe('Von allen unterschrieben: lease <2026>.pdf');
    expect(copy.text).toContain('Hier laden Sie Ihre unterschriebene Kopie herunter: https://sign.acme.test/sign/');
    expect((await catcher.waitFor(landlord, { count: 3 })).subject).toBe('全員の署名が完了しました：「lease <2026>.pdf」');

    // A page that does not open says why in the signer's language (right to left in Arabic), or else the browser's.
    const arabic = await lease({ locales: { tenant: 'ar' } });
    await drain('invitation');
    await drain('mail');
    const invitation = await catcher.waitFor(arabic.tenant);
    expect(invitation.html).toContain('<html lang="ar" dir="rtl">');
    expect(invitation.html).toContain('<span dir="ltr">https://sign.acme.test/sign/');
    expect((await call(t, 'POST', `/documents/${arabic.document.id}/void`, { key: sk, body: { reason: 'wrong tenant' } })).status).toBe(200);
    const voided = await t.app.request(linkOf(invitation.text), { headers: { 'Accept-Language': 'fr' } });
    expect(voided.status).toBe(410);
    const notice = await voided.text();
    expect(notice).toContain('<html lang="ar" dir="rtl">');
    expect(notice).toContain('<h1>أُلغي هذا المستند</h1>');
    const invalid = await t.app.request('/sign/nonsense', { headers: { 'Accept-Language': 'fr-CA, fr;q=0.9' } });
    expect(invalid.status).toBe(404);
    expect(await invalid.text()).toContain('<h1>Ce lien n’est pas valide</h1>');
  });

  it('reminds on the schedule, at most max times, and stops once the signer signed', async () => {
    const { document, tenant } = await lease({ reminders: { firstAfterDays: 2, everyDays: 3, max: 2 }, signingOrder: 'parallel' });
    expect(await deliver()).toBe(4); // two invitations, two mails
    const pending = () =>
      t.storage.db.query.selectFrom('jobs').select(['key', 'run_at']).where('kind', '=', 'reminder').where('status', '=', 'pending').where('key', 'like', `${document.id}:%`).execute();
    const first = await pending();
    expect(first.map((job) => job.key).sort()).toEqual([`${document.id}:landlord:1`, `${document.id}:tenant:1`]);
    expect(Number(first[0]!.run_at) - Date.now()).toBeGreaterThan(2 * 86_400_000 - 60_000);
    const due = () => t.storage.db.query.updateTable('jobs').set({ run_at: 0 }).where('kind', '=', 'reminder').where('status', '=', 'pending').execute();

    await due();
    expect(await drain('reminder')).toBe(2);
    await drain('mail');
    const reminder = await catcher.waitFor(tenant, { count: 2 });
    expect(reminder.subject).toBe('Reminder: Acme Test is waiting for your signature on lease <2026>.pdf');
    expect((await pending()).map((job) => job.key).sort()).toEqual([`${document.id}:landlord:2`, `${document.id}:tenant:2`]);

    // The tenant signs; the landlord's second reminder is the last (max 2).
    const key = (await t.createSession(document.id, 'tenant')).secret;
    const tenantFields = document.fields.filter((field) => field.signerId === 'tenant');
    await call(t, 'POST', '/sdk/documents/submit', { key, body: await buildPayload({ ...document, fields: tenantFields }, completeValues(tenantFields)) });
    await due();
    expect(await drain('reminder')).toBe(2);
    expect(await drain('mail')).toBe(1);
    expect(sentTo(tenant)).toHaveLength(2);
    expect(await pending()).toHaveLength(0);
    const types = await auditTypes(document.id);
    expect(types.filter((type) => type === 'signer.reminded:landlord')).toHaveLength(2);
    expect(types.filter((type) => type === 'signer.reminded:tenant')).toHaveLength(1);
  });

  it('tells a signer who has not signed that the document expires, 48 hours before, and not one who signed', async () => {
    const expiresAt = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const { document, tenant, landlord } = await lease({ signingOrder: 'parallel', expiresAt });
    expect(await deliver()).toBe(4); // two invitations, two mails
    const notices = () =>
      t.storage.db.query.selectFrom('jobs').select(['key', 'run_at']).where('kind', '=', 'expiry-notice').where('status', '=', 'pending').where('key', 'like', `${document.id}:%`).orderBy('key').execute();
    const scheduled = await notices();
    expect(scheduled.map((job) => job.key)).toEqual([`${document.id}:landlord`, `${document.id}:tenant`]);
    expect(Number(scheduled[0]!.run_at)).toBe(Date.parse(expiresAt) - 48 * 3_600_000);

    // The tenant signs; both notices come due: only the landlord, who has not signed, is told.
    await signAs(document, 'tenant');
    await t.storage.db.query.updateTable('jobs').set({ run_at: 0 }).where('kind', '=', 'expiry-notice').where('key', 'like', `${document.id}:%`).execute();
    expect(await drain('expiry-notice')).toBe(2);
    expect(await drain('mail')).toBe(1);
    const notice = await catcher.waitFor(landlord, { count: 2 });
    expect(notice.subject).toMatch(/^Expires soon: lease <2026>\.pdf needs your signature by \d+ \w+ \d{4},? (at )?\d\d:\d\d UTC$/);
    expect(notice.text).toContain('expires on');
    expect(linkOf(notice.text)).toMatch(/^\/sign\//);
    expect(sentTo(tenant)).toHaveLength(1);
    expect((await auditTypes(document.id)).filter((type) => type === 'signer.reminded:landlord')).toHaveLength(1);

    // A document that expires within 48 hours gets no notice: its invitation says the deadline.
    const soon = await lease({ expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect(await drain('invitation')).toBe(1);
    expect(
      await t.storage.db.query.selectFrom('jobs').select('key').where('kind', '=', 'expiry-notice').where('key', 'like', `${soon.document.id}:%`).execute(),
    ).toEqual([]);
  });

  it('sends nothing once the document is voided, and its link answers 410', async () => {
    const { document, tenant } = await lease();
    await drain('invitation');
    await drain('mail');
    const link = linkOf((await catcher.waitFor(tenant)).text);
    expect((await call(t, 'POST', `/documents/${document.id}/void`, { key: sk, body: { reason: 'wrong tenant' } })).status).toBe(200);
    const page = await t.app.request(link);
    expect(page.status).toBe(410);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('This document was cancelled');
    await expectError(await call(t, 'POST', `/documents/${document.id}/signers/tenant/remind`, { key: sk }), 409, 'DOCUMENT_CLOSED');
  });

  /** Signs `document` as `signerId` through a session key of theirs, as the hosted page's viewer does. */
  async function signAs(document: Awaited<ReturnType<typeof lease>>['document'], signerId: string) {
    const key = (await t.createSession(document.id, signerId)).secret;
    const fields = document.fields.filter((field) => field.signerId === signerId);
    const submitted = await call(t, 'POST', '/sdk/documents/submit', { key, body: await buildPayload({ ...document, fields }, completeValues(fields)) });
    expect(submitted.status).toBe(201);
  }

  it("mails the signed copy's link to every signer once the document is sealed, once each", async () => {
    const { document, tenant, landlord } = await lease({ signingOrder: 'parallel' });
    expect(await deliver()).toBe(4); // two invitations, two mails
    await signAs(document, 'tenant');
    await signAs(document, 'landlord');
    // Completed but not sealed yet: nothing to send.
    expect(await drain('completion')).toBe(0);
    expect(await t.sealDue()).toBe(1);
    expect(await drain('completion')).toBe(2);
    expect(await drain('mail')).toBe(2);
    for (const address of [tenant, landlord]) {
      const copy = await catcher.waitFor(address, { count: 2 });
      expect(copy.subject).toBe('Signed by everyone: lease <2026>.pdf');
      expect(copy.text).toContain('Everyone has signed "lease <2026>.pdf", which Acme Test sent you.');
      expect(copy.html).toContain('lease &lt;2026&gt;.pdf');
      expect(copy.html).not.toContain('<2026>');
      // The link opens the hosted page on the completed document, whose viewer offers the signed copy.
      const page = await t.app.request(linkOf(copy.text));
      expect(page.status).toBe(200);
      const key = /api-key="(pk_\w+)"/.exec(await page.text())![1]!;
      const sdk = (await (await call(t, 'GET', `/sdk/documents/${document.id}`, { key })).json()) as any;
      expect(sdk.metadata.status).toBe('completed');
      expect(sdk.signedDocumentUrl).toEqual(expect.any(String));
    }
    // Keyed per signer: a second look finds nothing more to send.
    expect(await drain('completion')).toBe(0);
    // `signet jobs list --kind completion` (and the metrics) see the kind.
    const listed = await listJobs(t.storage.db, jobQueues().filter((queue) => queue.name === 'completion'), { limit: 100 });
    expect(listed.filter((job) => String(job.key).startsWith(`${document.id}:`)).map((job) => [job.key, job.state]).sort()).toEqual([
      [`${document.id}:landlord`, 'done'],
      [`${document.id}:tenant`, 'done'],
    ]);
    expect(sentTo(tenant)).toHaveLength(2);
    expect(sentTo(landlord)).toHaveLength(2);
  });

  it('sends no completion message for a document not delivered by e-mail', async () => {
    const document = await createDocument(t.storage, {
      organizationId: t.org.id,
      bytes: await generateSamplePdf({ pages: 2, countersigned: true }),
      fields: sampleLeaseFields(2),
      signers: [{ id: 'tenant', name: 'T', email: 'quiet-tenant@example.com' }, { id: 'landlord', name: 'L', email: 'quiet-landlord@example.com' }],
      signingOrder: 'parallel',
      maxPdfBytes: t.config.maxPdfBytes,
    });
    await signAs(document, 'tenant');
    await signAs(document, 'landlord');
    expect(await t.sealDue()).toBe(1);
    expect(await drain('completion')).toBe(0);
    expect(sentTo('quiet-tenant@example.com')).toHaveLength(0);
  });

  it('erasing a document drops the messages and reminders queued for it', async () => {
    const { document, tenant } = await lease({ reminders: { firstAfterDays: 1, everyDays: 1, max: 3 } });
    // The invitation's message and the first reminder are queued, not sent.
    expect(await drain('invitation')).toBe(1);
    const queued = () =>
      t.storage.db.query.selectFrom('jobs').select(['kind']).where('status', '=', 'pending').where('payload', 'like', `%${document.id}%`).execute();
    expect((await queued()).map((job) => job.kind).sort()).toEqual(['mail', 'reminder']);
    const other = await lease();
    expect(await drain('invitation')).toBe(1);
    expect((await call(t, 'DELETE', `/documents/${document.id}`, { key: sk })).status).toBe(200);
    expect(await queued()).toEqual([]);
    // Another document's message stays queued and goes out.
    expect(await drain('mail')).toBe(1);
    await catcher.waitFor(other.tenant);
    expect(sentTo(tenant)).toHaveLength(0);
  });

  it('refuses more than 20 visits a minute of one link, and 60 from one address, with a 429 page', async () => {
    const { tenant } = await lease();
    await drain('invitation');
    await drain('mail');
    const link = linkOf((await catcher.waitFor(tenant)).text);
    const from = (ip: string, path = link) => t.app.request(path, { headers: { 'X-Forwarded-For': ip } });
    // One link from many addresses: each visit stores a session key, so a leaked link mints at most 20 a minute.
    for (let i = 1; i <= 20; i++) expect((await from(`203.0.113.${i}`)).status).toBe(200);
    const busy = await from('203.0.113.99');
    expect(busy.status).toBe(429);
    expect(Number(busy.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(busy.headers.get('Content-Security-Policy')).toMatch(/script-src 'self';/);
    const html = await busy.text();
    expect(html).toContain('Too many visits');
    expect(html).not.toContain('api-key=');
    // One address, whatever the links: the 61st visit is refused; another address is not.
    for (let i = 0; i < 60; i++) expect((await from('198.51.100.7', `/sign/nonsense${i}`)).status).toBe(404);
    expect((await from('198.51.100.7', '/sign/nonsense')).status).toBe(429);
    expect((await from('198.51.100.8', '/sign/nonsense')).status).toBe(404);
  });

  it('answers a link that is not valid, tampered with, expired or erased with an HTML page', async () => {
    const { document, tenant } = await lease();
    await drain('invitation');
    await drain('mail');
    const link = linkOf((await catcher.waitFor(tenant)).text);
    for (const path of ['/sign/nonsense', `${link.slice(0, -2)}AA`, '/sign/%3Cscript%3E', `/sign/${'a'.repeat(5000)}`]) {
      const page = await t.app.request(path);
      expect(page.status).toBe(404);
      const html = await page.text();
      expect(html).toContain('This link is not valid');
      expect(html).not.toContain('<script');
    }
    const [, subject, , mac] = /^\/sign\/([^.]+)\.(\d+)\.(.+)$/.exec(link)!;
    expect((await t.app.request(`/sign/${subject}.1.${mac}`)).status).toBe(404); // another expiry: the MAC no longer fits
    expect((await call(t, 'DELETE', `/documents/${document.id}`, { key: sk })).status).toBe(200);
    const erased = await t.app.request(link);
    expect(erased.status).toBe(410);
    expect(await erased.text()).toContain('no longer available');
  });

  it('POST /documents takes delivery and reminders as parts, and refuses bad ones by name', async () => {
    const pdf = await generateSamplePdf({ pages: 2, title: 'Lease', countersigned: true });
    const upload = (parts: Record<string, string>) => {
      const form = new FormData();
      form.append('file', new File([pdf as Uint8Array<ArrayBuffer>], 'lease.pdf', { type: 'application/pdf' }));
      form.append('fields', JSON.stringify(sampleLeaseFields(2)));
      form.append('signers', JSON.stringify([{ id: 'tenant', name: 'T', email: 't@example.com' }, { id: 'landlord', name: 'L', email: 'l@example.com' }]));
      for (const [name, value] of Object.entries(parts)) form.append(name, value);
      return t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
    };
    const created = await upload({ delivery: 'email', reminders: '{"firstAfterDays":3,"everyDays":7,"max":3}' });
    expect(created.status).toBe(201);
    expect(((await created.json()) as any).data).toMatchObject({ delivery: 'email', reminders: { firstAfterDays: 3, everyDays: 7, max: 3 } });
    const plain = await upload({});
    expect(((await plain.json()) as any).data.delivery).toBeUndefined();
    const cases: [Record<string, string>, string][] = [
      [{ delivery: 'sms' }, 'delivery'],
      [{ reminders: '{"firstAfterDays":3,"everyDays":7,"max":3}' }, 'reminders'],
      [{ delivery: 'email', reminders: '{"firstAfterDays":0,"everyDays":7,"max":3}' }, 'reminders.firstAfterDays'],
      [{ delivery: 'email', reminders: '{"firstAfterDays":1,"everyDays":7,"max":11}' }, 'reminders.max'],
      [{ delivery: 'email', reminders: '{"firstAfterDays":1,"everyDays":7,"max":1,"often":true}' }, 'reminders.often'],
      [{ delivery: 'email', reminders: 'not json' }, 'reminders'],
    ];
    for (const [parts, field] of cases) {
      expect((await expectError(await upload(parts), 400, 'VALIDATION_ERROR')).details?.field).toBe(field);
    }
  });

  it('POST …/signers/{signerId}/remind: sends one now, then 429 within the hour; refuses what cannot be reminded', async () => {
    const { document, tenant } = await lease({ signingOrder: 'sequential' });
    // The invitation was a message within the hour too.
    await drain('invitation');
    const early = await expectError(await call(t, 'POST', `/documents/${document.id}/signers/tenant/remind`, { key: sk }), 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(early.details?.retryAfterSeconds)).toBeGreaterThan(3500);
    await t.storage.db.query.updateTable('signer_messages').set({ sent_at: Date.now() - 3_601_000 }).where('document_id', '=', document.id).execute();
    const reminded = await call(t, 'POST', `/documents/${document.id}/signers/tenant/remind`, { key: sk });
    expect(reminded.status).toBe(202);
    expect(((await reminded.json()) as any).data).toMatchObject({ documentId: document.id, signerId: 'tenant', email: tenant, queuedAt: expect.any(String) });
    await drain('mail');
    expect((await catcher.waitFor(tenant, { count: 2 })).subject).toMatch(/^Reminder: /);
    const again = await call(t, 'POST', `/documents/${document.id}/signers/tenant/remind`, { key: sk });
    await expectError(again, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(again.headers.get('Retry-After'))).toBeGreaterThan(3500);

    // The landlord waits for their turn; an unknown signer is a 404.
    expect((await expectError(await call(t, 'POST', `/documents/${document.id}/signers/landlord/remind`, { key: sk }), 422, 'VALIDATION_ERROR')).details?.field).toBe('signerId');
    await expectError(await call(t, 'POST', `/documents/${document.id}/signers/nobody/remind`, { key: sk }), 404, 'NOT_FOUND');
    const noEmail = await createDocument(t.storage, {
      organizationId: t.org.id,
      bytes: await generateSamplePdf({ pages: 2, countersigned: true }),
      fields: sampleLeaseFields(2),
      signers: [{ id: 'tenant', name: 'T' }, { id: 'landlord', name: 'L' }],
      maxPdfBytes: t.config.maxPdfBytes,
    });
    const refused = await expectError(await call(t, 'POST', `/documents/${noEmail.id}/signers/tenant/remind`, { key: sk }), 422, 'VALIDATION_ERROR');
    expect(refused.details?.field).toBe('signerId');
  });

  it('remind: auth, bad ids, another organization', async () => {
    const { document } = await lease();
    const path = `/documents/${document.id}/signers/tenant/remind`;
    const pk = (await t.createKey()).secret;
    await expectError(await call(t, 'POST', path), 401, 'INVALID_API_KEY');
    await expectError(await call(t, 'POST', path, { key: `sk_${'Z'.repeat(40)}` }), 401, 'INVALID_API_KEY');
    await expectError(await call(t, 'POST', path, { key: pk }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'POST', path, { key: (await t.createSession(document.id, 'tenant')).secret }), 403, 'INSUFFICIENT_PERMISSIONS');
    const readOnly = (await t.createKey({ kind: 'sk', scopes: ['documents:read'] })).secret;
    expect((await expectError(await call(t, 'POST', path, { key: readOnly }), 403, 'INSUFFICIENT_PERMISSIONS')).details?.required).toEqual(['documents:write']);
    await expectError(await call(t, 'POST', path, { key: sk, headers: { Origin: 'https://host.example' } }), 403, 'INSUFFICIENT_PERMISSIONS');
    await expectError(await call(t, 'POST', '/documents/doc_nope/signers/tenant/remind', { key: sk }), 400, 'VALIDATION_ERROR');
    await expectError(await call(t, 'POST', `/documents/${document.id}/signers/${'x'.repeat(65)}/remind`, { key: sk }), 400, 'VALIDATION_ERROR');
    await expectError(await call(t, 'POST', `/documents/${document.id}/signers/a%20b/remind`, { key: sk }), 400, 'VALIDATION_ERROR');
    await expectError(await call(t, 'POST', `/documents/doc_${'Z'.repeat(24)}/signers/tenant/remind`, { key: sk }), 404, 'DOCUMENT_NOT_FOUND');
    const elsewhere = await t.createKey({ kind: 'sk' }, (await t.storage.db.query.insertInto('organizations').values({ id: `org_${'E'.repeat(20)}${engine.name.slice(0, 4)}`, slug: `remind-elsewhere-${engine.name}`, name: 'Elsewhere', created_at: Date.now() }).returning('id').executeTakeFirstOrThrow()).id);
    await expectError(await call(t, 'POST', path, { key: elsewhere.secret }), 404, 'DOCUMENT_NOT_FOUND');
  });
});

describe('a server that sends no mail', () => {
  it('refuses delivery by e-mail with a 422 naming delivery, on uploads and reminders', async () => {
    const t = await createTestApp();
    try {
      const sk = (await t.createKey({ kind: 'sk' })).secret;
      const form = new FormData();
      form.append('file', new File([(await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>], 'a.pdf', { type: 'application/pdf' }));
      form.append('fields', '[]');
      form.append('delivery', 'email');
      const refused = await expectError(await t.app.request('/documents', { method: 'POST', headers: { 'X-API-Key': sk }, body: form }), 422, 'VALIDATION_ERROR');
      expect(refused.details).toMatchObject({ field: 'delivery', reason: expect.stringMatching(/SIGNET_SMTP_URL/) });
      const document = await t.createLease();
      const remind = await expectError(await call(t, 'POST', `/documents/${document.id}/signers/tenant/remind`, { key: sk }), 422, 'VALIDATION_ERROR');
      expect(remind.details?.field).toBe('delivery');
    } finally {
      await t.close();
    }
  });
});
