import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createHttpServer, DEFAULT_CONNECTION_LIMITS } from '../../http/node-server.js';
import { buildPayload, call, capturingLogger, createTestApp } from '../../../test/support/harness.js';
import { parseTrustProxy } from './client-ip.js';
import { findSubmissionForDocument } from '../../storage/queries/submissions.js';

describe('TRUST_PROXY', () => {
  it('takes false, true (one hop), a hop count, or proxy addresses, ranges and names', () => {
    expect(parseTrustProxy('false')).toEqual({ hops: 0 });
    expect(parseTrustProxy('0')).toEqual({ hops: 0 });
    expect(parseTrustProxy('true')).toEqual({ hops: 1 });
    expect(parseTrustProxy('1')).toEqual({ hops: 1 });
    expect(parseTrustProxy('3')).toEqual({ hops: 3 });
    expect(parseTrustProxy('loopback, 10.0.0.0/8,fd00::1')).toEqual({ proxies: ['loopback', '10.0.0.0/8', 'fd00::1'] });
    expect(loadConfig({}).trustProxy).toEqual({ hops: 0 });
    expect(loadConfig({ TRUST_PROXY: 'uniquelocal' }).trustProxy).toEqual({ proxies: ['uniquelocal'] });
  });

  it('refuses what proxy-addr cannot use, naming the variable', () => {
    expect(() => parseTrustProxy('proxy.internal')).toThrow(/invalid IP address/);
    expect(() => parseTrustProxy(',')).toThrow();
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/^Invalid configuration: TRUST_PROXY: /);
  });
});

describe('the failed-authentication limit behind a proxy (TRUST_PROXY=true: one hop)', () => {
  it('counts the address the proxy saw, whatever the client writes in front of it', async () => {
    const t = await createTestApp(undefined, { TRUST_PROXY: 'true', AUTH_FAILURES_PER_MINUTE: '5' });
    try {
      const { secret } = await t.createKey();
      // The client sends its own X-Forwarded-For, different each time; the proxy appends the address it saw.
      for (let i = 0; i < 5; i++) {
        const res = await call(t, 'POST', '/sdk/validate-key', { key: `pk_${'x'.repeat(40)}`, ip: `198.51.100.${i}, 192.0.2.9` });
        expect(res.status).toBe(401);
      }
      const blocked = await call(t, 'POST', '/sdk/validate-key', { key: secret, ip: '203.0.113.200, 192.0.2.9' });
      expect(blocked.status).toBe(429);
      expect(await blocked.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED' } });
      // Another client behind the same proxy is not affected.
      expect((await call(t, 'POST', '/sdk/validate-key', { key: secret, ip: '192.0.2.9, 192.0.2.10' })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('the client IP over real HTTP, as recorded with a submission', () => {
  /** Submits over a real connection from 127.0.0.1 with `forwardedFor`, and returns the client IP stored for it. */
  async function recordedIp(trustProxy: string, forwardedFor: string | undefined): Promise<string | null> {
    const t = await createTestApp(undefined, { TRUST_PROXY: trustProxy });
    const server = createHttpServer(t.app.fetch, { limits: DEFAULT_CONNECTION_LIMITS, logger: capturingLogger().logger, hostname: '127.0.0.1' });
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const document = await t.createDocument({ pages: 1 });
      const { secret } = await t.createKey();
      const res = await fetch(`http://127.0.0.1:${port}/sdk/documents/submit`, {
        method: 'POST',
        headers: {
          'X-API-Key': secret,
          'Content-Type': 'application/json',
          ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}),
        },
        body: JSON.stringify(await buildPayload(document)),
      });
      expect(res.status).toBe(201);
      return (await findSubmissionForDocument(t.storage.db.query, document.id))!.clientIp;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await t.close();
    }
  }

  // The client wrote 192.0.2.66 itself; the proxy in front of Signet (at 127.0.0.1) appended 198.51.100.7.
  const chain = '192.0.2.66, 198.51.100.7';
  it.each([
    ['false', chain, '127.0.0.1'],
    ['true', chain, '198.51.100.7'],
    ['1', chain, '198.51.100.7'],
    ['loopback', chain, '198.51.100.7'],
    ['10.0.0.0/8', chain, '127.0.0.1'],
    ['2', chain, '192.0.2.66'],
    ['loopback, 198.51.100.0/24', chain, '192.0.2.66'],
    ['true', undefined, '127.0.0.1'],
  ])('TRUST_PROXY=%s, X-Forwarded-For: %s → %s', async (trustProxy, forwardedFor, expected) => {
    expect(await recordedIp(trustProxy, forwardedFor)).toBe(expected);
  });
});
