import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startMailCatcher, type MailCatcher } from '../../apps/server/test/mail/mail-catcher.js';
import { startLiveServer, type LiveServer } from '../../apps/server/test/support/live-server.js';
import { createDocument } from '../../apps/server/src/documents/create-document.js';
import { JobRunner } from '../../apps/server/src/jobs/runner.js';
import { deliveryJobKinds } from '../../apps/server/src/mail/delivery-kinds.js';
import { mailJobKind } from '../../apps/server/src/mail/mail-kind.js';
import { generateSamplePdf, sampleFields } from '../../apps/server/src/pdf/sample.js';
import { findDocument } from '../../apps/server/src/storage/queries/documents.js';
import { expect, screenshotPath, signByTyping, test } from './fixtures.js';

/**
 * The hosted signing page (docs/email.md): a server that sends mail invites a signer; the link in the e-mail opens
 * `/sign/{token}` in Chromium, under the page's strict CSP, and the signer signs and submits: the document completes.
 */

const embedDir = fileURLToPath(new URL('../../packages/embed/dist/script/', import.meta.url));
let catcher: MailCatcher;
let server: LiveServer;
let runner: JobRunner;
let closeMail: () => void;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // The build the server serves at /embed.js (the embed-csp flow rebuilds it too).
  if (!existsSync(`${embedDir}embed.sri.json`)) execFileSync('pnpm', ['--filter', '@signet/embed', 'build'], { stdio: 'ignore' });
  catcher = await startMailCatcher();
  server = await startLiveServer({ SIGNET_SMTP_URL: catcher.smtpUrl, SIGNET_MAIL_FROM: 'Signet <signet@acme.test>' });
  const { test: app } = server;
  const mail = mailJobKind({ mail: app.config.mail!, secret: app.secret });
  closeMail = mail.close;
  runner = new JobRunner({ db: app.storage.db, logger: app.logger });
  runner.register(mail.kind);
  for (const kind of deliveryJobKinds({ config: app.config, secret: app.secret })) runner.register(kind);
});

test.afterAll(async () => {
  await runner?.stop();
  closeMail?.();
  await server?.close();
  await catcher?.close();
});

test('the link of an invitation opens the hosted page, where the signer signs and the document completes', async ({ page }) => {
  const { test: app } = server;
  const document = await createDocument(app.storage, {
    organizationId: app.org.id,
    filename: 'Consulting agreement.pdf',
    bytes: await generateSamplePdf({ pages: 1 }),
    fields: sampleFields(1).map((field) => ({ ...field, signerId: 'ada' })),
    signers: [{ id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }],
    delivery: { linkBaseUrl: server.url },
    maxPdfBytes: app.config.maxPdfBytes,
  });
  while (await runner.runOnce('invitation'));
  while (await runner.runOnce('mail'));
  const invitation = await catcher.waitFor('ada@example.com');
  const link = new RegExp(`${server.url}/sign/[A-Za-z0-9_.-]+`).exec(invitation.text)![0];

  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto(link);
  await expect(page).toHaveTitle('Sign Consulting agreement.pdf · Acme Test');
  await expect(page.getByRole('heading', { name: /Consulting agreement\.pdf/ })).toBeVisible();
  await expect(page.getByText('Signing as Ada Lovelace')).toBeVisible();
  const viewer = page.locator('signet-signing-viewer');
  await expect(viewer.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
  await expect(viewer.getByRole('textbox', { name: 'Full legal name' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('hosted-signing-page.png') });

  await viewer.getByLabel('Full legal name', { exact: true }).fill('Ada Lovelace');
  await signByTyping(page, 'Initials', 'AL', viewer);
  await viewer.getByRole('checkbox', { name: /agree to the terms/ }).check();
  await signByTyping(page, 'Signature', 'Ada Lovelace', viewer);
  await viewer.getByLabel('Date', { exact: true }).fill('2026-11-22');
  await viewer.getByRole('button', { name: /finish and submit/i }).click();
  await expect(viewer.getByText('Document signed')).toBeVisible();
  await expect.poll(async () => (await findDocument(app.storage.db.query, document.id))?.status).toBe('completed');
  await page.screenshot({ path: screenshotPath('hosted-signing-done.png') });
  expect(violations).toEqual([]);

  // Voided or not, a link that is not valid answers a page of its own.
  const tampered = await page.goto(`${link.slice(0, -3)}AAA`);
  expect(tampered!.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('hosted-signing-invalid.png') });
});

test("a signer's language: the hosted page and its viewer speak it, right to left in Arabic", async ({ page }) => {
  const { test: app } = server;
  await createDocument(app.storage, {
    organizationId: app.org.id,
    filename: 'Lease.pdf',
    bytes: await generateSamplePdf({ pages: 1 }),
    fields: sampleFields(1).map((field) => ({ ...field, signerId: 'layla' })),
    signers: [{ id: 'layla', name: 'Layla Haddad', email: 'layla@example.com', locale: 'ar' }],
    delivery: { linkBaseUrl: server.url },
    maxPdfBytes: app.config.maxPdfBytes,
  });
  while (await runner.runOnce('invitation'));
  while (await runner.runOnce('mail'));
  const invitation = await catcher.waitFor('layla@example.com');
  expect(invitation.subject).toBe('تطلب منك Acme Test توقيع Lease.pdf');
  const link = new RegExp(`${server.url}/sign/[A-Za-z0-9_.-]+`).exec(invitation.text)![0];

  // The browser prefers English; the signer's language wins.
  await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-GB,en;q=0.9' });
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto(link);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page).toHaveTitle('توقيع Lease.pdf · Acme Test');
  await expect(page.getByText('توقّع بصفتك Layla Haddad')).toBeVisible();
  const viewer = page.locator('signet-signing-viewer');
  await expect(viewer.locator('[data-page-number="1"] canvas[data-rendered="true"]')).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'إنهاء وإرسال' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('hosted-signing-page-ar.png') });
});
