import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import { hash } from 'node:crypto';
import { canonicalPayload, endpoints } from '@signet/contract';
import { tooLarge, validationError } from '../errors.js';
import { clientIp } from '../middleware/api-key/client-ip.js';
import { assertSessionDocument } from '../middleware/api-key/index.js';
import { parseOrThrow } from '../http/validation.js';
import { readJsonBody } from '../http/json-body.js';
import { submitDocument, type SubmitRequest } from '../submissions/submit.js';
import { submitWithIdempotencyKey } from '../submissions/idempotency.js';
import type { AppContext } from '../app-context.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument } from './sdk-documents.js';
import { assertVerified } from '../signer-auth/gate.js';
import { requestHeader } from '../http/request-header.js';

const { request } = endpoints.submitDocument;

/** `POST /sdk/documents/submit`. */
export function submitHandler(deps: AppContext): Pick<EndpointHandlers, 'submitDocument'> {
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

  // The handler reads its body itself: the checksum covers the body as sent, and the size limit must hold before it
  // is parsed (strictly: readJsonBody refuses deep nesting and duplicate members before anything recursive runs).
  const submitDocumentHandler = handler(endpoints.submitDocument, {
    before: [limit],
    readsItself: ['headers', 'body'],
    async handle(c) {
      const { text: rawText, value: raw } = await readJsonBody(c);
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw validationError('body', 'must be a JSON object');
      const payload = parseOrThrow(request.body.schema, raw);
      const idempotencyKey = requestHeader(c, 'idempotency-key');
      if (idempotencyKey !== undefined && !request.headers.shape['idempotency-key'].safeParse(idempotencyKey).success) {
        throw validationError('Idempotency-Key', 'must be 1 to 255 characters');
      }
      const key = c.get('apiKey');
      assertSessionDocument(key, payload.documentId);
      const document = await findOwnDocument(deps, key.organizationId, payload.documentId);
      await assertVerified(deps, key, document);
      const submit: SubmitRequest = {
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
        const response = await submitDocument(deps, submit);
        return c.json(response.result, response.status);
      }
      const response = await submitWithIdempotencyKey(deps, submit, idempotencyKey);
      if (response.replayed) c.header('Idempotent-Replayed', 'true');
      return c.json(response.result, response.status);
    },
  });
  return { submitDocument: submitDocumentHandler };
}
