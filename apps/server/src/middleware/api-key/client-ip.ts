import type { Context } from 'hono';
import { requestHeader } from '../../http/request-header.js';

/**
 * The client's IP: the first `X-Forwarded-For` hop when the server sits behind a trusted proxy, otherwise the
 * socket's address (absent when the app is called in-process, as tests do).
 */
export function clientIp(c: Context, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = requestHeader(c, 'x-forwarded-for');
    if (forwarded) return forwarded.split(',')[0]!.trim();
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? null;
}
