import { createHash } from 'node:crypto';
import { alphanumeric, chance, headerSafe, pick, uniform, weighted, type Draw } from './fuzz-draw.js';
import { hostileString } from './fuzz-json.js';
import type { DocumentTarget, FuzzTargets } from './fuzz-requests.js';

/** A GET of the read endpoints, drawn: its path (with query) and the headers that make it conditional or partial. */
export interface ReadRequest {
  method: 'GET' | 'HEAD';
  path: string;
  headers: Array<[string, string]>;
}

/** The document a read asks for, by the state of its seal, and the one it pretends to be when the id is hostile. */
function pickDocument(g: Draw, targets: FuzzTargets, recipe: string[]): DocumentTarget {
  const { sealed, unsealed, pending, foreign } = targets.documents;
  const [name, target] = weighted<[string, DocumentTarget]>(g, [
    [60, () => ['sealed document', pick(g, sealed)]],
    [15, () => ['document whose seal is failed or queued', pick(g, unsealed)]],
    [8, () => ['document never submitted', pick(g, pending)]],
    [5, () => ["another organization's document", foreign]],
  ]);
  recipe.push(name);
  return target;
}

const RAW_IDS = ['', '.', '..', '%', '%zz', '%00', '%2e%2e', '%2F', 'doc_%2F..%2F', '*'];

/** `text` as one path segment: every character percent-encoded, a lone surrogate as U+FFFD (as UTF-8 writes it). */
const segment = (text: string) => encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));

/**
 * An id (`doc_…`, `wh_…`) as a path segment carries it: mostly the real one, else altered, unknown, hostile, or raw
 * path syntax.
 * @example const path = `/documents/${idInPath(g, document.id, recipe)}/audit`
 */
export function idInPath(g: Draw, id: string, recipe: string[]): string {
  const prefix = id.slice(0, id.indexOf('_') + 1);
  const [name, value] = weighted<[string, string]>(g, [
    [80, () => ['', segment(id)]],
    [2, () => ['id in capitals', segment(id.toUpperCase())]],
    [2, () => ['id one character short', segment(id.slice(0, -1))]],
    [2, () => ['id with a character more', segment(`${id}x`)]],
    [2, () => ['unknown well-formed id', `${prefix}${alphanumeric(g, 24)}`]],
    [1, () => ['id of 64 characters', `${prefix}${alphanumeric(g, 64)}`]],
    [1, () => ['id of 5000 characters', `${prefix}${'A'.repeat(5000)}`]],
    [1, () => ['another kind of id', id.replace(prefix, pick(g, ['sub_', 'key_', 'org_', 'DOC_', 'doc-']))]],
    [1, () => ['id with a trailing space', segment(`${id} `)]],
    [1, () => ['id with a NUL', segment(`${id}\u0000`)]],
    [1, () => ['id with a slash', segment(`${id}/..`)]],
    [1, () => ['id of SQL', segment(`${id}' OR '1'='1`)]],
    [2, () => ['hostile id', segment(hostileString(g).slice(0, 2000))]],
    [2, () => { const raw = pick(g, RAW_IDS); return [`raw id ${JSON.stringify(raw)}`, raw]; }],
  ]);
  if (name) recipe.push(name);
  return value;
}

/** The sealed file's strong ETag, as the server sends it. */
const etagOf = (pdf: Uint8Array) => `"${createHash('sha256').update(pdf).digest('hex')}"`;

function rangeHeader(g: Draw, size: number): string {
  const at = () => uniform(g, size + 16);
  return weighted<string>(g, [
    [30, () => { const start = at(); return `bytes=${start}-${start + uniform(g, 4096)}`; }],
    [8, () => `bytes=${at()}-`],
    [8, () => `bytes=-${uniform(g, size + 16)}`],
    [6, () => pick(g, [`bytes=${size - 1}-`, `bytes=${size}-`, `bytes=${size - 1}-${size - 1}`, 'bytes=0-0', 'bytes=-1', 'bytes=-0', 'bytes=0-', `bytes=0-${size}`])],
    [6, () => pick(g, ['bytes=5-2', 'bytes=-', 'bytes=', 'bytes=0-99,200-299', 'bytes=0-0,-1', 'items=0-5', 'BYTES=0-5', ' bytes=0-5 ', 'bytes = 0-5', 'bytes=0x10-', 'bytes=1e3-', 'bytes=+1-2', 'bytes=-+1', headerSafe('bytes=٣-')])],
    [4, () => pick(g, [`bytes=0-${2 ** 53}`, `bytes=${2 ** 53}-`, 'bytes=99999999999999999999999-', 'bytes=-99999999999999999999999', `bytes=0-${'9'.repeat(400)}`, `bytes=${'0'.repeat(400)}1-2`])],
    [3, () => `bytes=${Array.from({ length: 500 }, (_, i) => `${i}-${i}`).join(',')}`],
    [3, () => headerSafe(hostileString(g)).slice(0, 2000)],
  ]);
}

/** `Range`, `If-None-Match`, `If-Range`: real values of the sealed file mostly, malformed ones too. */
function conditionalHeaders(g: Draw, targets: FuzzTargets, recipe: string[]): Array<[string, string]> {
  const sealed = pick(g, targets.documents.sealed);
  const etag = etagOf(sealed.pdf);
  const headers: Array<[string, string]> = [];
  const add = (name: string, value: string) => {
    headers.push([name, value]);
    recipe.push(`${name}: ${JSON.stringify(value.slice(0, 60))}${value.length > 60 ? `… (${value.length})` : ''}`);
  };
  if (chance(g, 0.4)) add('Range', rangeHeader(g, sealed.pdf.length));
  if (chance(g, 0.15)) {
    add('If-None-Match', pick(g, [etag, etag, `W/${etag}`, '*', `"${'0'.repeat(64)}", ${etag}`, etag.slice(1, -1), `"${'0'.repeat(64)}"`, '', headerSafe(hostileString(g)).slice(0, 500)]));
  }
  if (chance(g, 0.12)) {
    add('If-Range', pick(g, [etag, etag, `W/${etag}`, `"${'0'.repeat(64)}"`, 'Wed, 21 Oct 2015 07:28:00 GMT', '', headerSafe(hostileString(g)).slice(0, 500)]));
  }
  return headers;
}

/**
 * `GET /documents/{id}/signed.pdf` or `/audit` (sk key, added by the caller): hostile ids, ranges and conditions.
 * @example const { method, path, headers } = signedDocumentRequest(g, targets, recipe)
 */
export function signedDocumentRequest(g: Draw, targets: FuzzTargets, recipe: string[]): ReadRequest {
  const document = pickDocument(g, targets, recipe);
  const audit = chance(g, 0.25);
  if (audit) recipe.push('its audit trail');
  const path = `/documents/${idInPath(g, document.id, recipe)}/${audit ? 'audit' : 'signed.pdf'}`;
  return { method: readMethod(g, recipe), path, headers: conditionalHeaders(g, targets, recipe) };
}

/** Recipe steps of a signed-copy request whose token the server must refuse, whatever else the request is. */
const REVOKED_KEYS_TOKEN = 'the token a revoked key obtained';
const ANOTHER_KEYS_ID = "token with another key's id";
const NO_KEY_ID = 'token without its key id';
export const REFUSED_TOKENS: readonly string[] = [REVOKED_KEYS_TOKEN, ANOTHER_KEYS_ID, NO_KEY_ID];

function tokenOf(g: Draw, targets: FuzzTargets, document: DocumentTarget, recipe: string[]): string | undefined {
  const token = document.token ?? `${Math.floor(Date.now() / 1000) + 3600}.key_${alphanumeric(g, 24)}.${alphanumeric(g, 43)}`;
  // The key id a token names (inside its MAC): another key's in its place must not pass.
  const otherKeyId = document.revokedToken?.split('.')[1] ?? `key_${alphanumeric(g, 24)}`;
  const [name, value] = weighted<[string, string | undefined]>(g, [
    [70, () => [document.token ? 'its token' : 'a made-up token (none read)', token]],
    [4, () => ["another document's token", pick(g, [...targets.documents.sealed, ...targets.documents.unsealed]).token ?? token]],
    [6, () => ['an expired token', document.expiredToken ?? `${Math.floor(Date.now() / 1000) - 60}${token.slice(token.indexOf('.'))}`]],
    [4, () => (document.revokedToken ? [REVOKED_KEYS_TOKEN, document.revokedToken] : ["its token (no revoked key's read)", token])],
    [3, () => [ANOTHER_KEYS_ID, token.replace(/\.key_[A-Za-z0-9]+\./, `.${otherKeyId}.`)]],
    [1, () => [NO_KEY_ID, token.replace(/\.key_[A-Za-z0-9]+\./, '.')]],
    [3, () => ['no token', undefined]],
    [1, () => ['an empty token', '']],
    [3, () => { const i = uniform(g, token.length - 1); return [`token with character ${i} changed`, token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1)]; }],
    [2, () => ['token with its expiry one later', token.replace(/^\d+/, (expiry) => String(Number(expiry) + 1))]],
    [1, () => ['token with a leading zero', `0${token}`]],
    [1, () => ['token in capitals', token.toUpperCase()]],
    [1, () => ['token with padding', `${token}=`]],
    [1, () => ['token cut', token.slice(0, uniform(g, token.length - 1))]],
    [1, () => ['token of 10000 characters', `${token}${'A'.repeat(10_000)}`]],
    [2, () => ['hostile token', hostileString(g).slice(0, 2000)]],
  ]);
  recipe.push(name);
  return value;
}

/**
 * `GET /sdk/documents/{id}/signed.pdf?token=…`, the signer's copy: no key, tampered, expired, missing or borrowed
 * tokens, a revoked key's tokens, hostile ids, ranges and conditions.
 * @example const { method, path, headers } = signedCopyRequest(g, targets, recipe)
 */
export function signedCopyRequest(g: Draw, targets: FuzzTargets, recipe: string[]): ReadRequest {
  const document = pickDocument(g, targets, recipe);
  const token = tokenOf(g, targets, document, recipe);
  const query = weighted<string>(g, [
    [90, () => (token === undefined ? '' : `?token=${segment(token)}`)],
    [2, () => { recipe.push('token twice'); return `?token=${segment(token ?? '')}&token=${segment(token ?? '')}`; }],
    [2, () => { recipe.push('parameter named Token'); return `?Token=${segment(token ?? '')}`; }],
    [2, () => { recipe.push('token not encoded'); return `?token=${token ?? ''}`.replace(/[#\s]/g, ''); }],
    [2, () => { recipe.push('200 other parameters'); return `?${Array.from({ length: 200 }, (_, i) => `p${i}=${i}`).join('&')}&token=${segment(token ?? '')}`; }],
  ]);
  const path = `/sdk/documents/${idInPath(g, document.id, recipe)}/signed.pdf${query}`;
  return { method: readMethod(g, recipe), path, headers: conditionalHeaders(g, targets, recipe) };
}

function readMethod(g: Draw, recipe: string[]): 'GET' | 'HEAD' {
  if (!chance(g, 0.05)) return 'GET';
  recipe.push('HEAD');
  return 'HEAD';
}
