import { WebhookEventSchema, type WebhookEvent } from '@signet/contract';

export type { WebhookEvent, WebhookEventData, WebhookEventType } from '@signet/contract';
/** Every event type an endpoint may subscribe to, in the contract's order. */
export { WEBHOOK_EVENT_TYPES } from '@signet/contract';

/** The headers a webhook request arrives with: a Fetch `Headers`, or a plain record in any case (Node's `req.headers`). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The body exactly as received: the signature covers its bytes, so it must not be parsed and serialized again. */
export type WebhookBody = string | Uint8Array;

export interface VerifyWebhookOptions {
  /** The endpoint's secret, `whsec_…`; during a rotation, both the new and the previous one. */
  secret: string | readonly string[];
  headers: WebhookHeaders;
  body: WebhookBody;
  /** How far `webhook-timestamp` may be from `now`, in seconds, either way (default 300). */
  tolerance?: number;
  /** The time to check `webhook-timestamp` against (default: the clock's). */
  now?: Date;
}

export interface SignWebhookOptions {
  /** `whsec_…`; several sign side by side, as Signet does while a rotated-out secret is still valid. */
  secret: string | readonly string[];
  /** The `webhook-id` header. */
  id: string;
  /** The `webhook-timestamp` header: a `Date`, or unix seconds. */
  timestamp: Date | number;
  body: WebhookBody;
}

/** Why a webhook request was refused. */
export type WebhookVerificationReason =
  | 'missing headers'
  | 'invalid timestamp'
  | 'timestamp too old'
  | 'timestamp in the future'
  | 'no matching signature'
  | `not a Signet event: ${string}`;

/**
 * A webhook request that is not an event Signet signed recently: answer it with a 4xx, and do not act on it.
 * @example
 * catch (error) { if (error instanceof WebhookVerificationError) return new Response(error.reason, { status: 400 }) }
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    options?: ErrorOptions,
  ) {
    super(`Webhook verification failed: ${reason}`, options);
  }
}

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 300;
const encoder = new TextEncoder();

/**
 * Checks a webhook request as the Standard Webhooks spec says (an HMAC-SHA256 `v1` signature of
 * `webhook-id.webhook-timestamp.body` by one of `secret`, a timestamp within `tolerance`), then that its body is a
 * Signet event, and returns the event. Runs on Web Crypto: Node 20+, Deno, Bun, edge runtimes. A malformed `secret`
 * is a `TypeError` (a configuration mistake, not a bad request).
 * @throws {WebhookVerificationError} when the request is not a recent event signed with `secret`.
 * @example
 * // Hono: the raw body, before anything parses it.
 * app.post('/signet/webhooks', async (c) => {
 *   const event = await verifyWebhook({ secret: process.env.SIGNET_WEBHOOK_SECRET!, headers: c.req.raw.headers, body: await c.req.text() });
 *   if (event.type === 'document.sealed') await fetchSignedPdf(event.data.documentId);
 *   return c.body(null, 204);
 * });
 */
export async function verifyWebhook({
  secret,
  headers,
  body,
  tolerance = DEFAULT_TOLERANCE_SECONDS,
  now = new Date(),
}: VerifyWebhookOptions): Promise<WebhookEvent> {
  const keys = secrets(secret).map(secretKey);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signature) throw new WebhookVerificationError('missing headers');
  checkTimestamp(timestamp, tolerance, now);

  const content = signedContent(id, timestamp, body);
  const offered = offeredSignatures(signature);
  let matched = false;
  for (const key of keys) {
    const expected = await hmac(key, content);
    if (offered.some((candidate) => sameBytes(candidate, expected))) {
      matched = true;
      break;
    }
  }
  if (!matched) throw new WebhookVerificationError('no matching signature');
  return parseEvent(body);
}

/**
 * The `webhook-signature` header Signet would send for `body`: `v1,<base64>`, one per secret, space-separated. For a
 * host's own tests of its webhook route.
 * @example
 * const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { webhookId: 'wh_…', message: 'hi' } });
 * const timestamp = Math.floor(Date.now() / 1000);
 * const headers = { 'webhook-id': 'msg_test', 'webhook-timestamp': String(timestamp), 'webhook-signature': await signWebhook({ secret, id: 'msg_test', timestamp, body }) };
 * await app.request('/signet/webhooks', { method: 'POST', headers, body });
 */
export async function signWebhook({ secret, id, timestamp, body }: SignWebhookOptions): Promise<string> {
  const seconds = typeof timestamp === 'number' ? timestamp : Math.floor(timestamp.getTime() / 1000);
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new TypeError(`timestamp must be whole unix seconds, not ${timestamp}`);
  const content = signedContent(id, String(seconds), body);
  const signatures = secrets(secret).map(async (each) => `v1,${toBase64(await hmac(secretKey(each), content))}`);
  return (await Promise.all(signatures)).join(' ');
}

function secrets(secret: string | readonly string[]): readonly string[] {
  return typeof secret === 'string' ? [secret] : secret;
}

/** The HMAC key of a secret: the base64 after `whsec_` (a bare base64 key is accepted, as the reference verifiers do). */
function secretKey(secret: string): Uint8Array<ArrayBuffer> {
  const key = fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!key || key.length === 0) throw new TypeError('A webhook secret is "whsec_" followed by the base64 of its key');
  return key;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    // Joined as `Headers.get` joins a repeated header.
    if (key.toLowerCase() === name) return typeof value === 'string' ? value : value?.join(', ');
  }
  return undefined;
}

function checkTimestamp(timestamp: string, tolerance: number, now: Date): void {
  if (!/^[0-9]{1,15}$/.test(timestamp)) throw new WebhookVerificationError('invalid timestamp');
  const age = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (age > tolerance) throw new WebhookVerificationError('timestamp too old');
  if (-age > tolerance) throw new WebhookVerificationError('timestamp in the future');
}

/** `id.timestamp.body` as bytes: a byte body is appended as it is, never decoded and encoded again. */
function signedContent(id: string, timestamp: string, body: WebhookBody): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const payload = typeof body === 'string' ? encoder.encode(body) : body;
  const content = new Uint8Array(prefix.length + payload.length);
  content.set(prefix);
  content.set(payload, prefix.length);
  return content;
}

/** The `v1` signatures of the header, decoded; other versions and malformed entries are skipped, as the spec says. */
function offeredSignatures(header: string): Uint8Array[] {
  return header
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => fromBase64(entry.slice(3)))
    .filter((bytes) => bytes !== null);
}

async function hmac(key: Uint8Array<ArrayBuffer>, content: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const cryptoKey = await globalThis.crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', cryptoKey, content));
}

/** Compares every byte whatever the first difference, so the time taken does not tell how much of a guess was right. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

function parseEvent(body: WebhookBody): WebhookEvent {
  let json: unknown;
  try {
    json = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));
  } catch (error) {
    throw new WebhookVerificationError('not a Signet event: the body is not JSON', { cause: error });
  }
  const result = WebhookEventSchema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.map(({ path, message }) => (path.length ? `${path.map(String).join('.')}: ${message}` : message));
    throw new WebhookVerificationError(`not a Signet event: ${issues.join('; ')}`, { cause: result.error });
  }
  return result.data;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  // atob exists in every runtime this runs on (Buffer does not); it throws on characters outside base64.
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}
