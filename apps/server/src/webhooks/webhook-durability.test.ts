import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshStore } from '../../test/hardening/durable-store.js';
import { startSignet, type SignetProcess } from '../../test/hardening/server-process.js';
import { openStorage } from '../storage/index.js';
import type { Storage } from '../storage/types.js';
import { registerWebhook } from './manage.js';
import { startReceiver, type Received } from '../../test/webhooks/test-receiver.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { enqueueWebhookEventTo, listWebhookDeliveries } from '../storage/queries/webhook-deliveries.js';

/*
 * At least once, across kill -9 and across instances: the real `signet serve` in child processes, on a store of each
 * engine (PostgreSQL fails rather than skips when it is down: `freshStore` cannot create its schema), delivering to
 * real receivers on loopback. Duplicates are counted and reported; a duplicate always carries the same webhook-id.
 */
const SECRET = randomBytes(32).toString('hex');
const CONCURRENCY = 8;

/** The settings of every server here: loopback allowed, short leases so that a killed server's work is taken over soon. */
const serverEnv = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  SIGNET_SECRET: SECRET,
  SIGNET_WEBHOOKS_ALLOW_PRIVATE: 'true',
  SEAL_WORKER: 'false',
  WEBHOOK_CONCURRENCY: String(CONCURRENCY),
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_MS: '3000',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_RETRY_SCHEDULE_MS: '0,200,400,800,1600',
});

/** An organization with an endpoint at `url`, subscribed to every document event. */
async function endpointTo(storage: Storage, url: string) {
  const org = await ensureOrganization(storage.db.query, 'hooks', 'Hooks');
  const events = ['document.created', 'document.viewed', 'document.completed', 'document.sealed', 'document.sealing_failed'] as const;
  const { endpoint } = await registerWebhook({ storage, secret: SECRET, allowPrivate: true, maxEndpoints: 20 }, { organizationId: org.id, url, events: [...events] });
  return { org, endpoint };
}

/** How many requests each webhook-id got. */
function countById(received: Received[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of received) {
    const id = String(request.headers['webhook-id']);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.concurrent('webhook deliveries across kill -9 and instances', () => {
  it.each(['sqlite', 'postgres'] as const)('on %s, kill -9 with 200 deliveries pending loses none', async (engine) => {
    const PENDING = 200;
    const store = await freshStore(engine);
    // Slow enough (30 ms an answer) that the kill finds deliveries done, in flight and pending.
    const receiver = await startReceiver(() => (response) => setTimeout(() => response.writeHead(204).end(), 30));
    const storage = await openStorage(store.databaseUrl);
    const servers: SignetProcess[] = [];
    try {
      const { org, endpoint } = await endpointTo(storage, receiver.url);
      for (let i = 0; i < PENDING; i++) {
        await enqueueWebhookEventTo(storage.db, endpoint.id, {
          type: 'webhook.test',
          organizationId: org.id,
          documentId: null,
          occurredAt: new Date().toISOString(),
          data: { webhookId: endpoint.id, message: `event ${i}` },
        });
      }
      const first = await startSignet('serve', serverEnv(store.databaseUrl));
      servers.push(first);
      await until(() => receiver.received.length >= 40, 'forty delivered');
      await first.kill9();
      const atKill = countById(receiver.received).size;
      expect(atKill).toBeLessThan(PENDING);

      const second = await startSignet('serve', serverEnv(store.databaseUrl));
      servers.push(second);
      await until(() => countById(receiver.received).size === PENDING, `all ${PENDING} delivered`);
      const deliveries = await listWebhookDeliveries(storage.db.query, endpoint.id, { limit: 1000 });
      await until(async () => (await listWebhookDeliveries(storage.db.query, endpoint.id, { limit: 1000 })).every((d) => d.status === 'succeeded'), 'all succeeded');
      expect(deliveries).toHaveLength(PENDING);

      const counts = countById(receiver.received);
      const duplicates = receiver.received.length - counts.size;
      console.info(`[webhooks ${engine}] kill -9 after ${atKill} of ${PENDING}: ${receiver.received.length} requests, ${duplicates} duplicates`);
      // Only what was in flight at the kill is sent twice: at most one dispatcher's worth.
      expect(duplicates).toBeLessThanOrEqual(CONCURRENCY);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
    } finally {
      for (const server of servers) await server.kill9();
      await storage.close();
      await receiver.close();
      await store.remove();
    }
  }, 120_000);

  it('two instances on PostgreSQL deliver each event to each endpoint', async () => {
    const DOCUMENTS = 40;
    const store = await freshStore('postgres');
    const receivers = [await startReceiver(), await startReceiver()];
    const storage = await openStorage(store.databaseUrl);
    const servers: SignetProcess[] = [];
    try {
      const { org } = await endpointTo(storage, receivers[0]!.url);
      await registerWebhook({ storage, secret: SECRET, allowPrivate: true, maxEndpoints: 20 }, { organizationId: org.id, url: receivers[1]!.url, events: ['document.created'] });
      // A long lease: no attempt here outlives it, so a duplicate would be the claim itself going wrong.
      const env = { ...serverEnv(store.databaseUrl), WEBHOOK_LEASE_MS: '20000' };
      servers.push(await startSignet('serve', env), await startSignet('serve', env));
      const { createApiKeyRecord } = await import('../documents/seed.js');
      const { generateSamplePdf, sampleFields } = await import('../pdf/sample.js');
      const sk = (await createApiKeyRecord(storage, { organizationId: org.id, kind: 'sk' })).key;
      const pdf = await generateSamplePdf({ pages: 1 });
      // Documents created through either server, side by side: each one's `document.created` goes to both endpoints.
      await Promise.all(
        Array.from({ length: DOCUMENTS }, async (_, i) => {
          const form = new FormData();
          form.set('file', new File([pdf as Uint8Array<ArrayBuffer>], `doc-${i}.pdf`, { type: 'application/pdf' }));
          form.set('fields', JSON.stringify(sampleFields(1)));
          const res = await fetch(`${servers[i % 2]!.address}/documents`, { method: 'POST', headers: { 'X-API-Key': sk }, body: form });
          expect(res.status).toBe(201);
        }),
      );
      for (const receiver of receivers) await until(() => countById(receiver.received).size === DOCUMENTS, `${DOCUMENTS} events at each endpoint`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const duplicates = receivers.map((receiver) => receiver.received.length - countById(receiver.received).size);
      console.info(`[webhooks postgres] two instances, ${DOCUMENTS} events to 2 endpoints: duplicates ${duplicates.join(' + ')}`);
      expect(duplicates).toEqual([0, 0]);
      // Each endpoint got the same events (same webhook-ids): one event, one id, whichever endpoint.
      expect([...countById(receivers[0]!.received).keys()].sort()).toEqual([...countById(receivers[1]!.received).keys()].sort());
    } finally {
      for (const server of servers) await server.kill9();
      await storage.close();
      for (const receiver of receivers) await receiver.close();
      await store.remove();
    }
  }, 120_000);
});
