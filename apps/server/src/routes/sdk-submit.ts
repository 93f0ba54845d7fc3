import { createRoute, z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import { hash } from 'node:crypto';
import { SubmissionPayloadSchema, SubmissionResultSchema, canonicalPayload } from '@signet/contract';
import { tooLarge, validationError } from '../errors.js';
import { apiKey } from '../middleware/api-key/index.js';
import { clientIp } from '../middleware/api-key/client-ip.js';
import { parseOrThrow } from '../http/validation.js';
import { readJsonBody } from '../http/json-body.js';
import { submitDocument, type SubmitRequest } from '../submissions/submit.js';
import { submitWithIdempotencyKey } from '../submissions/idempotency.js';
import type { AppContext } from '../http/env.js';
import { API_KEY_SECURITY, errorResponses, type SignetApp } from './openapi.js';
import { findOwnDocument } from './sdk-documents.js';
import { requestHeader } from '../http/request-header.js';

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
    ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429),
  },
});

/** `POST /sdk/documents/submit`. */
export function registerSubmitRoute(app: SignetApp, deps: AppContext): void {
  const max = deps.config.maxBodyBytes;
  const streamingLimit = bodyLimit({ maxSize: max, onError: () => { throw tooLarge('body', max); } });
  // A declared length is checked from the header, so the body is then read straight from Node's request; only a
  // chunked body goes through Hono's streaming limit (which needs a Web Request built around it).
  const limit: MiddlewareHandler = async (c, next) => {
    const declared = requestHeader(c, 'content-length');
    if (declared === undefined || requestHeader(c, 'transfer-encoding') !== undefined) return streamingLimit(c, next);
    if (Number(declared) > max) throw tooLarge('body', max);
    await next();
  };

  // A plain route reading its body itself: the checksum covers the body as sent, and the size limit must hold before
  // it is parsed (strictly: readJsonBody refuses deep nesting and duplicate members before anything recursive runs).
  // The OpenAPI description is the route definition above.
  app.openAPIRegistry.registerPath(submitRoute);
  app.post('/sdk/documents/submit', limit, apiKey(deps, { scopes: ['documents:submit'] }), async (c) => {
    const { text: rawText, value: raw } = await readJsonBody(c);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw validationError('body', 'must be a JSON object');
    const payload = parseOrThrow(SubmissionPayloadSchema, raw);
    const idempotencyKey = requestHeader(c, 'idempotency-key');
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
      throw validationError('Idempotency-Key', 'must be 1 to 255 characters');
    }
    const key = c.get('apiKey');
    const request: SubmitRequest = {
      key,
      document: await findOwnDocument(deps, key.organizationId, payload.documentId),
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
    const response = await submitWithIdempotencyKey(deps, request, idempotencyKey);
    if (response.replayed) c.header('Idempotent-Replayed', 'true');
    return c.json(response.result, response.status);
  });
}
