import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError, signWebhook, verifyWebhook, type WebhookEvent } from './webhooks.js';

// Real secrets of the Standard Webhooks form (24 and 32 random bytes), real HMACs, the reference package beside ours.
const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64')}`;
const otherSecret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
const id = 'msg_2mZkR8vT4xQw9LpN3sHa7bYc';
const sealed: WebhookEvent = {
  type: 'document.sealed',
  timestamp: '2026-11-22T10:00:00.000Z',
  data: {
    documentId: 'doc_Q3hXk2v9TzR7mLpW4sNa8bYc',
    submissionId: 'sub_J8kQm2XwR4tZp6LnV3yBcD5e',
    sha256: 'a'.repeat(64),
    signedDocumentUrl: 'https://sign.example.com/documents/doc_Q3hXk2v9TzR7mLpW4sNa8bYc/signed.pdf',
    sealedAt: '2026-11-22T10:00:00.000Z',
  },
};
// Serialized by hand with spacing JSON.stringify would not produce: the bytes signed are the bytes received.
const body = JSON.stringify(sealed, null, 1);
const sentAt = new Date('2026-11-22T10:00:07Z');
const seconds = Math.floor(sentAt.getTime() / 1000);

/** The headers Signet sends, signed by the reference implementation. */
function referenceHeaders(payload = body, at = sentAt, signingSecret = secret): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(signingSecret).sign(id, at, payload),
  };
}

/** The reason a verification is refused with (fails the test if it succeeds). */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => expect.unreachable('expected a refusal'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe('verifyWebhook', () => {
  it('accepts what the reference implementation signs, and returns the typed event', async () => {
    const event = await verifyWebhook({ secret, headers: referenceHeaders(), body, now: sentAt });
    expect(event).toEqual(sealed);
    if (event.type === 'document.sealed') expect(event.data.sha256).toHaveLength(64);
  });

  it('defaults to the clock: a request signed just now passes', async () => {
    const now = new Date();
    expect(await verifyWebhook({ secret, headers: referenceHeaders(body, now), body })).toEqual(sealed);
  });

  it('reads a Headers object and a record with any header case alike', async () => {
    const headers = referenceHeaders();
    expect(await verifyWebhook({ secret, headers: new Headers(headers), body, now: sentAt })).toEqual(sealed);
    const shouted = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(await verifyWebhook({ secret, headers: shouted, body, now: sentAt })).toEqual(sealed);
    const nodeStyle = { ...headers, 'webhook-signature': [headers['webhook-signature']!], host: undefined };
    expect(await verifyWebhook({ secret, headers: nodeStyle, body, now: sentAt })).toEqual(sealed);
  });

  it('takes the body as bytes (a Uint8Array, or a Buffer as Express raw() gives) without re-encoding them', async () => {
    const bytes = new TextEncoder().encode(body);
    expect(await verifyWebhook({ secret, headers: referenceHeaders(), body: bytes, now: sentAt })).toEqual(sealed);
    expect(await verifyWebhook({ secret, headers: referenceHeaders(), body: Buffer.from(body), now: sentAt })).toEqual(sealed);
  });

  it('refuses a tampered body', async () => {
    const tampered = body.replace('"a', '"b');
    expect(await refusal(verifyWebhook({ secret, headers: referenceHeaders(), body: tampered, now: sentAt }))).toBe('no matching signature');
  });

  it('refuses a request signed with another secret, and a changed id or timestamp', async () => {
    expect(await refusal(verifyWebhook({ secret: otherSecret, headers: referenceHeaders(), body, now: sentAt }))).toBe(
      'no matching signature',
    );
    const otherId = { ...referenceHeaders(), 'webhook-id': 'msg_other' };
    expect(await refusal(verifyWebhook({ secret, headers: otherId, body, now: sentAt }))).toBe('no matching signature');
    const otherTime = { ...referenceHeaders(), 'webhook-timestamp': String(seconds + 1) };
    expect(await refusal(verifyWebhook({ secret, headers: otherTime, body, now: sentAt }))).toBe('no matching signature');
  });

  it('refuses timestamps more than the tolerance away, either way, even when correctly signed', async () => {
    const at = (offset: number) => new Date(sentAt.getTime() + offset * 1000);
    expect(await verifyWebhook({ secret, headers: referenceHeaders(body, at(-300)), body, now: sentAt })).toEqual(sealed);
    expect(await verifyWebhook({ secret, headers: referenceHeaders(body, at(300)), body, now: sentAt })).toEqual(sealed);
    expect(await refusal(verifyWebhook({ secret, headers: referenceHeaders(body, at(-301)), body, now: sentAt }))).toBe(
      'timestamp too old',
    );
    expect(await refusal(verifyWebhook({ secret, headers: referenceHeaders(body, at(301)), body, now: sentAt }))).toBe(
      'timestamp in the future',
    );
    const hourOld = referenceHeaders(body, at(-3600));
    expect(await refusal(verifyWebhook({ secret, headers: hourOld, body, now: sentAt }))).toBe('timestamp too old');
    expect(await verifyWebhook({ secret, headers: hourOld, body, now: sentAt, tolerance: 3600 })).toEqual(sealed);
  });

  it('refuses a request without one of the three headers, or with a timestamp that is not unix seconds', async () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const headers = referenceHeaders();
      delete headers[name];
      expect(await refusal(verifyWebhook({ secret, headers, body, now: sentAt }))).toBe('missing headers');
    }
    expect(await refusal(verifyWebhook({ secret, headers: new Headers(), body, now: sentAt }))).toBe('missing headers');
    const iso = { ...referenceHeaders(), 'webhook-timestamp': sentAt.toISOString() };
    expect(await refusal(verifyWebhook({ secret, headers: iso, body, now: sentAt }))).toBe('invalid timestamp');
  });

  it('accepts a header with several signatures when any one matches (a secret being rotated)', async () => {
    const headers = referenceHeaders();
    const current = headers['webhook-signature']!;
    const stale = new Webhook(otherSecret).sign(id, sentAt, body);
    const rotation = { ...headers, 'webhook-signature': `${stale} v2,bm90LWEtdjEtc2lnbmF0dXJl v1,!!! ${current}` };
    expect(await verifyWebhook({ secret, headers: rotation, body, now: sentAt })).toEqual(sealed);
    // The receiver's side of a rotation: both secrets configured, the request signed by the second.
    expect(await verifyWebhook({ secret: [otherSecret, secret], headers, body, now: sentAt })).toEqual(sealed);
    expect(await refusal(verifyWebhook({ secret, headers: { ...headers, 'webhook-signature': stale }, body, now: sentAt }))).toBe(
      'no matching signature',
    );
  });

  it('refuses a correctly signed body that is not a Signet event, saying why', async () => {
    const unknownType = JSON.stringify({ ...sealed, type: 'invoice.paid' });
    expect(await refusal(verifyWebhook({ secret, headers: referenceHeaders(unknownType), body: unknownType, now: sentAt }))).toMatch(
      /^not a Signet event: type: /,
    );
    const badData = JSON.stringify({ ...sealed, data: { ...sealed.data, sha256: 'short' } });
    expect(await refusal(verifyWebhook({ secret, headers: referenceHeaders(badData), body: badData, now: sentAt }))).toMatch(
      /^not a Signet event: data\.sha256: /,
    );
    expect(await refusal(verifyWebhook({ secret, headers: referenceHeaders('hello'), body: 'hello', now: sentAt }))).toBe(
      'not a Signet event: the body is not JSON',
    );
  });

  it('throws a TypeError for a secret that is not one, before looking at the request', async () => {
    await expect(verifyWebhook({ secret: 'whsec_***', headers: referenceHeaders(), body, now: sentAt })).rejects.toThrow(TypeError);
    await expect(verifyWebhook({ secret: 'whsec_', headers: {}, body, now: sentAt })).rejects.toThrow(TypeError);
  });
});

describe('signWebhook', () => {
  it('signs as the reference implementation verifies', async () => {
    const now = new Date();
    const timestamp = Math.floor(now.getTime() / 1000);
    const signature = await signWebhook({ secret, id, timestamp, body });
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual(sealed);
  });

  it('gives the same header as the reference implementation, from a Date or unix seconds, a string or bytes', async () => {
    const expected = new Webhook(secret).sign(id, sentAt, body);
    expect(await signWebhook({ secret, id, timestamp: sentAt, body })).toBe(expected);
    expect(await signWebhook({ secret, id, timestamp: seconds, body: new TextEncoder().encode(body) })).toBe(expected);
  });

  it('signs with each of several secrets, space-separated, as Signet does during a rotation', async () => {
    const signature = await signWebhook({ secret: [otherSecret, secret], id, timestamp: seconds, body });
    expect(signature.split(' ')).toEqual([new Webhook(otherSecret).sign(id, sentAt, body), new Webhook(secret).sign(id, sentAt, body)]);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signature };
    expect(await verifyWebhook({ secret, headers, body, now: sentAt })).toEqual(sealed);
  });

  it('refuses a timestamp that is not whole seconds', async () => {
    await expect(signWebhook({ secret, id, timestamp: seconds + 0.5, body })).rejects.toThrow(TypeError);
  });
});
