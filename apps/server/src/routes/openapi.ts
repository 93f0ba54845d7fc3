import { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorEnvelopeSchema } from '@signet/contract';
import type { AppEnv } from '../http/env.js';
import { zodValidationError } from '../http/validation.js';

/** The Hono app with OpenAPI routes; a request that breaks a route's schema becomes a 400 `VALIDATION_ERROR`. */
export function createOpenApiApp() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw zodValidationError(result.error, result.target);
    },
  });
}
export type SignetApp = ReturnType<typeof createOpenApiApp>;

const errorContent = { 'application/json': { schema: ErrorEnvelopeSchema } };

/**
 * Error responses for a route's OpenAPI description.
 * @example responses: { 200: …, ...errorResponses(401, 403, 404) }
 */
export function errorResponses(...statuses: number[]) {
  const descriptions: Record<number, string> = {
    400: 'Invalid request (`VALIDATION_ERROR`, `details.field` and `details.reason`)',
    401: 'Missing, malformed, unknown or revoked key (`INVALID_API_KEY`) or expired key (`EXPIRED_API_KEY`)',
    403: 'The key lacks a scope, is a pk key on a management route, or is used from a disallowed origin (`INSUFFICIENT_PERMISSIONS`)',
    404: 'No such document in the key\'s organization (`DOCUMENT_NOT_FOUND`)',
    409: 'The document is already completed, or the same Idempotency-Key is in flight (`SUBMISSION_FAILED`)',
    413: 'Body or file over the size limit (`VALIDATION_ERROR`)',
    415: 'The body is not sent as `Content-Type: application/json` (`VALIDATION_ERROR`, `details.field: "Content-Type"`)',
    416: 'Range not satisfiable (`VALIDATION_ERROR`)',
    422: 'The payload breaks a document rule, or the PDF cannot be processed within the server\'s limits (`VALIDATION_ERROR`, `details.missingFields` or `details.field`)',
    429: 'Rate limit exceeded (`RATE_LIMIT_EXCEEDED`), see `Retry-After`',
    503: 'The server is busy (a bounded queue is full) or shutting down (`SERVICE_UNAVAILABLE`), see `Retry-After`',
  };
  return Object.fromEntries(
    statuses.map((status) => [status, { description: descriptions[status] ?? 'Error', content: errorContent }]),
  );
}

export const API_KEY_SECURITY = [{ ApiKey: [] }];
