import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { drawFor } from './fuzz-draw.js';
import { utf8 } from './fuzz-json.js';
import { PUBLIC_WEBHOOK_URL, withoutNameLookup } from './fuzz-json-writes.js';
import { ENDPOINTS, fuzzRequest, type FuzzKeys, type FuzzTargets } from './fuzz-requests.js';

const text = (body: Uint8Array | undefined) => new TextDecoder().decode(body);

/** The host the server would resolve for a body's `url` (read as it reads it), when it is a name. */
function nameToResolve(body: Uint8Array | undefined): string | undefined {
  let value: unknown;
  try {
    value = (JSON.parse(text(body)) as { url?: unknown } | null)?.url;
  } catch {
    return undefined;
  }
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const host = new URL(value).hostname.replace(/^\[(.*)\]$/, '$1');
  return host !== '' && isIP(host) === 0 ? host : undefined;
}

describe('withoutNameLookup', () => {
  it('keeps a URL of an address, and replaces one whose host is a name', () => {
    for (const url of ['https://93.184.216.34/x', 'http://[::1]/', 'http://0x7f.1/', 'http://2130706433/', 'ftp://93.184.216.34/']) {
      const body = utf8(JSON.stringify({ url, events: [] }));
      expect(withoutNameLookup(body, [])).toBe(body);
    }
    for (const url of ['http://localhost/', 'https://93.184.216.34x/hook', 'HTTPS://EXAMPLE.COM', 'http://127.0.0.1.nip.io/']) {
      const recipe: string[] = [];
      const sent = JSON.parse(text(withoutNameLookup(utf8(JSON.stringify({ url, events: ['a'] })), recipe)));
      expect(sent).toEqual({ url: PUBLIC_WEBHOOK_URL, events: ['a'] });
      expect(recipe[0]).toMatch(/looked up in DNS/);
    }
  });
});

// The fuzz reaches nothing outside loopback: not a webhook receiver, and not a DNS resolver either.
describe('the drawn webhook requests', () => {
  const names = ['pk', 'sk', 'pkReadOnly', 'skReadOnly', 'pkWithOrigins', 'revoked', 'expired', 'limited'];
  const keys = Object.fromEntries(names.map((name) => [name, `pk_${name}`]));
  const targets = {
    keys: keys as unknown as FuzzKeys,
    writes: { documents: [], declined: 'doc_x', webhooks: { enabled: 'wh_a', disabled: 'wh_b', foreign: 'wh_c' } },
  } as unknown as FuzzTargets;

  it.each(['create-webhook', 'update-webhook'] as const)('%s: no URL whose host the server would look up', (endpoint) => {
    const base = ENDPOINTS.indexOf(endpoint) * 100_000_000;
    const names: string[] = [];
    for (let index = 0; index < 300; index++) {
      const name = nameToResolve(fuzzRequest(drawFor(20_261_122, base + index), endpoint, targets).body);
      if (name !== undefined) names.push(name);
    }
    expect(names).toEqual([]);
  });
});
