import { createHash } from 'node:crypto';
import { canonicalPayload, endpoints, type FieldDefinition } from '@signet/contract';
import { alphanumeric, chance, headerSafe, pick, randomBytes, uniform, weighted, type Draw } from './fuzz-draw.js';
import { RawJson, cloneTree, hostileString, hostileValue, label, mutateText, mutateTree, nested, serialize, utf8, NESTING_DEPTHS, type JsonTree } from './fuzz-json.js';
import { jsonWriteRequest, type WriteTargets } from './fuzz-json-writes.js';
import { multipartBody, verifyBody } from './fuzz-multipart.js';
import { signedCopyRequest, signedDocumentRequest } from './fuzz-reads.js';

/**
 * The endpoints under test: the writes, `/verify`, and the sealed document's reads (`signed-document`: the key
 * holder's `signed.pdf` and `audit`; `signed-copy`: the token holder's `signed.pdf`), then the JSON writes on one
 * resource (`fuzz-json-writes.ts`). New ones go last, so that a seed draws the same cases of the others.
 */
export const ENDPOINTS = [
  'submit', 'validate-key', 'create-document', 'verify', 'signed-document', 'signed-copy',
  'decline', 'create-session', 'create-webhook', 'update-webhook',
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** Each endpoint's path; `{documentId}` and `{webhookId}` are filled per request. */
export const ENDPOINT_PATHS: Record<Endpoint, string> = {
  submit: '/sdk/documents/submit',
  'validate-key': '/sdk/validate-key',
  'create-document': '/documents',
  verify: endpoints.verifyDocument.path,
  'signed-document': endpoints.getSignedDocument.path,
  'signed-copy': endpoints.getSignedDocumentFile.path,
  decline: endpoints.declineDocument.path,
  'create-session': endpoints.createSession.path,
  'create-webhook': endpoints.createWebhook.path,
  'update-webhook': endpoints.updateWebhook.path,
};

/** The secrets of the keys a fuzz run uses, one per situation the API tells apart. */
export interface FuzzKeys {
  /** documents:read and documents:submit. */
  pk: string;
  /** Every scope. */
  sk: string;
  pkReadOnly: string;
  skReadOnly: string;
  /** Allowed from https://host.example only. */
  pkWithOrigins: string;
  revoked: string;
  expired: string;
  /** A few requests a minute, to reach the 429. */
  limited: string;
}

/** A document of the read endpoints, with the document token of its `documentUrl` once read (`readTokens`). */
export interface DocumentTarget {
  id: string;
  token?: string;
  /** Its token with an expiry in the past, when the test knows the server's secret. */
  expiredToken?: string;
  /** A token of it obtained by a key revoked since: refused like a tampered one. */
  revokedToken?: string;
}

/** The documents the reads and `/verify` are asked about, by the state of their seal. */
export interface FuzzDocuments {
  /** Sealed, with the sealed file. */
  sealed: ReadonlyArray<DocumentTarget & { pdf: Uint8Array }>;
  /** Submitted, their seal failed or queued: 409 `DOCUMENT_NOT_SEALED`. */
  unsealed: readonly DocumentTarget[];
  /** Never submitted. */
  pending: readonly DocumentTarget[];
  /** Another organization's. */
  foreign: DocumentTarget;
}

/** What the generators build requests from: real keys, real documents and their valid payloads. */
export interface FuzzTargets {
  keys: FuzzKeys;
  /** Valid, checksummed submission payloads of documents of the organization. */
  payloads: ReadonlyArray<Record<string, unknown>>;
  /** A valid payload of another organization's document. */
  foreignPayload: Record<string, unknown>;
  /** Data URLs of images whose chunks pass the submit checks but whose pixels a seal could not draw as they are. */
  hostileImages: readonly string[];
  /** PDFs with field definitions that fit them. */
  pdfs: ReadonlyArray<{ bytes: Uint8Array; fields: FieldDefinition[] }>;
  maxPdfBytes: number;
  documents: FuzzDocuments;
  /** What declines, sessions and webhook changes act on. */
  writes: WriteTargets;
}

/** One generated request, and how it was made (for the failure report). */
export interface FuzzRequest {
  endpoint: Endpoint;
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH';
  path: string;
  headers: Array<[string, string]>;
  body: Uint8Array | undefined;
  /** Over HTTP, send the body in chunks (Transfer-Encoding: chunked) rather than with a Content-Length. */
  chunked: boolean;
  recipe: string[];
  /** For `/verify`: the SHA-256 of each `file` part sent, one of which the verdict must name. */
  files?: string[];
  /** For `/verify`: the organization's sealed files, SHA-256 to document id, the only ones it may call intact. */
  sealedFiles?: Record<string, string>;
}

function apiKeyHeader(g: Draw, keys: FuzzKeys, preferred: 'pk' | 'sk', recipe: string[]): Array<[string, string]> {
  const main = keys[preferred];
  const [name, value] = weighted<[string, string | undefined]>(g, [
    [70, () => [`${preferred} key`, main]],
    [4, () => [`${preferred === 'pk' ? 'sk' : 'pk'} key`, keys[preferred === 'pk' ? 'sk' : 'pk']]],
    [3, () => ['pk key without the scope', keys.pkReadOnly]],
    [3, () => ['sk key without the scope', keys.skReadOnly]],
    [2, () => ['pk key with allowed origins', keys.pkWithOrigins]],
    [2, () => ['revoked key', keys.revoked]],
    [2, () => ['expired key', keys.expired]],
    [1, () => ['rate-limited key', keys.limited]],
    [3, () => ['no key', undefined]],
    [1, () => ['empty key', '']],
    [2, () => ['short key', `${preferred}_${alphanumeric(g, uniform(g, 31))}`]],
    [2, () => ['unknown key', `${pick(g, ['pk', 'sk'])}_${alphanumeric(g, 40)}`]],
    [1, () => ['key with its prefix in capitals', main.toUpperCase().slice(0, 3) + main.slice(3)]],
    [1, () => ['key with a character more', `${main}x`]],
    [1, () => ['key twice', `${main}, ${main}`]],
    [1, () => ['key of 8000 characters', `${preferred}_${'A'.repeat(7997)}`]],
    [1, () => ['key with a Latin-1 letter', `${main.slice(0, 10)}é${main.slice(11)}`]],
    [1, () => ['key of arbitrary text', headerSafe(hostileString(g)).slice(0, 4000)]],
  ]);
  recipe.push(`X-API-Key: ${name}`);
  return value === undefined ? [] : [['X-API-Key', value]];
}

function forwardedFor(g: Draw, recipe: string[]): Array<[string, string]> {
  const value = weighted(g, [
    [90, () => `203.0.113.${uniform(g, 255)}`],
    // One address sees many failed authentications, so the per-address limit (429) is reached too.
    [4, () => '198.51.100.66'],
    [6, () => pick(g, ['', 'unknown', '::1', '2001:db8::1%eth0', '1.1.1.1, 2.2.2.2', Array.from({ length: 1000 }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join(', '), '999.999.999.999', headerSafe(hostileString(g)).slice(0, 200)])],
  ]);
  if (!value.startsWith('203.')) recipe.push(`X-Forwarded-For: ${JSON.stringify(value.slice(0, 40))}`);
  return [['X-Forwarded-For', value]];
}

function extraHeaders(g: Draw, recipe: string[]): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  if (chance(g, 0.05)) {
    const origin = pick(g, ['https://host.example', 'https://evil.example', 'null', '*', 'https://host.example.evil', headerSafe(hostileString(g)).slice(0, 200)]);
    headers.push(['Origin', origin]);
    recipe.push(`Origin: ${JSON.stringify(origin.slice(0, 40))}`);
  }
  if (chance(g, 0.05)) {
    const agent = pick(g, ['', 'é'.repeat(2000), 'x'.repeat(8000), headerSafe(hostileString(g)).slice(0, 1000)]);
    headers.push(['User-Agent', agent]);
    recipe.push(`User-Agent of ${agent.length} characters`);
  }
  return headers;
}

const JSON_CONTENT_TYPES = [
  'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=utf-16', 'application/jsonx',
  'text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
  'application/merge-patch+json', 'application/vnd.api+json', ';', 'application/json, text/plain', '*/*', 'é/é',
];

function jsonContentType(g: Draw, recipe: string[], usual = 0.75): Array<[string, string]> {
  if (chance(g, usual)) return [['Content-Type', 'application/json']];
  if (chance(g, 0.2)) {
    recipe.push('no Content-Type');
    return [];
  }
  const type = pick(g, JSON_CONTENT_TYPES);
  recipe.push(`Content-Type: ${type}`);
  return [['Content-Type', type]];
}

function idempotencyKey(g: Draw, recipe: string[]): Array<[string, string]> {
  const value = weighted<string | undefined>(g, [
    [65, () => undefined],
    [10, () => `fuzz-${alphanumeric(g, 16)}`],
    // Reused keys reach the replay and the "same key, another body" (422) answers.
    [8, () => `fuzz-order-${uniform(g, 3)}`],
    [17, () => pick(g, ['', ' ', 'k'.repeat(255), 'k'.repeat(256), 'k'.repeat(8000), 'é'.repeat(255), 'é'.repeat(256), '\t', "'; DROP TABLE idempotency_keys; --", headerSafe(hostileString(g)).slice(0, 300)])],
  ]);
  if (value === undefined) return [];
  recipe.push(`Idempotency-Key of ${value.length} characters`);
  return [['Idempotency-Key', value]];
}

/** SHA-256 of the canonical payload without `checksum`, or undefined where the client could not compute it. */
function checksumOf(text: string): string | undefined {
  try {
    return createHash('sha256').update(canonicalPayload(JSON.parse(text) as object)).digest('hex');
  } catch {
    return undefined;
  }
}

/** `tree` (an object) with a correct checksum when one can be computed; else with a random one. */
function withChecksum(g: Draw, tree: JsonTree, recipe: string[]): string {
  const copy = cloneTree(tree);
  if (copy === null || typeof copy !== 'object' || Array.isArray(copy) || copy instanceof RawJson) return serialize(copy);
  delete copy['checksum'];
  const rest = serialize(copy);
  let checksum = checksumOf(rest);
  if (checksum === undefined) {
    checksum = Buffer.from(randomBytes(g, 32)).toString('hex');
    recipe.push('checksum not computable: a random one');
  }
  return `{"checksum":${JSON.stringify(checksum)}${rest === '{}' ? '' : ','}${rest.slice(1)}`;
}

function basePayload(g: Draw, targets: FuzzTargets, recipe: string[]): JsonTree {
  if (chance(g, 0.03)) {
    recipe.push("another organization's document");
    return cloneTree(targets.foreignPayload as JsonTree);
  }
  const index = uniform(g, targets.payloads.length - 1);
  recipe.push(`payload of document ${index}`);
  return cloneTree(targets.payloads[index] as JsonTree);
}

function submitBody(g: Draw, targets: FuzzTargets, recipe: string[]): Uint8Array {
  const base = basePayload(g, targets, recipe);
  return weighted<Uint8Array>(g, [
    [12, () => {
      recipe.push('valid payload');
      const entries = Object.entries(base as Record<string, JsonTree>);
      return utf8(chance(g, 0.5) ? serialize(base) : JSON.stringify(Object.fromEntries(entries.reverse()), null, uniform(g, 4)));
    }],
    [40, () => {
      const mutated = mutateTree(g, base, 1 + uniform(g, 2), recipe);
      return utf8(weighted(g, [
        [60, () => withChecksum(g, mutated, recipe)],
        [40, () => { recipe.push('checksum not recomputed'); return serialize(mutated); }],
      ]));
    }],
    [14, () => mutateText(g, chance(g, 0.5) ? serialize(base) : withChecksum(g, mutateTree(g, base, 1, recipe), recipe), recipe)],
    [8, () => { const value = hostileValue(g); recipe.push(`body ${value instanceof RawJson ? value.label : 'a hostile value'}`); return utf8(serialize(value)); }],
    [6, () => {
      const depth = pick(g, NESTING_DEPTHS);
      const kind = pick(g, ['array', 'object', 'mixed'] as const);
      const deep = nested(depth, kind);
      if (chance(g, 0.3)) {
        recipe.push(`body ${deep.label}`);
        return utf8(deep.text);
      }
      const member = pick(g, ['extra', 'renderContext', 'fields', 'pages', 'documentId']);
      recipe.push(`member ${member} ${deep.label}`);
      const tree = cloneTree(base) as Record<string, JsonTree>;
      tree[member] = deep;
      return utf8(withChecksum(g, tree, recipe));
    }],
    [4, () => {
      const body = pick(g, ['', ' ', '\n', 'null', '0', '""', '[]', '{}', 'true']);
      recipe.push(`body ${JSON.stringify(body)}`);
      return utf8(body);
    }],
    [2, () => {
      const tree = cloneTree(base) as Record<string, JsonTree>;
      const size = chance(g, 0.15) ? 10 * 1024 * 1024 + 1 : pick(g, [500_000, 2_000_000]);
      tree['note'] = 'x'.repeat(size);
      recipe.push(`a member of ${size} characters`);
      return utf8(withChecksum(g, tree, recipe));
    }],
    [4, () => {
      const tree = cloneTree(base) as { fields?: Array<{ value?: Record<string, JsonTree> }> };
      const images = (tree.fields ?? []).filter((field) => field.value?.['imageData'] !== undefined);
      const image = pick(g, targets.hostileImages);
      recipe.push(`hostile image ${targets.hostileImages.indexOf(image)} in ${images.length} image values`);
      for (const field of images) field.value!['imageData'] = image;
      return utf8(withChecksum(g, tree as JsonTree, recipe));
    }],
  ]);
}

type BodyAndHeaders = { body: Uint8Array | undefined; headers: Array<[string, string]> };

function validateKeyBody(g: Draw, recipe: string[]): BodyAndHeaders {
  return weighted<BodyAndHeaders>(g, [
    [50, () => ({ body: undefined, headers: chance(g, 0.2) ? jsonContentType(g, recipe, 0.5) : [] })],
    [10, () => { recipe.push('body {}'); return { body: utf8('{}'), headers: jsonContentType(g, recipe) }; }],
    [15, () => { const value = hostileValue(g); recipe.push(`body ${label(value)}`); return { body: utf8(serialize(value)), headers: jsonContentType(g, recipe) }; }],
    [10, () => ({ body: mutateText(g, '{"key":"pk_x","valid":true}', recipe), headers: jsonContentType(g, recipe) })],
    [5, () => { recipe.push('random bytes'); return { body: randomBytes(g, uniform(g, 4096)), headers: jsonContentType(g, recipe, 0.3) }; }],
    [5, () => { const deep = nested(pick(g, NESTING_DEPTHS), 'array'); recipe.push(`body ${deep.label}`); return { body: utf8(deep.text), headers: jsonContentType(g, recipe) }; }],
    [5, () => { recipe.push('body of 1 MB'); return { body: utf8(`{"a":"${'x'.repeat(1_000_000)}"}`), headers: jsonContentType(g, recipe) }; }],
  ]);
}

const sealedFiles = (targets: FuzzTargets) =>
  Object.fromEntries(targets.documents.sealed.map(({ id, pdf }) => [createHash('sha256').update(pdf).digest('hex'), id]));

/**
 * One request to `endpoint`, drawn from `g`: hostile and mutated bodies, content types and headers around
 * mostly-valid keys, so that the checks past authentication are reached too.
 * @example const request = fuzzRequest(drawFor(seed, i), 'submit', targets)
 */
export function fuzzRequest(g: Draw, endpoint: Endpoint, targets: FuzzTargets): FuzzRequest {
  const recipe: string[] = [];
  const headers: Array<[string, string]> = [];
  let body: Uint8Array | undefined;
  let method: FuzzRequest['method'] = 'POST';
  let path = ENDPOINT_PATHS[endpoint];
  let extra: Pick<FuzzRequest, 'files' | 'sealedFiles'> = {};
  switch (endpoint) {
    case 'submit':
      headers.push(...apiKeyHeader(g, targets.keys, chance(g, 0.85) ? 'pk' : 'sk', recipe), ...jsonContentType(g, recipe), ...idempotencyKey(g, recipe));
      body = submitBody(g, targets, recipe);
      break;
    case 'validate-key': {
      headers.push(...apiKeyHeader(g, targets.keys, chance(g, 0.5) ? 'pk' : 'sk', recipe));
      const made = validateKeyBody(g, recipe);
      headers.push(...made.headers);
      body = made.body;
      break;
    }
    case 'create-document': {
      headers.push(...apiKeyHeader(g, targets.keys, 'sk', recipe));
      const made = multipartBody(g, targets, recipe);
      if (made.contentType !== undefined) headers.push(['Content-Type', made.contentType]);
      body = made.body;
      break;
    }
    case 'verify': {
      headers.push(...apiKeyHeader(g, targets.keys, chance(g, 0.5) ? 'pk' : 'sk', recipe));
      const made = verifyBody(g, targets, recipe);
      if (made.contentType !== undefined) headers.push(['Content-Type', made.contentType]);
      if (chance(g, 0.03)) {
        const declared = pick(g, [targets.maxPdfBytes + 1024 * 1024 + 1, 2 ** 31, 2 ** 53, 1e21]);
        headers.push(['Content-Length', String(declared)]);
        recipe.push(`Content-Length: ${declared} declared`);
      }
      body = made.body;
      extra = { files: made.files, sealedFiles: sealedFiles(targets) };
      break;
    }
    case 'signed-document':
    case 'signed-copy': {
      if (endpoint === 'signed-document') headers.push(...apiKeyHeader(g, targets.keys, 'sk', recipe));
      else if (chance(g, 0.1)) headers.push(...apiKeyHeader(g, targets.keys, chance(g, 0.5) ? 'pk' : 'sk', recipe));
      const made = endpoint === 'signed-document' ? signedDocumentRequest(g, targets, recipe) : signedCopyRequest(g, targets, recipe);
      ({ method, path } = made);
      headers.push(...made.headers);
      break;
    }
    case 'decline':
    case 'create-session':
    case 'create-webhook':
    case 'update-webhook': {
      const made = jsonWriteRequest(g, endpoint, targets, recipe);
      ({ method, path, body } = made);
      if (made.sessionKey !== undefined) headers.push(['X-API-Key', made.sessionKey]);
      else headers.push(...apiKeyHeader(g, targets.keys, endpoint === 'decline' && chance(g, 0.85) ? 'pk' : 'sk', recipe));
      headers.push(...jsonContentType(g, recipe));
      break;
    }
  }
  headers.push(...forwardedFor(g, recipe), ...extraHeaders(g, recipe));
  return { endpoint, method, path, headers, body, chunked: chance(g, 0.3), recipe, ...extra };
}
