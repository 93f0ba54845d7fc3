import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '@signet/contract';
import { newId } from '../ids.js';
import { storageEngines } from '../../test/storage/test-engines.js';
import { IMPLICIT_SIGNER, type Organization, type Storage, type StoredSubmission, type WebhookAttemptOutcome, type WebhookEndpointRecord } from './types.js';
import { storeDocument } from '../documents/create-document.js';
import { recordDocumentOpened } from '../documents/opening.js';
import { ensureOrganization } from './queries/organizations.js';
import { recordSubmission } from '../submissions/record-submission.js';
import { claimWebhookDeliveries, finishWebhookDelivery, nextWebhookDeliveryDue } from '../webhooks/delivery-queue.js';
import { enqueueWebhookEventTo, fanOutWebhookEvents, listWebhookDeliveries, retryWebhookDelivery } from './queries/webhook-deliveries.js';
import { createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, updateWebhookEndpoint } from './queries/webhook-endpoints.js';
import { onWebhookEvents } from '../webhooks/wake.js';

const engines = await storageEngines();

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs);
const iso = (offsetMs: number) => at(offsetMs).toISOString();
/** "Now" for claims: after every event here, whatever the wall clock (deliveries are due when enqueued). */
const LATER = { now: new Date(Date.now() + 60_000), leaseMs: 30_000, limit: 100 };

function endpoint(organization: Organization, events: WebhookEndpointRecord['events'] = [...WEBHOOK_EVENT_TYPES]): WebhookEndpointRecord {
  return {
    id: newId('wh'),
    organizationId: organization.id,
    url: 'https://93.184.216.34/hook',
    description: null,
    events,
    enabled: true,
    disabledReason: null,
    secret: new Uint8Array([1, 2, 3]),
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: iso(0),
    updatedAt: iso(0),
  };
}

async function newDocument(storage: Storage, organization: Organization, offsetMs: number) {
  return storeDocument(storage,
    {
      id: newId('doc'),
      organizationId: organization.id,
      filename: 'a.pdf',
      mimeType: 'application/pdf',
      pageCount: 1,
      fileSize: 4,
      sha256: '0'.repeat(64),
      createdAt: iso(offsetMs),
      fields: [],
    },
    new Uint8Array([1, 2, 3, 4]),
  );
}

function submissionOf(documentId: string, organizationId: string, offsetMs: number): StoredSubmission {
  const id = newId('sub');
  return {
    id,
    documentId,
    signerId: IMPLICIT_SIGNER.id,
    organizationId,
    keyId: newId('key'),
    checksum: 'c'.repeat(64),
    payload: '{}',
    result: { success: true, submissionId: id, documentId, timestamp: iso(offsetMs), message: 'ok' },
    clientIp: null,
    userAgent: null,
    receivedAt: iso(offsetMs),
  };
}

const succeeded = (offsetMs = 0): WebhookAttemptOutcome => ({
  status: 'succeeded',
  nextAttemptAt: null,
  statusCode: 204,
  error: null,
  responseBody: '',
  durationMs: 3,
  at: iso(offsetMs),
});

describe.each(engines)('webhook storage on $name', (engine) => {
  let storage: Storage;
  let org: Organization;
  beforeEach(async () => {
    storage = await engine.open();
    org = await ensureOrganization(storage.db.query, 'hooks', 'Hooks');
  });
  afterEach(() => storage.close());

  it('enqueues each event in the transaction of its change, to the enabled endpoints subscribed to it, and tells listeners', async () => {
    let told = 0;
    onWebhookEvents(storage.db, () => told++);
    const all = endpoint(org);
    const sealedOnly = endpoint(org, ['document.sealed']);
    const off = { ...endpoint(org), enabled: false };
    const other = endpoint(await ensureOrganization(storage.db.query, 'other', 'Other'));
    for (const record of [all, sealedOnly, off, other]) await createWebhookEndpoint(storage.db, record, { maxEndpoints: 20 });

    const document = await newDocument(storage, org, 0);
    await recordDocumentOpened(storage, document.id, { occurredAt: iso(10) });
    await recordDocumentOpened(storage, document.id, { occurredAt: iso(20) });
    await recordSubmission(storage, submissionOf(document.id, org.id, 30));
    expect(told).toBe(3);
    // One event row each, fanned out apart from the change: to the endpoints enabled and subscribed.
    expect(await listWebhookDeliveries(storage.db.query, all.id, { limit: 10 })).toEqual([]);
    expect(await fanOutWebhookEvents(storage.db, { limit: 100 })).toBe(3);
    expect(await fanOutWebhookEvents(storage.db, { limit: 100 })).toBe(0);

    const deliveries = await listWebhookDeliveries(storage.db.query, all.id, { limit: 10 });
    expect(deliveries.map((d) => d.eventType).sort()).toEqual(['document.completed', 'document.created', 'document.viewed']);
    expect(deliveries.every((d) => d.status === 'pending' && d.attempts === 0 && d.documentId === document.id)).toBe(true);
    for (const quiet of [sealedOnly, off, other]) expect(await listWebhookDeliveries(storage.db.query, quiet.id, { limit: 10 })).toEqual([]);
  });

  it("a document's events to one endpoint are taken one at a time, in order, unless an earlier one failed", async () => {
    const hook = endpoint(org);
    await createWebhookEndpoint(storage.db, hook, { maxEndpoints: 20 });
    const document = await newDocument(storage, org, 0);
    await recordDocumentOpened(storage, document.id, { occurredAt: iso(10) });
    await recordSubmission(storage, submissionOf(document.id, org.id, 20));
    const second = await newDocument(storage, org, 30);
    await fanOutWebhookEvents(storage.db, { limit: 100 });

    // The first event of each document; the later ones wait.
    const first = await claimWebhookDeliveries(storage.db, 'w1', LATER);
    expect(first.map((d) => [d.documentId, d.eventType])).toEqual([
      [document.id, 'document.created'],
      [second.id, 'document.created'],
    ]);
    expect(first[0]).toMatchObject({ status: 'sending', attempts: 1, url: hook.url, organizationId: org.id });
    expect(JSON.parse(first[0]!.body)).toEqual({
      type: 'document.created',
      timestamp: iso(0),
      data: { documentId: document.id, filename: 'a.pdf', pageCount: 1, createdAt: iso(0) },
    });
    expect(await claimWebhookDeliveries(storage.db, 'w2', LATER)).toEqual([]);

    // Succeeded: the next one of that document is due.
    expect(await finishWebhookDelivery(storage.db, 'w1', first[0]!.id, succeeded())).toBe(true);
    const next = await claimWebhookDeliveries(storage.db, 'w2', LATER);
    expect(next.map((d) => d.eventType)).toEqual(['document.viewed']);

    // Failed, to be retried later: it no longer holds the last one back.
    const retryAt = new Date(LATER.now.getTime() + 3_600_000).toISOString();
    const failed: WebhookAttemptOutcome = { ...succeeded(), status: 'pending', nextAttemptAt: retryAt, statusCode: 500, error: 'HTTP 500' };
    expect(await finishWebhookDelivery(storage.db, 'w2', next[0]!.id, failed)).toBe(true);
    expect((await claimWebhookDeliveries(storage.db, 'w3', LATER)).map((d) => d.eventType)).toEqual(['document.completed']);
    expect(await nextWebhookDeliveryDue(storage.db)).toBe(retryAt);
  });

  it('a lease that ran out is taken over, and the late finisher records nothing', async () => {
    const hook = endpoint(org);
    await createWebhookEndpoint(storage.db, hook, { maxEndpoints: 20 });
    await newDocument(storage, org, 0);
    await fanOutWebhookEvents(storage.db, { limit: 100 });
    const [taken] = await claimWebhookDeliveries(storage.db, 'w1', { ...LATER, leaseMs: 1000 });
    expect(await claimWebhookDeliveries(storage.db, 'w2', { ...LATER, now: new Date(LATER.now.getTime() + 500) })).toEqual([]);
    const [again] = await claimWebhookDeliveries(storage.db, 'w2', { ...LATER, now: new Date(LATER.now.getTime() + 1500) });
    expect(again).toMatchObject({ id: taken!.id, eventId: taken!.eventId, attempts: 2 });
    expect(await finishWebhookDelivery(storage.db, 'w1', taken!.id, succeeded())).toBe(false);
    expect(await finishWebhookDelivery(storage.db, 'w2', taken!.id, succeeded())).toBe(true);
    const [delivery] = await listWebhookDeliveries(storage.db.query, hook.id, { limit: 1 });
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 204, deliveredAt: iso(0) });
  });

  it('two claimers at once never take the same delivery', async () => {
    const hook = endpoint(org);
    await createWebhookEndpoint(storage.db, hook, { maxEndpoints: 20 });
    for (let i = 0; i < 30; i++) await newDocument(storage, org, i);
    await fanOutWebhookEvents(storage.db, { limit: 100 });
    const claims = await Promise.all(['a', 'b', 'c'].map((owner) => claimWebhookDeliveries(storage.db, owner, { ...LATER, limit: 12 })));
    const ids = claims.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(30);
  });

  it('updates, lists newest first, deletes with its deliveries', async () => {
    const older = endpoint(org);
    const newer = { ...endpoint(org), createdAt: iso(5), updatedAt: iso(5) };
    await createWebhookEndpoint(storage.db, older, { maxEndpoints: 20 });
    await createWebhookEndpoint(storage.db, newer, { maxEndpoints: 20 });
    expect((await listWebhookEndpoints(storage.db.query, org.id, { limit: 10 })).map((e) => e.id)).toEqual([newer.id, older.id]);
    expect((await listWebhookEndpoints(storage.db.query, org.id, { limit: 10, after: newer })).map((e) => e.id)).toEqual([older.id]);

    const changed = await updateWebhookEndpoint(storage.db, org.id, older.id, {
      events: ['document.sealed', 'document.created'],
      enabled: false,
      disabledReason: 'answered 410 Gone',
      description: 'renamed',
      updatedAt: iso(9),
    });
    expect(changed).toMatchObject({ events: ['document.created', 'document.sealed'], enabled: false, disabledReason: 'answered 410 Gone', description: 'renamed', updatedAt: iso(9) });
    expect(await updateWebhookEndpoint(storage.db, 'org_nope', older.id, { enabled: true, updatedAt: iso(10) })).toBeNull();

    // Registered at 5, it gets what happens from then on.
    await newDocument(storage, org, 3);
    await newDocument(storage, org, 10);
    await fanOutWebhookEvents(storage.db, { limit: 100 });
    expect(await listWebhookDeliveries(storage.db.query, newer.id, { limit: 10 })).toHaveLength(1);
    expect((await deleteWebhookEndpoint(storage.db, org.id, newer.id))?.id).toBe(newer.id);
    expect(await getWebhookEndpoint(storage.db.query, org.id, newer.id)).toBeNull();
    expect(await listWebhookDeliveries(storage.db.query, newer.id, { limit: 10 })).toEqual([]);
    expect(await deleteWebhookEndpoint(storage.db, org.id, newer.id)).toBeNull();
  });

  it('a retried delivery is due now with a fresh count; one being sent is left to its attempt', async () => {
    const hook = endpoint(org);
    await createWebhookEndpoint(storage.db, hook, { maxEndpoints: 20 });
    const queued = await enqueueWebhookEventTo(storage.db, hook.id, {
      type: 'webhook.test',
      organizationId: org.id,
      documentId: null,
      occurredAt: iso(0),
      data: { webhookId: hook.id, message: 'hello' },
    });
    expect(queued).toMatchObject({ status: 'pending', eventType: 'webhook.test', documentId: null, webhookId: hook.id });
    const [taken] = await claimWebhookDeliveries(storage.db, 'w1', LATER);
    expect((await retryWebhookDelivery(storage.db, hook.id, taken!.id, iso(1)))?.status).toBe('sending');
    await finishWebhookDelivery(storage.db, 'w1', taken!.id, { ...succeeded(), status: 'failed', statusCode: 500, error: 'HTTP 500' });
    const retried = await retryWebhookDelivery(storage.db, hook.id, taken!.id, iso(2));
    expect(retried).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: iso(2), lastStatusCode: 500 });
    expect(await retryWebhookDelivery(storage.db, hook.id, 'dlv_nope', iso(3))).toBeNull();
  });
});
