import { claimIdempotencyKey, findSubmissionForDocument, releaseIdempotencyKey, startLiveServer, type LiveServer } from '@signet/server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  SigningAbortError,
  SigningApiError,
  SigningNetworkError,
  SigningTimeoutError,
  backoffDelay,
  createSigningClient,
  type SigningClientOptions,
} from './index.js';
import { retryAfterMs } from './rate-limit.js';
import { payloadFor } from './test-support/payload.js';

let server: LiveServer;
/** Requests that reached the proxy in front of the real server, by path. */
let seen: string[];

beforeAll(async () => {
  server = await startLiveServer();
});
afterAll(() => server.close());
beforeEach(() => {
  seen = [];
  server.intercept(undefined);
});

/** A client whose backoff is a millisecond, so the tests wait only where the server asks them to. */
function client(apiKey: string, options: Partial<SigningClientOptions> = {}) {
  return createSigningClient({ apiKey, baseUrl: server.url, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...options });
}

/** Fault injection in front of the real server: `fault(n)` answers the n-th request (0-based) or passes it on. */
function injectFaults(fault: (index: number, request: Request) => Promise<Response> | null) {
  server.intercept((request, next) => {
    const index = seen.push(new URL(request.url).pathname) - 1;
    return fault(index, request) ?? next(request);
  });
}

const unavailable = () => Promise.resolve(Response.json({ message: 'down' }, { status: 503 }));

describe('retries of transient failures', () => {
  it('503 twice, then the real answer', async () => {
    injectFaults((index) => (index < 2 ? unavailable() : null));
    const result = await client(await server.createKey()).validateKey();
    expect(result.valid).toBe(true);
    expect(seen).toHaveLength(3);
  });

  it('gives up after `retries` retries with the last error', async () => {
    injectFaults(() => unavailable());
    const error = await client(await server.createKey(), { retry: { retries: 2, baseDelayMs: 1 } })
      .validateKey()
      .catch((reason: unknown) => reason);
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(seen).toHaveLength(3);
  });

  it('does not retry what cannot change: 400, 401, 404, 422', async () => {
    injectFaults(() => null);
    const signer = client(await server.createKey());
    await expect(signer.getDocument('bad')).rejects.toMatchObject({ status: 400 });
    await expect(signer.getDocument('doc_0000000000000000000000')).rejects.toMatchObject({ status: 404 });
    await expect(client('pk_test_nobodynobodynobody00000').getDocument('doc_0000000000000000000000')).rejects.toMatchObject({
      status: 401,
    });
    expect(seen).toHaveLength(3);
  });

  it('429 with Retry-After: waits as long as the server asks, then succeeds', async () => {
    const arrivals: number[] = [];
    injectFaults((index) => {
      arrivals.push(Date.now());
      return index === 0
        ? Promise.resolve(Response.json({ message: 'slow down' }, { status: 429, headers: { 'Retry-After': '1' } }))
        : null;
    });
    expect((await client(await server.createKey()).validateKey()).valid).toBe(true);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('429 with X-RateLimit-Reset only: waits until the window resets', async () => {
    const arrivals: number[] = [];
    injectFaults((index) => {
      arrivals.push(Date.now());
      if (index > 0) return null;
      const reset = String(Math.ceil(Date.now() / 1000) + 1);
      return Promise.resolve(Response.json({}, { status: 429, headers: { 'X-RateLimit-Reset': reset } }));
    });
    expect((await client(await server.createKey()).validateKey()).valid).toBe(true);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(Math.ceil(arrivals[0]! / 1000) * 1000 + 1000 - arrivals[0]! - 50);
  });

  it('a 429 asking for more than a minute is passed on at once', async () => {
    injectFaults(() => Promise.resolve(Response.json({}, { status: 429, headers: { 'Retry-After': '3600' } })));
    const error = await client(await server.createKey()).validateKey().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SigningApiError);
    expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfterMs: 3_600_000 });
    expect(seen).toHaveLength(1);
  });

  it('a time-out: the stalled attempt is abandoned and the next one answers', async () => {
    injectFaults((index) => (index === 0 ? new Promise<Response>((resolve) => setTimeout(() => resolve(new Response('{}')), 2000)) : null));
    const result = await client(await server.createKey(), { timeoutMs: 300 }).validateKey();
    expect(result.valid).toBe(true);
    expect(seen).toHaveLength(2);
  });

  it('a time-out without retries is a SigningTimeoutError', async () => {
    injectFaults(() => new Promise<Response>((resolve) => setTimeout(() => resolve(new Response('{}')), 2000)));
    const error = await client(await server.createKey(), { timeoutMs: 200, retry: false }).validateKey().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SigningTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 200, retryable: true });
  });

  it('nothing listening is a SigningNetworkError', async () => {
    const error = await createSigningClient({ apiKey: 'pk_x', baseUrl: 'http://127.0.0.1:9', retry: false })
      .validateKey()
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SigningNetworkError);
  });

  it("the caller's signal stops the call, during an attempt or a backoff, and is never retried", async () => {
    injectFaults(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const pending = client(await server.createKey()).validateKey({ signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toBeInstanceOf(SigningAbortError);
    expect(seen).toHaveLength(1);

    injectFaults(() => unavailable());
    const backingOff = new AbortController();
    const slow = client(await server.createKey(), { retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 } });
    const waiting = slow.validateKey({ signal: backingOff.signal });
    setTimeout(() => backingOff.abort(), 200);
    await expect(waiting).rejects.toBeInstanceOf(SigningAbortError);
  });
});

describe('a submit whose response is lost never submits twice', () => {
  async function preparedSubmit() {
    const document = await server.createDocument();
    const key = await server.createKey();
    const sdk = await client(key).getDocument(document.id);
    return { document, key, payload: await payloadFor(sdk) };
  }

  it('stored, then the answer stalls: the retry with the same Idempotency-Key replays the first result', async () => {
    const { document, key, payload } = await preparedSubmit();
    const keys: Array<string | null> = [];
    server.intercept(async (request, next) => {
      if (request.method !== 'POST') return next(request);
      keys.push(request.headers.get('Idempotency-Key'));
      const response = await next(request);
      if (keys.length > 1) return response;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return response;
    });
    const result = await client(key, { timeoutMs: 500 }).submitDocument(payload);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const stored = await findSubmissionForDocument(server.test.storage.db.query, document.id);
    expect(stored?.id).toBe(result.submissionId);
  });

  it('stored, then the connection drops: retried, one submission', async () => {
    const { document, key, payload } = await preparedSubmit();
    let posts = 0;
    const dropFirstAnswer: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'POST' && posts++ === 0) {
        await response.text();
        throw new TypeError('fetch failed');
      }
      return response;
    };
    const result = await client(key, { fetch: dropFirstAnswer }).submitDocument(payload, { idempotencyKey: 'checkout-42' });
    expect(posts).toBe(2);
    expect((await findSubmissionForDocument(server.test.storage.db.query, document.id))?.id).toBe(result.submissionId);
  });

  it('a retry that meets the first request still in flight (409 with Retry-After) waits and gets through', async () => {
    const { document, key, payload } = await preparedSubmit();
    const { checksum } = payload;
    // Another attempt with this key is being processed: the server answers 409 with Retry-After until it ends.
    const scope = { organizationId: server.test.org.id, key: 'order-7' };
    await claimIdempotencyKey(server.test.storage.db, scope, `${checksum}:${checksum}`, {
      now: new Date(),
      expiresAfterMs: 86_400_000,
      staleAfterMs: 60_000,
    });
    const statuses: number[] = [];
    server.intercept(async (request, next) => {
      const response = await next(request);
      if (request.method === 'POST') {
        statuses.push(response.status);
        // That other attempt fails and frees the key, as a refused request does.
        if (response.status === 409) await releaseIdempotencyKey(server.test.storage.db.query, scope);
      }
      return response;
    });
    const result = await client(key).submitDocument(payload, { idempotencyKey: 'order-7' });
    expect(statuses).toEqual([409, 201]);
    expect((await findSubmissionForDocument(server.test.storage.db.query, document.id))?.id).toBe(result.submissionId);
  });
});

describe('backoff', () => {
  it('full jitter: between 0 and min(cap, base × 2^attempt)', () => {
    const policy = { retries: 3, baseDelayMs: 250, maxDelayMs: 8000 };
    expect(backoffDelay(0, policy, () => 0.999)).toBeCloseTo(249.75);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(1000);
    expect(backoffDelay(10, policy, () => 0.999)).toBeCloseTo(7992);
    expect(backoffDelay(2, policy, () => 0)).toBe(0);
  });

  it('Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs(new Response(null, { status: 503, headers: { 'Retry-After': '2' } }), now)).toBe(2000);
    const date = new Response(null, { status: 503, headers: { 'Retry-After': 'Sun, 22 Nov 2026 10:00:05 GMT' } });
    expect(retryAfterMs(date, now)).toBe(5000);
    expect(retryAfterMs(new Response(null, { status: 503 }), now)).toBeUndefined();
  });
});
