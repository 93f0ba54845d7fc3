import { createRoute, z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import { hash } from 'node:crypto';
import { SubmissionPayloadSchema, SubmissionResultSchema, canonicalPayload } from '@signet/contract';
import { ApiError, validationError } from '../errors.js';
import { apiKey } from '../middleware/api-key/index.js';
import { clientIp } from '../middleware/api-key/client-ip.js';
import { parseOrThrow } from '../http/validation.js';
import { submitDocument, type SubmitResponse } from '../submissions/submit.js';
import type { AppContext } from '../http/env.js';
import type { IdempotencyScope } from '../storage/types.js';
import { API_KEY_SECURITY, errorResponses, type SignetApp } from './openapi.js';
import { findOwnDocument } from './sdk-documents.js';
import { requestHeader } from '../http/request-header.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A claim still unfinished after this long belongs to a request that died; a retry may take it over. */
const STALE_CLAIM_MS = 60_000;

const submitRoute = createRoute({
  method: 'post',
  path: '/sdk/documents/submit',
  tags: ['SDK'],
  summary: 'Submit a completed document',
  description:
    'Scope `documents:submit`. Send `Idempotency-Key` so a retry can never create a second submission. A payload equal to the accepted one replays its result (200). No envelope on success.',
  security: API_KEY_SECURITY,
  request: {
    headers: z.object({
      'idempotency-key': z.string().optional().meta({ description: 'Up to 255 characters; same key + same body within 24 h replays the first response' }),
    }),
    body: { required: true, content: { 'application/json': { schema: SubmissionPayloadSchema } } },
  },
  responses: {
    201: { description: 'Submission accepted', content: { 'application/json': { schema: SubmissionResultSchema } } },
    200: { description: 'The same payload again: the original result', content: { 'application/json': { schema: SubmissionResultSchema } } },
    ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429),
  },
});

/** `POST /sdk/documents/submit`. */
export function registerSubmitRoute(app: SignetApp, deps: AppContext): void {
  const tooLarge = () => {
    throw new ApiError('VALIDATION_ERROR', 'Request body too large', {
      status: 413,
      details: { field: 'body', reason: `the body may not exceed ${deps.config.maxBodyBytes} bytes` },
    });
  };
  const streamingLimit = bodyLimit({ maxSize: deps.config.maxBodyBytes, onError: tooLarge });
  // A declared length is checked from the header, so the body is then read straight from Node's request; only a
  // chunked body goes through Hono's streaming limit (which needs a Web Request built around it).
  const limit: MiddlewareHandler = async (c, next) => {
    const declared = requestHeader(c, 'content-length');
    if (declared === undefined || requestHeader(c, 'transfer-encoding') !== undefined) return streamingLimit(c, next);
    if (Number(declared) > deps.config.maxBodyBytes) tooLarge();
    await next();
  };
  // The body is read and validated here rather than by the route's validator: the checksum is computed over the
  // body as sent, and the size limit must hold before it is parsed.
  const { request: _documented, ...route } = submitRoute;
  app.openAPIRegistry.registerPath(submitRoute);
  app.openapi({ ...route, hide: true, middleware: [limit, apiKey(deps, { scopes: ['documents:submit'] })] as const }, async (c) => {
    const rawText = await c.req.text();
    let raw: unknown;
    try {
      raw = JSON.parse(rawText);
    } catch {
      throw validationError('body', 'the body is not valid JSON');
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw validationError('body', 'must be a JSON object');
    const payload = parseOrThrow(SubmissionPayloadSchema, raw);
    const idempotencyKey = requestHeader(c, 'idempotency-key');
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
      throw validationError('Idempotency-Key', 'must be 1 to 255 characters');
    }
    const key = c.get('apiKey');
    const document = await findOwnDocument(deps, key.organizationId, payload.documentId);
    const request = {
      key,
      document,
      rawText,
      checksum: hash('sha256', canonicalPayload(raw), 'hex'),
      payload,
      clientIp: clientIp(c, deps.config.trustProxy),
      userAgent: requestHeader(c, 'user-agent') ?? null,
      receivedAt: new Date(c.get('receivedAt')),
    };
    if (idempotencyKey === undefined) {
      const response = await submitDocument(deps, request);
      return c.json(response.result, response.status);
    }

    const scope: IdempotencyScope = { organizationId: key.organizationId, key: idempotencyKey };
    const fingerprint = `${request.checksum}:${payload.checksum}`;
    const claim = await deps.storage.claimIdempotencyKey(scope, fingerprint, {
      now: request.receivedAt,
      expiresAfterMs: DAY_MS,
      staleAfterMs: STALE_CLAIM_MS,
    });
    if (claim.state === 'in_flight') {
      throw new ApiError('SUBMISSION_FAILED', 'A request with this Idempotency-Key is still being processed', {
        details: { reason: 'the first request with this Idempotency-Key has not finished; retry later' },
      });
    }
    if (claim.state === 'mismatch') {
      throw new ApiError('VALIDATION_ERROR', 'This Idempotency-Key was used with a different body', {
        status: 422,
        details: { field: 'Idempotency-Key', reason: 'an Idempotency-Key may only be reused with the same body' },
      });
    }
    if (claim.state === 'completed') {
      c.header('Idempotent-Replayed', 'true');
      return c.json(JSON.parse(claim.body) as SubmitResponse['result'], claim.status as 200 | 201);
    }
    let response: SubmitResponse;
    try {
      response = await submitDocument(deps, { ...request, idempotency: scope });
    } catch (error) {
      // Only successes are kept for replay: a failed request may be corrected and retried under the same key.
      await deps.storage.releaseIdempotencyKey(scope);
      throw error;
    }
    if (response.status === 200) await deps.storage.completeIdempotencyKey(scope, 200, JSON.stringify(response.result));
    return c.json(response.result, response.status);
  });
}
