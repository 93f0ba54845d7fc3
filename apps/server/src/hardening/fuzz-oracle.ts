import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  AuditTrailSchema,
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
import type { FuzzRequest } from './fuzz-requests.js';

/** A response as the fuzz reads it. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body as bytes, which a PDF needs (`text` is their UTF-8 reading); the encoded `text` when absent. */
  bytes?: Uint8Array;
}

/** Statuses an error code travels with besides its own (contract `ERROR_STATUS`, SPEC §7). */
const OTHER_STATUSES: Partial<Record<ErrorCode, readonly number[]>> = {
  VALIDATION_ERROR: [413, 415, 416, 422, 431],
  NOT_FOUND: [405],
};

/** validate-key's own refusal (contract §2.3): exactly `{ valid: false, error }`, no envelope. */
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

/** The contract's entry for the route `request` went to. */
function routeOf(request: FuzzRequest): ContractEndpoint {
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
  // The headers a refusal travels with (409 DOCUMENT_NOT_SEALED's Retry-After, 416's Content-Range…).
  const declared = routeOf(request).errors[answer.status];
  return declared?.codes.includes(error.code) ? headersProblem(declared.headers, answer.headers, answer.status) : undefined;
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
  if (payload.documentId !== result.data.documentId) return 'answered for another document than the payload names';
  return undefined;
}

function successProblem(request: FuzzRequest, answer: Answer, body: unknown): string | undefined {
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
 * a JSON body, except a sealed PDF's success (`fileProblem`); every refusal the error envelope (code matching the
 * status, nothing internal shown, the headers the contract names), except validate-key's 401
 * `{ valid: false, error }`; every success its endpoint's schema.
 * @example const problem = answerProblem(request, { status, headers, text })
 */
export function answerProblem(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `${answer.status} answer`;
  if (!answer.headers.get('X-Request-Id')) return `${answer.status} without X-Request-Id`;
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
