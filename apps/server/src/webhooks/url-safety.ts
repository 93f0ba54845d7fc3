import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** An endpoint URL Signet will not send to; `reason` is the `details.reason` of the 422. */
export class WebhookUrlRefused extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`Webhook URL refused: ${reason}`);
    this.name = 'WebhookUrlRefused';
    this.reason = reason;
  }
}

/**
 * `ipaddr.js` ranges a webhook may reach: the public internet, nothing else. Every other range is refused by
 * name, so the IPv6 ranges that embed an IPv4 address (NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4
 * `2002::/16`, Teredo `2001::/32`, IPv4-translated `::ffff:0:0:0/96`) are refused whatever address they carry.
 */
const PUBLIC_RANGES = new Set(['unicast']);
/** AWS's metadata service on IPv6, inside a range `ipaddr.js` calls unicast. */
const IPV6_METADATA = ipaddr.parse('fd00:ec2::254');
/**
 * IPv4-compatible IPv6 addresses (`::a.b.c.d`, deprecated by RFC 4291): `ipaddr.js` calls them unicast when
 * written in hexadecimal (`::7f00:1`), and the WHATWG URL parser writes `[::127.0.0.1]` that way.
 */
const IPV4_COMPATIBLE: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('::'), 96];

/**
 * Whether `ip` is an address a webhook must not reach without `SIGNET_WEBHOOKS_ALLOW_PRIVATE`: loopback, private
 * (RFC 1918), unique-local, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, unspecified,
 * broadcast, multicast, reserved, documentation, an IPv6 translation or tunnel range (NAT64, 6to4, Teredo,
 * IPv4-compatible), or an IPv4-mapped IPv6 form of one of those. Classified by range, never by spelling.
 * Not an IP: true.
 * @example isForbiddenAddress('10.0.0.5') // true; isForbiddenAddress('::7f00:1') // true; isForbiddenAddress('8.8.8.8') // false
 */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(bare)) return true;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(IPV4_COMPATIBLE)) return true;
  // `process` turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 one.
  const address = ipaddr.process(bare);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).toNormalizedString() === IPV6_METADATA.toNormalizedString()) return true;
  return !PUBLIC_RANGES.has(address.range());
}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

/**
 * Checks an endpoint URL when it is registered or changed: http or https, no credentials in it, a host that
 * resolves, and (unless `allowPrivate`) none of its addresses forbidden (`isForbiddenAddress`). Throws
 * `WebhookUrlRefused`. The address is checked again at every connection (`guardedLookup`).
 * @example await checkWebhookUrl('https://app.example.com/hooks', { allowPrivate: false })
 */
export async function checkWebhookUrl(url: string, options: { allowPrivate: boolean }): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookUrlRefused('not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new WebhookUrlRefused('not an http or https URL');
  if (parsed.username || parsed.password) throw new WebhookUrlRefused('has credentials in it');
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookupAll(host)).map((entry) => entry.address);
    } catch {
      throw new WebhookUrlRefused('the host does not resolve');
    }
  }
  if (options.allowPrivate) return;
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden) throw new WebhookUrlRefused(`resolves to a private or reserved address (${forbidden})`);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the sockets that send webhooks (undici's `connect.lookup`): resolves as `dns.lookup` does, then
 * fails the connection when an address is forbidden, unless `allowPrivate`. Checked when connecting, so a name
 * that resolved to a public address when registered and to a private one now (DNS rebinding) reaches nothing.
 * @example new Agent({ connect: { lookup: guardedLookup(false) } })
 */
export function guardedLookup(allowPrivate: boolean) {
  return function lookup(hostname: string, options: LookupOptions | LookupAllOptions | number, callback: LookupCallback): void {
    const opts: LookupOptions = typeof options === 'number' ? { family: options } : (options ?? {});
    dnsLookup(hostname, { ...opts, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const forbidden = allowPrivate ? undefined : list.find((entry) => isForbiddenAddress(entry.address));
      if (forbidden) {
        const refused = new WebhookUrlRefused(`resolves to a private or reserved address (${forbidden.address})`) as NodeJS.ErrnoException;
        refused.code = 'EWEBHOOKREFUSED';
        return callback(refused, []);
      }
      if ((opts as LookupAllOptions).all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
