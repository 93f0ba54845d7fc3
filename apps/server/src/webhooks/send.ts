import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { signWebhook } from './signature.js';
import { guardedLookup, isForbiddenAddress } from './url-safety.js';

/** One webhook request: where, the event's id (`webhook-id`), when it is signed, the body, the signing secrets. */
export interface WebhookRequest {
  url: string;
  id: string;
  timestamp: Date;
  body: string;
  secrets: readonly string[];
}

/** How one attempt ended. `send` never throws: every failure is one of these with `ok` false. */
export interface WebhookAttempt {
  /** A 2xx answer. */
  ok: boolean;
  /** Null when there was no answer (refused, timed out, connection failed). */
  statusCode: number | null;
  durationMs: number;
  /** The first `maxResponseBytes` of the answer's body; null when there was no answer. */
  responseBody: string | null;
  /** Why it is not ok: 'HTTP 500', 'timed out after 15000 ms', 'redirect not followed (302 to …)', … */
  error: string | null;
  /** From `Retry-After` (seconds or an HTTP date) on a non-2xx answer. */
  retryAfterMs: number | null;
  /** The endpoint answered 410 Gone. */
  gone: boolean;
}

export interface WebhookSenderOptions {
  /** `SIGNET_WEBHOOKS_ALLOW_PRIVATE`: connections to private addresses are allowed. */
  allowPrivate: boolean;
  /** The whole attempt, connection to the end of the body read (default 15 s). */
  timeoutMs?: number;
  /** The most of an answer's body kept (default 4 KiB); the rest is not read. */
  maxResponseBytes?: number;
  userAgent?: string;
  /** Connections kept per origin (default 32). */
  connections?: number;
}

export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAttempt>;
  /** Closes the kept connections, once the requests under way have ended. */
  close(): Promise<void>;
  /** Closes every connection now, ending the requests under way (their attempts fail). */
  abort(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_RESPONSE_BYTES = 4096;

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The first `max` bytes of `text`'s UTF-8, cut at a character boundary. */
function utf8Prefix(bytes: Buffer, max: number): string {
  if (bytes.length <= max) return bytes.toString('utf8');
  let end = max;
  // Back off continuation bytes (10xxxxxx) so that no character is cut in half.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/**
 * Sends signed webhook requests (Standard Webhooks headers) over kept-alive connections whose addresses are checked
 * when each connection is made; redirects are not followed, each attempt is bounded by `timeoutMs`, and at most
 * `maxResponseBytes` of an answer are read.
 * @example const sender = createWebhookSender({ allowPrivate: false }); const attempt = await sender.send({ url, id, timestamp: new Date(), body, secrets });
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const userAgent = options.userAgent ?? 'Signet-Webhooks/1';
  const agent = new Agent({
    connections: options.connections ?? 32,
    keepAliveTimeout: 30_000,
    connect: { lookup: guardedLookup(options.allowPrivate) as never, timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  async function send(webhook: WebhookRequest): Promise<WebhookAttempt> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const failed = (error: string): WebhookAttempt => ({
      ok: false,
      statusCode: null,
      durationMs: elapsed(),
      responseBody: null,
      error,
      retryAfterMs: null,
      gone: false,
    });
    let url: URL;
    try {
      url = new URL(webhook.url);
    } catch {
      return failed('refused: not a URL');
    }
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    // A literal address is connected to without a lookup: checked here instead.
    if (!options.allowPrivate && isIP(host) && isForbiddenAddress(host)) {
      return failed(`refused: resolves to a private or reserved address (${host})`);
    }
    const seconds = Math.floor(webhook.timestamp.getTime() / 1000);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: agent,
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': userAgent,
          'webhook-id': webhook.id,
          'webhook-timestamp': String(seconds),
          'webhook-signature': signWebhook(webhook.secrets, webhook.id, seconds, webhook.body),
        },
        body: webhook.body,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= maxResponseBytes) break;
      }
      // Whatever is left is not read: the stream is dropped (and its connection with it when the body was cut).
      if (size >= maxResponseBytes) response.body.destroy();
      const { statusCode } = response;
      const responseBody = utf8Prefix(Buffer.concat(chunks), maxResponseBytes);
      const ok = statusCode >= 200 && statusCode < 300;
      let error: string | null = null;
      if (statusCode >= 300 && statusCode < 400) {
        const location = response.headers['location'];
        error = `redirect not followed (${statusCode}${location ? ` to ${String(location)}` : ''})`;
      } else if (!ok) error = `HTTP ${statusCode}`;
      return {
        ok,
        statusCode,
        durationMs: elapsed(),
        responseBody,
        error,
        retryAfterMs: ok ? null : retryAfterMs(response.headers['retry-after']),
        gone: statusCode === 410,
      };
    } catch (caught) {
      const error = caught as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
      if (signal.aborted || error.name === 'TimeoutError' || /timeout/i.test(error.code ?? '')) return failed(`timed out after ${timeoutMs} ms`);
      const cause = error.cause ?? error;
      if (cause.code === 'EWEBHOOKREFUSED' || error.code === 'EWEBHOOKREFUSED') return failed(`refused: ${(cause as Error).message.replace(/^Webhook URL refused: /, '')}`);
      return failed([cause.code, cause.message].filter(Boolean).join(' ') || String(caught));
    }
  }

  return { send, close: () => agent.close(), abort: () => agent.destroy() };
}
