import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  ERROR_STATUS,
  ErrorEnvelopeSchema,
  KeyValidationResultSchema,
  ManagedDocumentSchema,
  SubmissionResultSchema,
  canonicalPayload,
  successEnvelope,
  type ErrorCode,
} from '@signet/contract';
import type { FuzzRequest } from './fuzz-requests.js';

/** A response as the fuzz reads it. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Statuses an error code travels with besides its own (contract `ERROR_STATUS`, SPEC §7). */
const OTHER_STATUSES: Partial<Record<ErrorCode, readonly number[]>> = {
  VALIDATION_ERROR: [413, 415, 416, 422, 431],
  NOT_FOUND: [405],
};

/** validate-key's own refusal (contract §2.3): exactly `{ valid: false, error }`, no envelope. */
const KeyRefusalSchema = z.object({ valid: z.literal(false), error: z.string().min(1) }).strict();
const CreatedDocumentSchema = successEnvelope(ManagedDocumentSchema);

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

function errorProblem(answer: Answer, body: unknown): string | undefined {
  const parsed = ErrorEnvelopeSchema.safeParse(body);
  if (!parsed.success) return `${answer.status} without the error envelope (${firstIssue(parsed.error)})`;
  const { error, meta } = parsed.data;
  if (meta.requestId !== answer.headers.get('X-Request-Id')) return `${answer.status}: meta.requestId is not the X-Request-Id header`;
  const statuses = [ERROR_STATUS[error.code], ...(OTHER_STATUSES[error.code] ?? [])];
  if (!statuses.includes(answer.status)) return `${answer.status} with code ${error.code}`;
  if (answer.status === 429 && !answer.headers.get('Retry-After')) return '429 without Retry-After';
  if (LEAK.test(error.message) || LEAK.test(JSON.stringify(error.details ?? {}))) return `${answer.status}: the error shows internals`;
  return undefined;
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
  }
}

/**
 * What is wrong with `answer` to `request`, or undefined when it keeps the contract: no 5xx; an `X-Request-Id`;
 * a JSON body; every refusal the error envelope (code matching the status, nothing internal shown), except
 * validate-key's 401 `{ valid: false, error }`; every success its endpoint's schema.
 * @example const problem = answerProblem(request, { status, headers, text })
 */
export function answerProblem(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `${answer.status} answer`;
  if (!answer.headers.get('X-Request-Id')) return `${answer.status} without X-Request-Id`;
  if (!answer.headers.get('Content-Type')?.startsWith('application/json')) return `${answer.status} not application/json`;
  const parsed = parseJson(answer.text);
  if (!parsed) return `${answer.status} whose body is not JSON`;
  if (answer.status >= 200 && answer.status < 300) return successProblem(request, answer, parsed.value);
  if (request.endpoint === 'validate-key' && answer.status === 401) {
    const refusal = KeyRefusalSchema.safeParse(parsed.value);
    return refusal.success ? undefined : `validate-key 401 is not { valid: false, error } (${firstIssue(refusal.error)})`;
  }
  return errorProblem(answer, parsed.value);
}
