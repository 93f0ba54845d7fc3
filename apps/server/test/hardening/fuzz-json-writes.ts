import { isIP } from 'node:net';
import { DECLINE_REASON_MAX_LENGTH, WEBHOOK_DESCRIPTION_MAX_LENGTH, WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX_LENGTH } from '@signet/contract';
import { chance, pick, uniform, weighted, type Draw } from './fuzz-draw.js';
import { hostileString, hostileValue, label, mutateText, mutateTree, nested, serialize, utf8, NESTING_DEPTHS, type JsonTree } from './fuzz-json.js';
import { idInPath } from './fuzz-reads.js';
import type { FuzzTargets } from './fuzz-requests.js';

/**
 * The address webhook endpoints are registered with: public (example.com's, once), so the server accepts it, and
 * never connected to, since no fuzz run has a webhook dispatcher.
 */
export const PUBLIC_WEBHOOK_URL = 'https://93.184.216.34/signet/hooks';

/** A pending document a decline or a session is asked for, with a session key of each of its signers. */
export interface DeclineTarget {
  id: string;
  kind: 'plain' | 'lease' | 'lease signed by the tenant';
  /** Session keys by signer id; a document without signers: `''`, its implicit signer. */
  sessions: Record<string, string>;
}

/** What the JSON writes act on, besides the documents of the reads. */
export interface WriteTargets {
  /** Pending documents, each replaced once a decline has declined it. */
  documents: DeclineTarget[];
  /** Declined before the run: declining it again answers that decline. */
  declined: string;
  /** Webhook endpoints: the organization's (one of them turned off after a 410) and another organization's. */
  webhooks: { enabled: string; disabled: string; foreign: string };
}

/** The JSON writes on one resource, as `ENDPOINTS` names them. */
export type JsonWriteEndpoint = 'decline' | 'create-session' | 'create-webhook' | 'update-webhook';

/** A drawn request of the JSON writes; `sessionKey`, when set, is the `X-API-Key` to send. */
export interface JsonWrite {
  method: 'POST' | 'PATCH';
  path: string;
  body: Uint8Array | undefined;
  sessionKey?: string;
}

/** The JSON text of `base` (an object) with one more member, written as `raw` JSON text. */
const withMember = (base: JsonTree, name: string, raw: string) => {
  const text = serialize(base);
  return `${text.slice(0, -1)}${text === '{}' ? '' : ','}${JSON.stringify(name)}:${raw}}`;
};

/**
 * `base`, a body built of mostly valid members (described in `recipe`), as sent: as it is, mutated as a tree or as
 * text, replaced by a hostile value, nested deep, empty, past the 16 KiB the routes take, or left out.
 */
function mutatedBody(g: Draw, base: Record<string, JsonTree>, recipe: string[]): Uint8Array | undefined {
  recipe.push(`built {${Object.entries(base).map(([name, value]) => `${name}: ${label(value)}`).join(', ')}}`);
  return weighted<Uint8Array | undefined>(g, [
    [25, () => { recipe.push('sent as built'); return utf8(chance(g, 0.8) ? serialize(base) : JSON.stringify(base, null, 1 + uniform(g, 3))); }],
    [35, () => utf8(serialize(mutateTree(g, base, 1 + uniform(g, 2), recipe)))],
    [12, () => mutateText(g, serialize(base), recipe)],
    [10, () => { const value = hostileValue(g); recipe.push(`body ${label(value)}`); return utf8(serialize(value)); }],
    [5, () => {
      const deep = nested(pick(g, NESTING_DEPTHS), pick(g, ['array', 'object', 'mixed'] as const));
      recipe.push(`body ${deep.label}`);
      return utf8(chance(g, 0.5) ? deep.text : withMember(base, 'extra', deep.text));
    }],
    [5, () => { const body = pick(g, ['', ' ', 'null', '0', '""', '[]', '{}', 'true']); recipe.push(`body ${JSON.stringify(body)}`); return utf8(body); }],
    [4, () => {
      const size = pick(g, [16 * 1024 - 200, 16 * 1024 + 1, 100_000, 1_000_000]);
      recipe.push(`a member of ${size} characters`);
      return utf8(withMember(base, 'note', `"${'x'.repeat(size)}"`));
    }],
    [4, () => { recipe.push('no body'); return undefined; }],
  ]);
}

/** Which of the organization's pending documents, or one that is declined, completed or another organization's. */
function documentOf(g: Draw, targets: FuzzTargets, recipe: string[]): { id: string; sessions: Record<string, string> } {
  const { writes, documents } = targets;
  const [name, target] = weighted<[string, { id: string; sessions: Record<string, string> }]>(g, [
    [70, () => { const document = pick(g, writes.documents); return [`${document.kind} document`, document]; }],
    [8, () => ['document declined already', { id: writes.declined, sessions: {} }]],
    [8, () => ['completed document', { id: pick(g, [...documents.sealed, ...documents.unsealed]).id, sessions: {} }]],
    [4, () => ["another organization's document", { id: documents.foreign.id, sessions: {} }]],
  ]);
  recipe.push(name);
  return target;
}

const REASONS = [
  'The rent on page 1 is wrong', '  Not the agreed version  ', 'é'.repeat(DECLINE_REASON_MAX_LENGTH), 'x'.repeat(DECLINE_REASON_MAX_LENGTH + 1),
  ' ', '', '\u0000', '<script>alert(1)</script>', "'; DROP TABLE documents; --", '\u202e', '👩‍👩‍👧‍👦'.repeat(200),
];

/** `POST /sdk/documents/{id}/decline`: the organization's key mostly, a signer's session key (or another's) too. */
function declineRequest(g: Draw, targets: FuzzTargets, recipe: string[]): JsonWrite {
  const document = documentOf(g, targets, recipe);
  let sessionKey: string | undefined;
  const signers = Object.keys(document.sessions);
  if (signers.length > 0 && chance(g, 0.4)) {
    const signer = pick(g, signers);
    sessionKey = document.sessions[signer];
    recipe.push(`X-API-Key: the session key of ${signer || 'its implicit signer'}`);
  } else if (chance(g, 0.05)) {
    sessionKey = Object.values(pick(g, targets.writes.documents).sessions)[0];
    recipe.push("X-API-Key: a session key of a document, maybe another's");
  }
  const reason = chance(g, 0.8) ? pick(g, REASONS.slice(0, 2)) : pick(g, REASONS);
  const path = `/sdk/documents/${idInPath(g, document.id, recipe)}/decline`;
  return { method: 'POST', path, body: mutatedBody(g, { reason }, recipe), sessionKey };
}

const ORIGINS: JsonTree[] = [
  ['https://host.example'],
  ['http://localhost:5173', 'https://host.example:8443'],
  Array.from({ length: 20 }, (_, i) => `https://host${i}.example`),
  Array.from({ length: 21 }, (_, i) => `https://host${i}.example`),
  ['https://host.example/path'],
  ['*'],
];

/** `POST /documents/{id}/sessions`: the signer of a document with signers, none without, or the wrong one. */
function sessionRequest(g: Draw, targets: FuzzTargets, recipe: string[]): JsonWrite {
  const document = documentOf(g, targets, recipe);
  const signers = Object.keys(document.sessions).filter((signer) => signer !== '');
  const body: Record<string, JsonTree> = {};
  const signerId = chance(g, 0.9) ? (signers.length > 0 ? pick(g, signers) : undefined) : pick(g, [undefined, 'tenant', 'nobody', 'Tenant']);
  if (signerId !== undefined) body['signerId'] = signerId;
  if (chance(g, 0.4)) body['expiresInSeconds'] = pick(g, [60, 3600, 7 * 24 * 3600, 59, 7 * 24 * 3600 + 1, 90.5]);
  if (chance(g, 0.3)) body['origins'] = pick(g, ORIGINS);
  const path = `/documents/${idInPath(g, document.id, recipe)}/sessions`;
  return { method: 'POST', path, body: mutatedBody(g, body, recipe) };
}

const URLS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [60, [PUBLIC_WEBHOOK_URL, 'http://93.184.216.34:8080/hooks?source=signet', 'https://[2606:2800:220:1:248:1893:25c8:1946]/hook']],
  [25, [
    'http://127.0.0.1:3000/hook', 'http://[::1]/hook', 'http://10.0.0.5/hook', 'http://169.254.169.254/latest/meta-data',
    'http://[fd00:ec2::254]/', 'http://0.0.0.0:8080/', 'http://2130706433/hook', 'http://0x7f.1/', 'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/', 'http://100.64.0.1/', 'http://192.168.1.1/', 'http://172.16.0.1/', 'http://[fe80::1]/',
    'http://[::127.0.0.1]/', 'http://[::7f00:1]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:a00:1::1]/',
  ]],
  [15, [
    'https://user:secret@93.184.216.34/hook', 'ftp://93.184.216.34/', 'https://', '93.184.216.34/hook', 'javascript:alert(1)',
    `https://93.184.216.34/${'a'.repeat(WEBHOOK_URL_MAX_LENGTH)}`, 'https://93.184.216.34:99999/', 'HTTPS://93.184.216.34/HOOK',
  ]],
];

const url = (g: Draw) => pick(g, weighted(g, URLS.map(([weight, urls]) => [weight, () => urls] as const)));

/** One to three events, each once; now and then a list the contract refuses, or every event. */
function events(g: Draw): JsonTree {
  if (chance(g, 0.1)) return pick<JsonTree>(g, [[], ['document.sealed', 'document.sealed'], ['webhook.test'], ['document.*'], [...WEBHOOK_EVENT_TYPES]]);
  const left: string[] = [...WEBHOOK_EVENT_TYPES];
  return Array.from({ length: 1 + uniform(g, 2) }, () => left.splice(uniform(g, left.length - 1), 1)[0]!);
}

const description = (g: Draw) =>
  chance(g, 0.8)
    ? pick(g, ['Orders', '', 'é'.repeat(WEBHOOK_DESCRIPTION_MAX_LENGTH), 'x'.repeat(WEBHOOK_DESCRIPTION_MAX_LENGTH + 1)])
    : hostileString(g).slice(0, 600);

/** `POST /webhooks`: public, private, metadata and malformed URLs, every event, descriptions up to the limit. */
function createWebhookRequest(g: Draw, recipe: string[]): JsonWrite {
  const body: Record<string, JsonTree> = { url: url(g), events: events(g) };
  if (chance(g, 0.4)) body['description'] = description(g);
  return { method: 'POST', path: '/webhooks', body: withoutNameLookup(mutatedBody(g, body, recipe), recipe) };
}

/** `PATCH /webhooks/{id}`: some of its members changed, of the organization's endpoints or another's. */
function updateWebhookRequest(g: Draw, targets: FuzzTargets, recipe: string[]): JsonWrite {
  const { webhooks } = targets.writes;
  const [name, id] = weighted<[string, string]>(g, [
    [70, () => ['enabled endpoint', webhooks.enabled]],
    [20, () => ['endpoint turned off after a 410', webhooks.disabled]],
    [10, () => ["another organization's endpoint", webhooks.foreign]],
  ]);
  recipe.push(name);
  const body: Record<string, JsonTree> = {};
  if (chance(g, 0.4)) body['url'] = url(g);
  if (chance(g, 0.3)) body['events'] = events(g);
  if (chance(g, 0.4)) body['enabled'] = chance(g, 0.7);
  if (chance(g, 0.3)) body['description'] = description(g);
  const path = `/webhooks/${idInPath(g, id, recipe)}`;
  return { method: 'PATCH', path, body: withoutNameLookup(mutatedBody(g, body, recipe), recipe) };
}

/**
 * `body`, unless the server would look the host of its `url` up in DNS: the fuzz reaches nothing outside loopback,
 * and a resolver is outside it. A mutation can make a name of an address (`93.184.216.34x`); such a URL is
 * replaced by `PUBLIC_WEBHOOK_URL` (the body read as the server reads it: UTF-8, then `JSON.parse`).
 */
export function withoutNameLookup(body: Uint8Array | undefined, recipe: string[]): Uint8Array | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return body;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return body;
  const value = (parsed as Record<string, unknown>)['url'];
  if (typeof value !== 'string' || !URL.canParse(value)) return body;
  const host = new URL(value).hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '' || isIP(host) !== 0) return body;
  recipe.push(`URL of host ${JSON.stringify(host.slice(0, 40))} replaced: it would be looked up in DNS`);
  return utf8(JSON.stringify({ ...(parsed as object), url: PUBLIC_WEBHOOK_URL }));
}

/**
 * One request of the JSON writes on one resource (`decline`, `create-session`, `create-webhook`, `update-webhook`):
 * its method, path and body; the caller adds the key (unless a session key is drawn) and the Content-Type.
 * @example const { method, path, body, sessionKey } = jsonWriteRequest(g, 'decline', targets, recipe)
 */
export function jsonWriteRequest(g: Draw, endpoint: JsonWriteEndpoint, targets: FuzzTargets, recipe: string[]): JsonWrite {
  switch (endpoint) {
    case 'decline':
      return declineRequest(g, targets, recipe);
    case 'create-session':
      return sessionRequest(g, targets, recipe);
    case 'create-webhook':
      return createWebhookRequest(g, recipe);
    case 'update-webhook':
      return updateWebhookRequest(g, targets, recipe);
  }
}
