import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { WebhookEventSchema, type CreatedWebhook, type WebhookDelivery } from '@signet/contract';
import { buildPayload, call, capturingLogger, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { JobRunner } from '../jobs/runner.js';
import { deliveryKind } from './delivery-kind.js';
import { webhookSecrets } from './secrets.js';
import { createWebhookSender, type WebhookSender } from './send.js';
import { startReceiver, type Receiver } from '../../test/webhooks/test-receiver.js';
import { findSubmissionForDocument } from '../storage/queries/submissions.js';
import { findSealState } from '../storage/queries/seals.js';
import { getWebhookEndpoint } from '../storage/queries/webhook-endpoints.js';
import { onWebhookEvents } from './wake.js';

/*
 * Webhooks through the real app, the real storage engines and a real dispatcher, to real HTTP receivers on loopback.
 * Delays are a test schedule (tens of milliseconds); the default is Standard Webhooks' (docs/api-guide.md, "Webhooks").
 */

const ALL_EVENTS = ['document.created', 'document.viewed', 'document.completed', 'document.sealed', 'document.sealing_failed'];

describe.each(engines)('webhooks on $name', (engine) => {
  let t: TestApp;
  let sk: string;
  let pk: string;
  const running: Array<{ dispatcher: JobRunner; sender: WebhookSender }> = [];
  const receivers: Receiver[] = [];

  beforeEach(async () => {
    t = await createTestApp(engine, { SIGNET_WEBHOOKS_ALLOW_PRIVATE: 'true' });
    sk = (await t.createKey({ kind: 'sk' })).secret;
    pk = (await t.createKey()).secret;
  });
  afterEach(async () => {
    for (const { dispatcher, sender } of running.splice(0)) {
      await dispatcher.stop();
      await sender.close();
    }
    for (const receiver of receivers.splice(0)) await receiver.close();
    await t.close();
  });

  /** A dispatcher over `t`'s storage: `schedule` the delays before each attempt, `allowPrivate` as the flag. */
  function dispatch(options: { schedule?: number[]; allowPrivate?: boolean; timeoutMs?: number } = {}) {
    const sender = createWebhookSender({ allowPrivate: options.allowPrivate ?? true, timeoutMs: options.timeoutMs ?? 5000 });
    const { logger, logs } = capturingLogger();
    const dispatcher = new JobRunner({ db: t.storage.db, logger }).register(
      deliveryKind({
        storage: t.storage,
        sender,
        secrets: webhookSecrets(t.secret),
        config: { pollMs: 50, leaseMs: 10_000, concurrency: 8, retryScheduleMs: options.schedule ?? [0, 100, 200, 400] },
      }),
    );
    onWebhookEvents(t.storage.db, () => dispatcher.wake('webhook'));
    dispatcher.start();
    running.push({ dispatcher, sender });
    return { dispatcher, logs };
  }

  async function receiver(...args: Parameters<typeof startReceiver>) {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  }

  async function register(url: string, events: string[] = ALL_EVENTS): Promise<CreatedWebhook> {
    const res = await call(t, 'POST', '/webhooks', { key: sk, body: { url, events, description: 'test receiver' } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: CreatedWebhook }).data;
  }

  async function deliveries(webhookId: string): Promise<WebhookDelivery[]> {
    const res = await call(t, 'GET', `/webhooks/${webhookId}/deliveries?limit=100`, { key: sk });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: WebhookDelivery[] }).data;
  }

  async function sendTest(webhookId: string): Promise<WebhookDelivery> {
    const res = await call(t, 'POST', `/webhooks/${webhookId}/test`, { key: sk });
    expect(res.status).toBe(202);
    return ((await res.json()) as { data: WebhookDelivery }).data;
  }

  /** Polls the deliveries of `webhookId` until `done` holds of them. */
  async function settled(webhookId: string, done: (list: WebhookDelivery[]) => boolean, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const list = await deliveries(webhookId);
      if (done(list)) return list;
      if (Date.now() > deadline) throw new Error(`deliveries not settled: ${JSON.stringify(list)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("a document's life reaches the endpoint in order, each event signed as the reference verifier checks", async () => {
    const inbox = await receiver();
    const hook = await register(inbox.url);
    const elsewhere = await receiver();
    await register(elsewhere.url, ['document.sealing_failed']);
    dispatch();

    const document = await t.createDocument({ pages: 1 });
    const sdk = await call(t, 'GET', `/sdk/documents/${document.id}`, { key: pk });
    const { documentUrl } = (await sdk.json()) as { documentUrl: string };
    const file = new URL(documentUrl);
    expect((await t.app.request(file.pathname + file.search)).status).toBe(200);
    expect((await t.app.request(file.pathname + file.search)).status).toBe(200);
    const submitted = await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(document) });
    expect(submitted.status).toBe(201);
    const { submissionId } = (await submitted.json()) as { submissionId: string };
    const { checksum } = (await findSubmissionForDocument(t.storage.db.query, document.id))!;
    expect(await t.sealDue()).toBe(1);

    const got = await inbox.until(4);
    const verifier = new StandardWebhook(hook.secret);
    const events = got.map((request) => {
      const headers = request.headers as Record<string, string>;
      expect(headers['content-type']).toBe('application/json');
      expect(headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9]{20,}$/);
      return WebhookEventSchema.parse(verifier.verify(request.body, headers));
    });
    expect(events.map((event) => event.type)).toEqual(['document.created', 'document.viewed', 'document.completed', 'document.sealed']);
    expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(4);
    const [, viewed, completed, sealed] = events;
    expect(viewed!.data).toMatchObject({ documentId: document.id });
    expect(completed!.data).toEqual({ documentId: document.id, submissionId, submittedAt: expect.any(String), checksum });
    const { sealed: stored } = await findSealState(t.storage.db.query, document.id);
    expect(sealed!.data).toMatchObject({ documentId: document.id, submissionId, sha256: stored!.sha256 });
    expect((sealed!.data as { signedDocumentUrl: string }).signedDocumentUrl).toMatch(new RegExp(`/documents/${document.id}/signed\\.pdf$`));

    const list = await settled(hook.id, (all) => all.length === 4 && all.every((d) => d.status === 'succeeded'));
    for (const delivery of list) expect(delivery).toMatchObject({ attempts: 1, lastStatusCode: 204, lastError: null, nextAttemptAt: null });
    // Only the events an endpoint subscribes to reach it.
    expect(elsewhere.received).toEqual([]);
  }, 60_000);

  it('500 twice, then 200: three attempts with growing delays, each with the same webhook-id', async () => {
    const inbox = await receiver((_, n) => (n < 2 ? 500 : 200));
    const hook = await register(inbox.url);
    dispatch({ schedule: [0, 200, 400, 800] });
    const queued = await sendTest(hook.id);
    const got = await inbox.until(3);
    expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(1);
    const first = got[1]!.at - got[0]!.at;
    const second = got[2]!.at - got[1]!.at;
    // 200 ms, then 400 ms, each ±10 %.
    expect(first).toBeGreaterThanOrEqual(175);
    expect(second).toBeGreaterThanOrEqual(355);
    const [delivery] = await settled(hook.id, (all) => all[0]?.status === 'succeeded');
    expect(delivery).toMatchObject({ id: queued.id, attempts: 3, lastStatusCode: 200, eventType: 'webhook.test' });
  });

  it('Retry-After postpones the next attempt beyond the schedule', async () => {
    const inbox = await receiver((_, n) => (n === 0 ? (response) => response.writeHead(503, { 'retry-after': '1' }).end() : 200));
    const hook = await register(inbox.url);
    dispatch({ schedule: [0, 50, 50] });
    await sendTest(hook.id);
    const got = await inbox.until(2);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('a 410 disables the endpoint: nothing more is sent to it until it is enabled again', async () => {
    const inbox = await receiver(() => 410);
    const hook = await register(inbox.url);
    dispatch();
    await sendTest(hook.id);
    const [gone] = await settled(hook.id, (all) => all[0]?.status === 'failed');
    expect(gone).toMatchObject({ attempts: 1, lastStatusCode: 410 });
    const shown = await call(t, 'GET', `/webhooks/${hook.id}`, { key: sk });
    expect(((await shown.json()) as { data: unknown }).data).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/410/) });

    // Events of its documents are kept for it, not sent.
    await t.createDocument({ pages: 1 });
    const refused = await call(t, 'POST', `/webhooks/${hook.id}/test`, { key: sk });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('WEBHOOK_DISABLED');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inbox.received).toHaveLength(1);

    const enabled = await call(t, 'PATCH', `/webhooks/${hook.id}`, { key: sk, body: { enabled: true } });
    expect(((await enabled.json()) as { data: unknown }).data).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('the schedule used up, a delivery fails; retrying it sends it again with the same webhook-id', async () => {
    const inbox = await receiver((_, n) => (n < 2 ? 500 : 204));
    const hook = await register(inbox.url);
    dispatch({ schedule: [0, 50] });
    const queued = await sendTest(hook.id);
    const [failed] = await settled(hook.id, (all) => all[0]?.status === 'failed');
    expect(failed).toMatchObject({ attempts: 2, lastStatusCode: 500, lastError: 'HTTP 500', lastResponseBody: 'answered 500' });

    const retried = await call(t, 'POST', `/webhooks/${hook.id}/deliveries/${queued.id}/retry`, { key: sk });
    expect(retried.status).toBe(202);
    const got = await inbox.until(3);
    expect(got[2]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    await settled(hook.id, (all) => all[0]?.status === 'succeeded');
  });

  it('after a rotation the old and the new secret each sign, side by side', async () => {
    const inbox = await receiver();
    const hook = await register(inbox.url);
    const rotated = await call(t, 'POST', `/webhooks/${hook.id}/rotate-secret`, { key: sk });
    const { data } = (await rotated.json()) as { data: { secret: string; previousSecretExpiresAt: string } };
    expect(data.secret).not.toBe(hook.secret);
    const overlap = Date.parse(data.previousSecretExpiresAt) - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
    dispatch();
    await sendTest(hook.id);
    const [request] = await inbox.until(1);
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [data.secret, hook.secret]) {
      expect(WebhookEventSchema.parse(new StandardWebhook(secret).verify(request!.body, headers)).type).toBe('webhook.test');
    }
  });

  it('without SIGNET_WEBHOOKS_ALLOW_PRIVATE a loopback address is refused when connecting, even one accepted before', async () => {
    const inbox = await receiver();
    const hook = await register(inbox.url);
    dispatch({ allowPrivate: false, schedule: [0] });
    await sendTest(hook.id);
    const [refused] = await settled(hook.id, (all) => all[0]?.status === 'failed');
    expect(refused!.lastStatusCode).toBeNull();
    expect(refused!.lastError).toMatch(/private|loopback|refused/i);
    expect(inbox.received).toEqual([]);
  });

  it('a receiver that does not answer in time is an attempt that failed', async () => {
    const inbox = await receiver(() => () => undefined);
    const hook = await register(inbox.url);
    dispatch({ schedule: [0], timeoutMs: 300 });
    await sendTest(hook.id);
    const [late] = await settled(hook.id, (all) => all[0]?.status === 'failed');
    expect(late!.lastError).toMatch(/timed out/);
    expect(late!.lastDurationMs).toBeGreaterThanOrEqual(250);
  });

  it('the secret is kept encrypted and never logged', async () => {
    const hook = await register('http://127.0.0.1:9/hook');
    const stored = await getWebhookEndpoint(t.storage.db.query, t.org.id, hook.id);
    expect(Buffer.from(stored!.secret).toString('latin1')).not.toContain(hook.secret.slice(6, 20));
    const listed = await call(t, 'GET', '/webhooks', { key: sk });
    expect(JSON.stringify(await listed.json())).not.toContain('whsec_');
    expect(JSON.stringify(t.logs)).not.toContain(hook.secret.slice(6));
  });
});
