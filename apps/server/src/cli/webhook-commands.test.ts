import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSignet } from '../../test/support/cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../storage/index.js';
import { WEBHOOK_EVENT_TYPES } from '@signet/contract';
import { ensureOrganization, findOrganizationBySlug } from '../storage/queries/organizations.js';
import { enqueueWebhookEventTo } from '../storage/queries/webhook-deliveries.js';

/* `signet webhooks …` as a user runs it, on an embedded store of its own. */

let dir: string;
let databaseUrl: string;

function signet(env: Record<string, string>, ...args: string[]) {
  return runSignet(args, { env: { DATABASE_URL: databaseUrl, SIGNET_SECRET: 's'.repeat(40), ...env }, cwd: dir });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-cli-webhooks-'));
  databaseUrl = `file:${join(dir, 'cli.db')}`;
  const storage = await openStorage(databaseUrl);
  await ensureOrganization(storage.db.query, 'acme', 'Acme');
  await storage.close();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Each command starts a process that loads the built server (seconds on a busy CI machine).
describe('signet webhooks', { timeout: 60_000 }, () => {
  it('create prints the secret once; list, deliveries, retry and delete find the endpoint', async () => {
    const created = await signet({}, 'webhooks', 'create', '--org', 'acme', '--url', 'https://93.184.216.34/hooks', '--events', 'document.completed,document.sealed', '--json');
    expect(created.code).toBe(0);
    const hook = JSON.parse(created.stdout) as { id: string; secret: string; events: string[]; enabled: boolean };
    expect(hook).toMatchObject({ events: ['document.completed', 'document.sealed'], enabled: true });
    expect(hook.secret).toMatch(/^whsec_/);

    const listed = await signet({}, 'webhooks', 'list', '--org', 'acme');
    expect(listed.stdout).toContain(`${hook.id}  enabled  https://93.184.216.34/hooks  document.completed,document.sealed`);
    expect(listed.stdout).not.toContain('whsec_');

    // A delivery to retry: a test event, queued straight into the store.
    const storage = await openStorage(databaseUrl);
    const org = (await findOrganizationBySlug(storage.db.query, 'acme'))!;
    const delivery = await enqueueWebhookEventTo(storage.db, hook.id, {
      type: 'webhook.test',
      organizationId: org.id,
      documentId: null,
      occurredAt: new Date().toISOString(),
      data: { webhookId: hook.id, message: 'hello' },
    });
    await storage.close();
    const deliveries = await signet({}, 'webhooks', 'deliveries', hook.id, '--org', 'acme', '--json');
    expect(JSON.parse(deliveries.stdout)).toMatchObject([{ id: delivery.id, eventType: 'webhook.test', status: 'pending' }]);
    const retried = await signet({}, 'webhooks', 'retry', hook.id, delivery.id, '--org', 'acme');
    expect(retried).toMatchObject({ code: 0, stdout: expect.stringContaining(`Delivery ${delivery.id} is due now`) });

    expect(await signet({}, 'webhooks', 'delete', hook.id, '--org', 'acme')).toMatchObject({ code: 0, stdout: `Deleted ${hook.id}.\n` });
    expect((await signet({}, 'webhooks', 'list', '--org', 'acme')).stdout).toBe('No webhooks.\n');
  });

  it('refuses in one line: a private address without the flag, unknown events, an unknown endpoint or organization', async () => {
    const privateUrl = await signet({}, 'webhooks', 'create', '--org', 'acme', '--url', 'http://127.0.0.1:9000/hooks', '--events', 'all');
    expect(privateUrl.code).not.toBe(0);
    expect(privateUrl.stderr.trim().split('\n')).toHaveLength(1);
    expect(privateUrl.stderr).toMatch(/--url http:\/\/127\.0\.0\.1:9000\/hooks: resolves to a private or reserved address/);
    const allowed = await signet({ SIGNET_WEBHOOKS_ALLOW_PRIVATE: 'true' }, 'webhooks', 'create', '--org', 'acme', '--url', 'http://127.0.0.1:9000/hooks', '--events', 'all', '--json');
    expect(JSON.parse(allowed.stdout).events).toEqual([...WEBHOOK_EVENT_TYPES]);

    const badEvents = await signet({}, 'webhooks', 'create', '--org', 'acme', '--url', 'https://93.184.216.34/', '--events', 'document.signed');
    expect(badEvents.code).not.toBe(0);
    expect(badEvents.stderr).toMatch(/unknown event document\.signed/);
    const unknown = await signet({}, 'webhooks', 'delete', 'wh_nope', '--org', 'acme');
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/no webhook wh_nope in organization acme/) });
    const noOrg = await signet({}, 'webhooks', 'list', '--org', 'nobody');
    expect(noOrg.stderr).toMatch(/no organization nobody/);
  });
});
