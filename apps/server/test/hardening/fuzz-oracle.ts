import { createHash } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import {
  AuditTrailSchema,
  DeclineRequestSchema,
  SESSION_TTL_SECONDS,
  allEndpointChecks,
  ERROR_STATUS,
  ErrorEnvelopeSchema,
  KeyValidationResultSchema,
  ManagedDocumentSchema,
  SubmissionResultSchema,
  VerifyResultSchema,
  canonicalPayload,
  endpoints,
  successEnvelope,
  type Endpoint as ContractEndpoint,
  type ErrorCode,
} from '@signet/contract';
import { REFUSED_TOKENS } from './fuzz-reads.js';
import type { Endpoint, FuzzRequest } from './fuzz-requests.js';

/** A response as the fuzz reads it. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body as bytes, which a PDF needs (`text` is their UTF-8 reading); the encoded `text` when absent. */
  bytes?: Uint8Array;
}

/** Statuses an error code travels with besides its own (contract `ERROR_STATUS`; docs/api.md, "Error codes"). */
const OTHER_STATUSES: Partial<Record<ErrorCode, readonly number[]>> = {
  VALIDATION_ERROR: [413, 415, 416, 422, 431],
  NOT_FOUND: [405],
};

/** validate-key's own refusal (docs/api.md, "Key validation"): exactly `{ valid: false, error }`, no envelope. */
const KeyRefusalSchema = z.object({ valid: z.literal(false), error: z.string().min(1) }).strict();
const CreatedDocumentSchema = successEnvelope(ManagedDocumentSchema);
const VerdictSchema = successEnvelope(VerifyResultSchema);
const AuditEnvelopeSchema = successEnvelope(AuditTrailSchema);

const LEAK = /\n\s+at |node_modules|\.ts:\d+|\/src\//;

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || '(root)'}: ${issue.message}`;
};

/** The contract's name of each JSON write (`fuzz-json-writes.ts`), under which its answer check is found. */
const JSON_WRITES = {
  decline: 'declineDocument',
  'create-session': 'createSession',
  'create-webhook': 'createWebhook',
  'update-webhook': 'updateWebhook',
} as const satisfies Partial<Record<Endpoint, keyof typeof endpoints>>;
type JsonWrite = keyof typeof JSON_WRITES;
const isJsonWrite = (endpoint: Endpoint): endpoint is JsonWrite => endpoint in JSON_WRITES;

/** The contract's entry for the route `request` went to. */
function routeOf(request: FuzzRequest): ContractEndpoint {
  if (isJsonWrite(request.endpoint)) return endpoints[JSON_WRITES[request.endpoint]];
  switch (request.endpoint) {
    case 'submit':
      return endpoints.submitDocument;
    case 'validate-key':
      return endpoints.validateKey;
    case 'create-document':
      return endpoints.createDocument;
    case 'verify':
      return endpoints.verifyDocument;
    case 'signed-document':
      return /\/audit(\?|$)/.test(request.path) ? endpoints.getAuditTrail : endpoints.getSignedDocument;
    case 'signed-copy':
      return endpoints.getSignedDocumentFile;
  }
}

/** Whether the headers the contract names for an answer are there, with values of their form. */
function headersProblem(schema: z.ZodObject | undefined, headers: Headers, status: number): string | undefined {
  if (!schema) return undefined;
  const values = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, headers.get(name) ?? undefined]));
  const parsed = schema.safeParse(values);
  return parsed.success ? undefined : `${status} headers off the contract (${firstIssue(parsed.error)})`;
}

function errorProblem(request: FuzzRequest, answer: Answer, body: unknown): string | undefined {
  const parsed = ErrorEnvelopeSchema.safeParse(body);
  if (!parsed.success) return `${answer.status} without the error envelope (${firstIssue(parsed.error)})`;
  const { error, meta } = parsed.data;
  if (meta.requestId !== answer.headers.get('X-Request-Id')) return `${answer.status}: meta.requestId is not the X-Request-Id header`;
  const statuses = [ERROR_STATUS[error.code], ...(OTHER_STATUSES[error.code] ?? [])];
  if (!statuses.includes(answer.status)) return `${answer.status} with code ${error.code}`;
  if (answer.status === 429 && !answer.headers.get('Retry-After')) return '429 without Retry-After';
  if (LEAK.test(error.message) || LEAK.test(JSON.stringify(error.details ?? {}))) return `${answer.status}: the error shows internals`;
  const unknown = unknownMemberProblem(request, error.details);
  if (unknown) return `${answer.status}: ${unknown}`;
  // The headers a refusal travels with (409 DOCUMENT_NOT_SEALED's Retry-After, 416's Content-Range…).
  const declared = routeOf(request).errors[answer.status];
  return declared?.codes.includes(error.code) ? headersProblem(declared.headers, answer.headers, answer.status) : undefined;
}

/**
 * Every member of `value` by its path as the server writes paths (`fields[2].value.html`), with its name: a path can
 * stand for more than one member when names hold `.` or `[`, so each path maps to the names it may be.
 */
function memberPaths(value: unknown, path = '', found = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (typeof value !== 'object' || value === null) return found;
  if (Array.isArray(value)) {
    value.forEach((item, index) => memberPaths(item, `${path}[${index}]`, found));
    return found;
  }
  for (const [name, member] of Object.entries(value)) {
    const at = path ? `${path}.${name}` : name;
    found.set(at, (found.get(at) ?? new Set()).add(name));
    memberPaths(member, at, found);
  }
  return found;
}

/**
 * A refusal of an unknown member (requests are strict) must name, by its path in `details.field`, a member the JSON
 * body sent has there, and quote its name in `details.reason`.
 */
function unknownMemberProblem(request: FuzzRequest, details: Record<string, unknown> | undefined): string | undefined {
  const reason = details?.['reason'];
  if (typeof reason !== 'string' || !reason.startsWith('received unknown member ')) return undefined;
  if (request.endpoint !== 'submit' && !isJsonWrite(request.endpoint)) return undefined;
  const field = String(details?.['field']);
  const names = memberPaths(parseJson(new TextDecoder().decode(request.body ?? new Uint8Array()))?.value).get(field);
  if (!names) return `refused an unknown member at ${field}, where the body has none`;
  const quoted = [...names].some((name) => reason.startsWith(`received unknown member ${JSON.stringify(name)}`));
  return quoted ? undefined : `the reason does not quote the member ${field} names`;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const headerOf = (request: FuzzRequest, name: string) =>
  request.headers.find(([header]) => header.toLowerCase() === name.toLowerCase())?.[1];

/** A 206's body must be the range its `Content-Range` names, asked for by a `Range`. */
function partialProblem(request: FuzzRequest, answer: Answer, length: number): string | undefined {
  const [, start, end, size] = (/^bytes (\d+)-(\d+)\/(\d+)$/.exec(answer.headers.get('Content-Range')!) ?? []).map(Number);
  if (!(start! <= end! && end! < size!)) return `206 with Content-Range ${answer.headers.get('Content-Range')}`;
  if (end! - start! + 1 !== length) return `206 of ${end! - start! + 1} bytes by its Content-Range, ${length} by its Content-Length`;
  return headerOf(request, 'Range') === undefined ? '206 to a request without Range' : undefined;
}

/**
 * A sealed PDF's answer (not JSON): the contract's headers for its status; 304 empty, for an `If-None-Match`
 * naming its ETag; else `application/pdf` whose `Content-Length` is the body's; a whole file whose ETag is its
 * SHA-256; a range as its `Content-Range` says.
 */
function fileProblem(request: FuzzRequest, answer: Answer, route: ContractEndpoint): string | undefined {
  const { status } = answer;
  const headers = headersProblem(route.responses[status]!.headers, answer.headers, status);
  if (headers) return headers;
  const body = answer.bytes ?? new TextEncoder().encode(answer.text);
  const etag = answer.headers.get('ETag');
  if (status === 304) {
    if (body.length > 0) return '304 with a body';
    // Weak comparison, and `*` for any current file (RFC 9110 §13.1.2).
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    const named = headerOf(request, 'If-None-Match')?.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag ?? ''));
    return named ? undefined : '304 without an If-None-Match naming its ETag';
  }
  if (!answer.headers.get('Content-Type')?.startsWith('application/pdf')) return `${status} not application/pdf`;
  const length = Number(answer.headers.get('Content-Length'));
  if (request.method === 'HEAD') {
    if (body.length > 0) return `HEAD answered with a body of ${body.length} bytes`;
  } else if (length !== body.length) {
    return `${status} with Content-Length ${length} and a body of ${body.length} bytes`;
  }
  if (status === 206) return partialProblem(request, answer, length);
  if (request.method === 'HEAD') return undefined;
  if (etag !== `"${sha256(body)}"`) return '200 whose ETag is not the SHA-256 of its body';
  return new TextDecoder().decode(body.subarray(0, 5)) === '%PDF-' ? undefined : '200 whose body is not a PDF';
}

/** A verdict of the file sent (its SHA-256), telling no more than it knows: ids only of a sealed file. */
function verdictProblem(request: FuzzRequest, answer: Answer, body: unknown): string | undefined {
  if (answer.status !== 200) return `POST /verify answered ${answer.status}`;
  const parsed = VerdictSchema.safeParse(body);
  if (!parsed.success) return `verdict envelope off its schema (${firstIssue(parsed.error)})`;
  if (parsed.data.meta.requestId !== answer.headers.get('X-Request-Id')) return 'meta.requestId is not the X-Request-Id header';
  const { sealed, intact, documentId, submissionId, sealedAt, sha256: digest } = parsed.data.data;
  if (!request.files?.length) return 'a verdict for a request without a file part';
  if (!request.files.includes(digest)) return "the verdict's sha256 is not the SHA-256 of the file sent";
  if (intact && !sealed) return 'intact but not sealed';
  const named = [documentId, submissionId, sealedAt].filter((value) => value !== undefined).length;
  if (sealed && named < 3) return 'sealed without its document, submission and time';
  if (!sealed && named > 0) return 'not sealed, yet naming a document';
  if (!request.sealedFiles) return undefined;
  const sealedAs = request.sealedFiles[digest];
  if (sealedAs !== undefined) return intact && documentId === sealedAs ? undefined : `a sealed file of ${sealedAs} not called sealed and intact by it`;
  return intact ? 'intact, for a file that is no sealed file of the organization' : undefined;
}

/** The audit trail of the document the path names. */
function auditProblem(request: FuzzRequest, answer: Answer, body: unknown): string | undefined {
  if (answer.status !== 200) return `GET /documents/{id}/audit answered ${answer.status}`;
  const parsed = AuditEnvelopeSchema.safeParse(body);
  if (!parsed.success) return `audit envelope off its schema (${firstIssue(parsed.error)})`;
  if (parsed.data.meta.requestId !== answer.headers.get('X-Request-Id')) return 'meta.requestId is not the X-Request-Id header';
  const asked = /^\/documents\/([^/?]*)\/audit/.exec(request.path)?.[1];
  return asked !== undefined && decodeURIComponent(asked) === parsed.data.data.documentId ? undefined : 'the audit trail of another document than the path names';
}

/** A 2xx submit must have been a well-formed payload whose checksum is right, for the document answered. */
function acceptedSubmitProblem(request: FuzzRequest, body: unknown): string | undefined {
  const result = SubmissionResultSchema.safeParse(body);
  if (!result.success) return `submission result off its schema (${firstIssue(result.error)})`;
  const sent = parseJson(new TextDecoder().decode(request.body ?? new Uint8Array()));
  const payload = sent?.value as { checksum?: unknown; documentId?: unknown } | undefined;
  if (!payload || typeof payload !== 'object') return 'accepted a body that is not a JSON object';
  let expected: string;
  try {
    expected = createHash('sha256').update(canonicalPayload(payload)).digest('hex');
  } catch {
    return 'accepted a payload that has no canonical form';
  }
  if (payload.checksum !== expected) return 'accepted a payload whose checksum is wrong';
  // Requests are strict: what is accepted has the contract's shape, without a member the contract does not list.
  const shape = endpoints.submitDocument.request.body.schema.safeParse(payload);
  if (!shape.success) return `accepted a payload off the contract's schema (${firstIssue(shape.error)})`;
  if (payload.documentId !== result.data.documentId) return 'answered for another document than the payload names';
  return undefined;
}

/** Where the contract says a webhook must never reach: loopback, private, link-local (metadata), CGNAT, unspecified. */
const INTERNAL_ADDRESSES = new BlockList();
const INTERNAL_NETWORKS = [
  ['0.0.0.0', 8, 'ipv4'], ['10.0.0.0', 8, 'ipv4'], ['100.64.0.0', 10, 'ipv4'], ['127.0.0.0', 8, 'ipv4'], ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['::', 128, 'ipv6'], ['::1', 128, 'ipv6'], ['fc00::', 7, 'ipv6'], ['fe80::', 10, 'ipv6'],
] as const;
for (const [network, prefix, family] of INTERNAL_NETWORKS) INTERNAL_ADDRESSES.addSubnet(network, prefix, family);
/**
 * IPv6 forms that carry an IPv4 address in known bits: IPv4-compatible (`::a.b.c.d`, the last 32 bits), NAT64
 * (`64:ff9b::/96`, the last 32) and 6to4 (`2002:AABB:CCDD::/48`, bits 16 to 47). Each internal IPv4 network is
 * added in each form, so an accepted URL whose address embeds one is caught.
 */
const EMBEDDINGS = [
  { prefix: '::', at: 96 },
  { prefix: '64:ff9b::', at: 96 },
  { prefix: '2002:', at: 16 },
] as const;
for (const [network, prefix, family] of INTERNAL_NETWORKS) {
  if (family !== 'ipv4') continue;
  const [a, b, c, d] = network.split('.').map(Number) as [number, number, number, number];
  const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  for (const embedding of EMBEDDINGS) {
    const address = embedding.at === 96 ? `${embedding.prefix}${hex}` : `${embedding.prefix}${hex}::`;
    INTERNAL_ADDRESSES.addSubnet(address, embedding.at + prefix, 'ipv6');
  }
}

/** Whether `url` names an internal address (IPv4-mapped IPv6 forms too) or `localhost`. */
function internalUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  return host === 'localhost' || (family !== 0 && INTERNAL_ADDRESSES.check(host, family === 4 ? 'ipv4' : 'ipv6'));
}

/** The body sent, as the server reads it (UTF-8, then JSON), when it is a JSON object. */
function sentObject(request: FuzzRequest): Record<string, unknown> | undefined {
  const sent = parseJson(new TextDecoder().decode(request.body ?? new Uint8Array()))?.value;
  return typeof sent === 'object' && sent !== null && !Array.isArray(sent) ? (sent as Record<string, unknown>) : undefined;
}

/** The id `path` names in `pattern`'s group, decoded. */
function idNamedBy(path: string, pattern: RegExp): string | undefined {
  const raw = pattern.exec(path)?.[1];
  try {
    return raw === undefined ? undefined : decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The same JSON, a lone surrogate taken as U+FFFD (what UTF-8 storage keeps of it) and a list's order aside. */
function same(stored: unknown, sent: unknown): boolean {
  const wellFormed = (_: string, value: unknown) => (typeof value === 'string' ? Buffer.from(value, 'utf8').toString('utf8') : value);
  const form = (value: unknown) => JSON.stringify(Array.isArray(value) ? [...value].sort() : value, wellFormed);
  return form(stored) === form(sent);
}

type SessionAnswer = { documentId: string; signerId?: string; origins: string[]; createdAt: string; expiresAt: string };
type WebhookAnswer = { id: string; url: string; events: string[]; description: string | null; enabled: boolean; disabledReason: string | null };

/** A session of the document the path names, for the signer, lifetime and origins asked. */
function sessionProblem(request: FuzzRequest, sent: Record<string, unknown>, session: SessionAnswer): string | undefined {
  if (session.documentId !== idNamedBy(request.path, /^\/documents\/([^/?]*)\/sessions/)) return 'a session of another document than the path names';
  if (session.signerId !== sent['signerId']) return `a session for signer ${session.signerId}, ${String(sent['signerId'])} asked`;
  if (!same(session.origins, sent['origins'] ?? [])) return 'a session with other origins than asked';
  const seconds = (Date.parse(session.expiresAt) - Date.parse(session.createdAt)) / 1000;
  const asked = sent['expiresInSeconds'] ?? SESSION_TTL_SECONDS.default;
  return seconds === asked ? undefined : `a session of ${seconds} s, ${String(asked)} asked`;
}

/** An endpoint with the members sent (a new one: enabled), on no internal address. */
function webhookProblem(request: FuzzRequest, sent: Record<string, unknown>, webhook: WebhookAnswer): string | undefined {
  if (internalUrl(webhook.url)) return `accepted a URL of an internal address: ${webhook.url}`;
  const created = request.endpoint === 'create-webhook';
  if (!created && webhook.id !== idNamedBy(request.path, /^\/webhooks\/([^/?]*)$/)) return 'changed another endpoint than the path names';
  const expected = {
    ...(created ? { description: null, enabled: true, disabledReason: null } : {}),
    ...sent,
    // Enabled or disabled by hand: what Signet said about it no longer holds.
    ...(sent['enabled'] === undefined ? {} : { disabledReason: null }),
  };
  const differs = Object.entries(expected).find(([member, value]) => !same(webhook[member as keyof WebhookAnswer], value));
  return differs ? `an endpoint whose ${differs[0]} is not as sent` : undefined;
}

/**
 * A JSON write's answer: its success status, the contract's answer check of it (`allEndpointChecks`), its request id,
 * and what it says of the request: the document or endpoint the path names, the members sent.
 */
function jsonWriteProblem(request: FuzzRequest & { endpoint: JsonWrite }, answer: Answer, body: unknown): string | undefined {
  const name = JSON_WRITES[request.endpoint];
  const route: ContractEndpoint = endpoints[name];
  if (!route.responses[answer.status]) return `${request.method} ${route.path} answered ${answer.status}`;
  const checked = allEndpointChecks()[name].answer!(body);
  if (!checked.success) return `${name} answer off the contract (${checked.issues[0]!.path || '(root)'}: ${checked.issues[0]!.message})`;
  const sent = sentObject(request);
  if (!sent) return 'accepted a body that is not a JSON object';
  const shape = route.request.body?.schema.safeParse(sent);
  if (shape && !shape.success) return `accepted a body off the contract's schema (${firstIssue(shape.error)})`;
  if (request.endpoint === 'decline') {
    const result = body as { documentId: string; reason: string };
    if (result.documentId !== idNamedBy(request.path, /^\/sdk\/documents\/([^/?]*)\/decline/)) return 'declined another document than the path names';
    return DeclineRequestSchema.safeParse({ reason: result.reason }).success ? undefined : 'a decline whose reason the contract refuses';
  }
  const { data, meta } = body as { data: unknown; meta: { requestId: string } };
  if (meta.requestId !== answer.headers.get('X-Request-Id')) return 'meta.requestId is not the X-Request-Id header';
  if (request.endpoint === 'create-session') return sessionProblem(request, sent, data as SessionAnswer);
  return webhookProblem(request, sent, data as WebhookAnswer);
}

function successProblem(request: FuzzRequest, answer: Answer, body: unknown): string | undefined {
  if (isJsonWrite(request.endpoint)) return jsonWriteProblem(request as FuzzRequest & { endpoint: JsonWrite }, answer, body);
  switch (request.endpoint) {
    case 'submit':
      if (answer.status !== 200 && answer.status !== 201) return `submit answered ${answer.status}`;
      return acceptedSubmitProblem(request, body);
    case 'validate-key': {
      if (answer.status !== 200) return `validate-key answered ${answer.status}`;
      const result = KeyValidationResultSchema.safeParse(body);
      if (!result.success) return `key validation result off its schema (${firstIssue(result.error)})`;
      return result.data.valid === true && result.data.organizationId ? undefined : '200 for a key it does not call valid';
    }
    case 'create-document': {
      if (answer.status !== 201) return `POST /documents answered ${answer.status}`;
      const result = CreatedDocumentSchema.safeParse(body);
      if (!result.success) return `document envelope off its schema (${firstIssue(result.error)})`;
      return result.data.meta.requestId === answer.headers.get('X-Request-Id') ? undefined : 'meta.requestId is not the X-Request-Id header';
    }
    case 'verify':
      return verdictProblem(request, answer, body);
    case 'signed-document':
    case 'signed-copy':
      // The PDF routes' successes are judged as files; a JSON success can only be the audit trail's.
      return auditProblem(request, answer, body);
  }
}

/**
 * What is wrong with `answer` to `request`, or undefined when it keeps the contract: no 5xx; an `X-Request-Id`;
 * a refusal of a signed-copy token the server must refuse (a revoked key's, a key id swapped or removed);
 * a JSON body, except a sealed PDF's success (`fileProblem`); every refusal the error envelope (code matching the
 * status, nothing internal shown, the headers the contract names), except validate-key's 401
 * `{ valid: false, error }`; every success its endpoint's schema.
 * @example const problem = answerProblem(request, { status, headers, text })
 */
export function answerProblem(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `${answer.status} answer`;
  if (!answer.headers.get('X-Request-Id')) return `${answer.status} without X-Request-Id`;
  // A token the server must refuse (a revoked key's, another key's id in it…): never an answer below 400.
  const refused = request.endpoint === 'signed-copy' ? request.recipe.find((step) => REFUSED_TOKENS.includes(step)) : undefined;
  if (refused && answer.status < 400) return `${answer.status} for ${refused}`;
  const route = routeOf(request);
  const success = route.responses[answer.status];
  if (success && success.content?.mediaType !== 'application/json' && route.responses[200]?.content?.mediaType === 'application/pdf') {
    return fileProblem(request, answer, route);
  }
  if (!answer.headers.get('Content-Type')?.startsWith('application/json')) return `${answer.status} not application/json`;
  // A HEAD's answer has no body to judge (its GET's is judged).
  if (request.method === 'HEAD') return answer.text === '' ? undefined : `HEAD answered with a body of ${answer.text.length} characters`;
  const parsed = parseJson(answer.text);
  if (!parsed) return `${answer.status} whose body is not JSON`;
  if (answer.status >= 200 && answer.status < 300) return successProblem(request, answer, parsed.value);
  if (request.endpoint === 'validate-key' && answer.status === 401) {
    const refusal = KeyRefusalSchema.safeParse(parsed.value);
    return refusal.success ? undefined : `validate-key 401 is not { valid: false, error } (${firstIssue(refusal.error)})`;
  }
  return errorProblem(request, answer, parsed.value);
}
