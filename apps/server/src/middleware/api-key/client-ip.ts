import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { requestHeader } from '../../http/request-header.js';

/**
 * Which peers are proxies whose `X-Forwarded-For` entries are believed (`TRUST_PROXY`): the nearest `hops` (0: none,
 * the socket's address is the client), or those whose address is in `proxies` (addresses, CIDR ranges, and
 * proxy-addr's names `loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = { hops: number } | { proxies: string[] };

/**
 * Reads `TRUST_PROXY`: `false` (or `0`) trusts no proxy; a number of hops; `true`, one hop (the load balancer in
 * front); otherwise a comma-separated list for proxy-addr. Throws on an address proxy-addr cannot use.
 * @example parseTrustProxy('loopback, 10.0.0.0/8') // { proxies: ['loopback', '10.0.0.0/8'] }
 */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim().toLowerCase();
  if (value === 'false' || value === 'no') return { hops: 0 };
  if (value === 'true' || value === 'yes') return { hops: 1 };
  if (/^\d+$/.test(value)) return { hops: Number(value) };
  const proxies = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (proxies.length === 0) throw new TypeError('expected false, a hop count or a list of proxy addresses');
  proxyAddr.compile(proxies);
  return { proxies };
}

const compiled = new WeakMap<TrustProxy, (address: string, hop: number) => boolean>();

function trustOf(setting: TrustProxy): (address: string, hop: number) => boolean {
  let trust = compiled.get(setting);
  if (!trust) {
    if ('hops' in setting) {
      const { hops } = setting;
      trust = (_address, hop) => hop < hops;
    } else {
      trust = proxyAddr.compile(setting.proxies);
    }
    compiled.set(setting, trust);
  }
  return trust;
}

/**
 * The client's IP, as proxy-addr derives it: walking `X-Forwarded-For` from the socket's peer towards the client,
 * the first address that is not a trusted proxy (so an entry the client wrote itself, further along, is never
 * reached). Without trusted proxies, the socket's address. An in-process request (`app.request`, the tests) has no
 * socket: its peer counts as a trusted proxy, so its `X-Forwarded-For` names the client.
 * @example const ip = clientIp(c, deps.config.trustProxy) ?? 'unknown'
 */
export function clientIp(c: Context, trustProxy: TrustProxy): string | null {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const socketAddress = incoming?.socket?.remoteAddress;
  if ('hops' in trustProxy && trustProxy.hops === 0) return socketAddress ?? null;
  const forwarded = requestHeader(c, 'x-forwarded-for');
  if (!forwarded) return socketAddress ?? null;
  const trust = trustOf(trustProxy);
  // proxy-addr reads only these two of a request; the header as read here is the same on Node and in-process.
  const request = { socket: { remoteAddress: socketAddress }, headers: { 'x-forwarded-for': forwarded } };
  return proxyAddr(request as unknown as IncomingMessage, (address, hop) => (hop === 0 && socketAddress === undefined) || trust(address, hop));
}
