import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { createWebhookSender, retryAfterMs, type WebhookSender } from './send.js';
import { newWebhookSecret, signWebhook } from './signature.js';
import { startReceiver, type Receiver } from '../../test/webhooks/test-receiver.js';
import { WebhookUrlRefused, checkWebhookUrl, isForbiddenAddress } from './url-safety.js';

/* One attempt at a time, against real HTTP receivers on loopback. */

const secret = newWebhookSecret();
const open: Array<Receiver | WebhookSender> = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

async function receiver(...args: Parameters<typeof startReceiver>) {
  const started = await startReceiver(...args);
  open.push(started);
  return started;
}

function sender(options: Partial<Parameters<typeof createWebhookSender>[0]> = {}) {
  const created = createWebhookSender({ allowPrivate: true, ...options });
  open.push(created);
  return created;
}

const webhook = (url: string) => ({ url, id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', timestamp: new Date(), body: '{"type":"webhook.test"}', secrets: [secret] });

describe('sending one webhook', () => {
  it('signs it as Standard Webhooks specifies, for each secret on its own', async () => {
    const inbox = await receiver();
    const second = newWebhookSecret();
    const attempt = await sender().send({ ...webhook(inbox.url), secrets: [secret, second] });
    expect(attempt).toMatchObject({ ok: true, statusCode: 204, error: null, gone: false });
    const [request] = inbox.received;
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const key of [secret, second]) expect(new StandardWebhook(key).verify(request!.body, headers)).toEqual({ type: 'webhook.test' });
    expect(signWebhook([secret], headers['webhook-id']!, Number(headers['webhook-timestamp']), request!.body)).toBe(headers['webhook-signature']!.split(' ')[0]);
  });

  it('does not follow a redirect', async () => {
    const elsewhere = await receiver();
    const redirecting = await receiver(() => (response) => response.writeHead(302, { location: elsewhere.url }).end());
    const attempt = await sender().send(webhook(redirecting.url));
    expect(attempt).toMatchObject({ ok: false, statusCode: 302, error: `redirect not followed (302 to ${elsewhere.url})` });
    expect(elsewhere.received).toEqual([]);
  });

  it('keeps 4 KiB of an answer and does not wait for the rest of an endless one', async () => {
    const big = await receiver(() => (response) => response.writeHead(500).end('é'.repeat(600_000)));
    const attempt = await sender().send(webhook(big.url));
    expect(Buffer.byteLength(attempt.responseBody!)).toBeLessThanOrEqual(4096);
    expect(attempt.responseBody!.startsWith('éé')).toBe(true);
    const endless = await receiver(() => (response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write('x'.repeat(1024)), 5);
      response.on('close', () => clearInterval(timer));
    });
    const cut = await sender({ timeoutMs: 5000 }).send(webhook(endless.url));
    expect(cut).toMatchObject({ ok: true, statusCode: 200 });
    expect(cut.responseBody).toHaveLength(4096);
    expect(cut.durationMs).toBeLessThan(2000);
  });

  it('reads Retry-After as seconds or a date, and a 410 as gone', async () => {
    const busy = await receiver(() => (response) => response.writeHead(503, { 'retry-after': '7' }).end());
    expect((await sender().send(webhook(busy.url))).retryAfterMs).toBe(7000);
    const gone = await receiver(() => 410);
    expect(await sender().send(webhook(gone.url))).toMatchObject({ ok: false, statusCode: 410, gone: true, error: 'HTTP 410' });
    expect(retryAfterMs(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(58_000);
    expect(retryAfterMs('soon')).toBeNull();
  });

  it('a closed port is an attempt without an answer', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const attempt = await sender().send(webhook(`http://127.0.0.1:${port}/hook`));
    expect(attempt).toMatchObject({ ok: false, statusCode: null, responseBody: null });
    expect(attempt.error).toMatch(/ECONNREFUSED/);
  });

  it('without the flag, reaches no loopback address: by IP, by name, in IPv6', async () => {
    const inbox = await receiver();
    const { port } = new URL(inbox.url);
    const guarded = sender({ allowPrivate: false });
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      const attempt = await guarded.send(webhook(`http://${host}:${port}/hook`));
      expect(attempt.ok, host).toBe(false);
      expect(attempt.error, host).toMatch(/^refused: resolves to a private or reserved address/);
    }
    expect(inbox.received).toEqual([]);
  });
});

describe('which URLs may be registered', () => {
  it.each([
    ['ftp://example.com/hook', 'not an http or https URL'],
    ['file:///etc/passwd', 'not an http or https URL'],
    ['http://user:pw@93.184.216.34/hook', 'has credentials in it'],
    ['http://169.254.169.254/latest/meta-data', 'private or reserved'],
    ['http://10.0.0.1/hook', 'private or reserved'],
    ['http://[::ffff:127.0.0.1]/hook', 'private or reserved'],
    ['http://localhost:8080/hook', 'private or reserved'],
    ['https://no-such-host.invalid/hook', 'does not resolve'],
  ])('refuses %s', async (url, reason) => {
    const refusal = await checkWebhookUrl(url, { allowPrivate: false }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(WebhookUrlRefused);
    expect((refusal as WebhookUrlRefused).reason).toContain(reason);
  });

  it('accepts a public address, and a private one with the flag', async () => {
    await expect(checkWebhookUrl('https://93.184.216.34/hook', { allowPrivate: false })).resolves.toBeUndefined();
    await expect(checkWebhookUrl('http://127.0.0.1:8080/hook', { allowPrivate: true })).resolves.toBeUndefined();
    await expect(checkWebhookUrl('http://localhost:8080/hook', { allowPrivate: true })).resolves.toBeUndefined();
  });

  it.each([
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['2606:4700::1', false],
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['169.254.169.254', true],
    ['0.0.0.0', true],
    ['255.255.255.255', true],
    ['224.0.0.1', true],
    ['::1', true],
    ['::', true],
    ['fc00::1', true],
    ['fe80::1', true],
    ['::ffff:10.0.0.1', true],
    ['fd00:ec2::254', true],
    // IPv4-compatible (::/96), as the URL parser writes [::127.0.0.1] and as typed.
    ['::7f00:1', true],
    ['::127.0.0.1', true],
    ['::a00:1', true],
    ['::808:808', true],
    ['0:0:0:0:0:0:7f00:1', true],
    // Translation and tunnel ranges embedding a private IPv4 address, and a public one (refused by range).
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b:1::a00:1', true],
    ['64:ff9b::808:808', true],
    ['2002:7f00:1::1', true],
    ['2002:a00:1::1', true],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', true],
    ['::ffff:0:7f00:1', true],
    ['2001:4860:4860::8888', false],
    ['not an ip', true],
  ])('%s is forbidden: %s', (ip, forbidden) => {
    expect(isForbiddenAddress(ip)).toBe(forbidden);
  });
});
