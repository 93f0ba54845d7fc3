import { serveStatic } from '@hono/node-server/serve-static';
import { createSigningClient, SigningApiError } from '@signet/api';
import { WebhookVerificationError, verifyWebhook } from '@signet/api/webhooks';
import { LEASE_SIGNERS, generateSampleFormPdf, generateSamplePdf, sampleFields, sampleFormFields, sampleLeaseFields } from '@signet/server/seed';
import { Hono } from 'hono';
import { relative } from 'node:path';
import type { MailInbox } from './mail-inbox.js';
import { WebhookInbox } from './webhook-inbox.js';

export interface DemoOptions {
  /** The Signet API, as the browser reaches it. */
  apiUrl: string;
  /** Given to the browser: a public key. */
  pk: string;
  /** Stays on this server: lists documents, creates them, reads submissions. */
  sk: string;
  /** The built demo page (`apps/demo/dist`). */
  distDir: string;
  /**
   * The signing secret of the webhook endpoint registered for `/webhooks/signet` (`register-webhook.ts`): known
   * only once the demo listens, so it is asked for each time; `undefined` until then.
   */
  webhookSecret(): string | undefined;
  /** The demo's mail catcher, when the API sends its mail there (`pnpm start` without `SIGNET_SMTP_URL`). */
  mail?: MailInbox;
}

/** Where Signet sends this demo's webhook events. */
export const WEBHOOK_PATH = '/webhooks/signet';

/** The signers of a "New document" draft: the first one, or both (the client first). */
const DRAFT_SIGNERS = [
  { id: 'client', name: 'Casey Client', email: 'casey@example.com', order: 1 },
  { id: 'provider', name: 'Pat Provider', email: 'pat@example.com', order: 2 },
];

/** Sample documents a visitor can start: the pages of each. */
const SAMPLE_SIZES = { short: 3, long: 300 } as const;

/**
 * The host page's own backend, as a customer would run it: it holds the sk key and exposes only what its page
 * needs under `/demo-api`, and serves the built page. The browser never sees the sk key.
 */
export function createDemoApp(options: DemoOptions) {
  const signet = createSigningClient({ apiKey: options.sk, baseUrl: options.apiUrl });
  const inbox = new WebhookInbox();
  const app = new Hono();

  app.get('/demo-api/config', (c) => c.json({ apiUrl: options.apiUrl, pk: options.pk }));

  app.get('/demo-api/documents', async (c) => {
    const page = await signet.listDocuments({ limit: 50 });
    return c.json({ documents: page.data });
  });

  app.post('/demo-api/documents', async (c) => {
    const size = c.req.query('size') === 'long' ? 'long' : 'short';
    const pages = SAMPLE_SIZES[size];
    const title = size === 'long' ? 'Master Services Agreement' : 'Mutual Non-Disclosure Agreement';
    const pdf = (await generateSamplePdf({ pages, title })) as Uint8Array<ArrayBuffer>;
    const created = await signet.createDocument({
      file: new Blob([pdf], { type: 'application/pdf' }),
      filename: `${slug(title)}.pdf`,
      fields: sampleFields(pages),
    });
    return c.json({ documentId: created.id }, 201);
  });

  // An application form with a field of every type a form needs: email, phone, number, select, radio, notes, a photo.
  app.post('/demo-api/forms', async (c) => {
    const pdf = (await generateSampleFormPdf()) as Uint8Array<ArrayBuffer>;
    const created = await signet.createDocument({
      file: new Blob([pdf], { type: 'application/pdf' }),
      filename: 'membership-application.pdf',
      fields: sampleFormFields(),
    });
    return c.json({ documentId: created.id }, 201);
  });

  // A lease for two signers, the tenant first: each signs with a session key of their own, or, with
  // `?delivery=email`, on Signet's hosted page from the invitation e-mailed to them (the Mail panel shows it).
  app.post('/demo-api/leases', async (c) => {
    const delivery = c.req.query('delivery') === 'email' ? ('email' as const) : undefined;
    const pages = 2;
    const pdf = (await generateSamplePdf({ pages, title: 'Residential Lease Agreement', countersigned: true })) as Uint8Array<ArrayBuffer>;
    const created = await signet.createDocument({
      file: new Blob([pdf], { type: 'application/pdf' }),
      filename: 'residential-lease.pdf',
      fields: sampleLeaseFields(pages),
      signers: [...LEASE_SIGNERS],
      signingOrder: 'sequential',
      ...(delivery ? { delivery } : {}),
    });
    return c.json({ documentId: created.id }, 201);
  });

  // "New document": a draft of the uploaded PDF (or the sample agreement) for one or two signers, without fields: the
  // author places them in the builder. Form fields: `file` (optional), `signers` (1 or 2).
  app.post('/demo-api/drafts', async (c) => {
    const form = await c.req.formData();
    const upload = form.get('file');
    const count = form.get('signers') === '2' ? 2 : 1;
    const file =
      upload instanceof File && upload.size > 0
        ? upload
        : new Blob([(await generateSamplePdf({ pages: 2, title: 'Service Agreement', countersigned: count === 2 })) as Uint8Array<ArrayBuffer>], {
            type: 'application/pdf',
          });
    const filename = upload instanceof File && upload.size > 0 ? upload.name : 'service-agreement.pdf';
    try {
      const created = await signet.createDraft({ file, filename, signers: DRAFT_SIGNERS.slice(0, count) });
      return c.json({ documentId: created.id }, 201);
    } catch (error) {
      if (error instanceof SigningApiError) return c.json({ error: error.message, code: error.code }, error.status as 422);
      throw error;
    }
  });

  // A builder session for that draft, minted when the page opens the builder: it edits this draft only, may send it,
  // from this page's origin only, for an hour. The sk key stays here.
  app.post('/demo-api/drafts/:id/builder-session', async (c) => {
    try {
      const session = await signet.createBuilderSession(c.req.param('id'), {
        allowSend: true,
        origins: [new URL(c.req.url).origin],
        expiresInSeconds: 3600,
      });
      return c.json({ key: session.key, expiresAt: session.expiresAt }, 201);
    } catch (error) {
      if (error instanceof SigningApiError) return c.json({ error: error.message, code: error.code }, error.status as 404);
      throw error;
    }
  });

  // Where each signer stands (the page's signer switch); the sk key's view, without the fields.
  app.get('/demo-api/documents/:id/signers', async (c) => {
    const document = await signet.getManagedDocument(c.req.param('id'));
    return c.json({ signingOrder: document.signingOrder ?? null, signers: document.signers ?? [] });
  });

  // A session key for one signer, minted when their page asks for it, as a host's backend does once it knows who
  // its visitor is: it works for this document, as this signer, for an hour.
  app.post('/demo-api/documents/:id/sessions/:signerId', async (c) => {
    try {
      const session = await signet.createSession(c.req.param('id'), { signerId: c.req.param('signerId'), expiresInSeconds: 3600 });
      return c.json({ key: session.key, expiresAt: session.expiresAt }, 201);
    } catch (error) {
      if (error instanceof SigningApiError) return c.json({ error: error.message, code: error.code }, error.status as 422);
      throw error;
    }
  });

  app.get('/demo-api/documents/:id/submission', async (c) => {
    try {
      return c.json(await signet.getSubmission(c.req.param('id')));
    } catch (error) {
      if (error instanceof SigningApiError) return c.json({ error: error.message, code: error.code }, error.status as 404);
      throw error;
    }
  });

  // What Signet e-mailed, newest first, as the recipients' inboxes would show it (empty without the catcher).
  app.get('/demo-api/mail', (c) => c.json({ enabled: options.mail !== undefined, messages: options.mail?.messages() ?? [] }));

  app.get('/demo-api/documents/:id/events', (c) => c.json({ events: inbox.forDocument(c.req.param('id')) }));

  // What a customer's webhook receiver does: verify the signature over the raw body, keep the event, answer 2xx fast.
  app.post(WEBHOOK_PATH, async (c) => {
    const secret = options.webhookSecret();
    if (!secret) return c.text('Not registered yet', 503);
    const headers = c.req.raw.headers;
    const event = await verifyWebhook({ secret, headers, body: await c.req.text() }).catch((error: unknown) => {
      if (error instanceof WebhookVerificationError) return error;
      throw error;
    });
    if (event instanceof WebhookVerificationError) return c.text(event.reason, 400);
    // verifyWebhook refuses a request without webhook-id, so it is there.
    inbox.add({ ...event, id: headers.get('webhook-id')!, receivedAt: new Date().toISOString() });
    return c.body(null, 204);
  });

  // serveStatic resolves `root` against the working directory.
  const root = relative(process.cwd(), options.distDir) || '.';
  app.use('/*', serveStatic({ root }));
  app.get('*', serveStatic({ root, path: 'index.html' }));
  return app;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
