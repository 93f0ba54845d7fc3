import { createRoute, z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import {
  DocumentMetadataSchema,
  ManagedDocumentSchema,
  PAGE_LIMIT,
  SubmissionRecordSchema,
  paginatedList,
  successEnvelope,
} from '@signet/contract';
import { ApiError, tooLarge, validationError } from '../errors.js';
import { apiKey } from '../middleware/api-key/index.js';
import { sendEnvelope, responseMeta } from '../http/envelope.js';
import { createDocument } from '../documents/create-document.js';
import { documentMetadata, managedDocument, submissionRecord } from '../documents/present.js';
import { decodeCursor, encodeCursor } from '../documents/cursor.js';
import type { AppContext } from '../http/env.js';
import { API_KEY_SECURITY, errorResponses, type SignetApp } from './openapi.js';
import { DocumentIdParams, findOwnDocument } from './sdk-documents.js';

const ListQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(PAGE_LIMIT.min)
    .max(PAGE_LIMIT.max)
    .optional()
    .meta({ description: `Page size, ${PAGE_LIMIT.min}..${PAGE_LIMIT.max}, default ${PAGE_LIMIT.default}` }),
  cursor: z.string().optional().meta({ description: '`pagination.cursor` of the previous page' }),
});

const UploadBody = z.object({
  file: z.string().meta({ format: 'binary', description: 'The PDF' }),
  fields: z.string().meta({ description: 'JSON array of field definitions' }),
  filename: z.string().optional(),
});

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

const routes = {
  create: createRoute({
    method: 'post',
    path: '/documents',
    tags: ['Documents'],
    summary: 'Create a document',
    description: 'Multipart upload of a PDF and its field definitions. `sk_` key with scope `documents:write`.',
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: { 'multipart/form-data': { schema: UploadBody } } } },
    responses: {
      201: { description: 'The document', content: json(successEnvelope(ManagedDocumentSchema)) },
      ...errorResponses(400, 401, 403, 413, 422, 429, 503),
    },
  }),
  list: createRoute({
    method: 'get',
    path: '/documents',
    tags: ['Documents'],
    summary: 'List documents',
    description: 'Newest first, cursor pagination. `sk_` key with scope `documents:read`.',
    security: API_KEY_SECURITY,
    request: { query: ListQuery },
    responses: {
      200: { description: 'A page of documents', content: json(paginatedList(DocumentMetadataSchema)) },
      ...errorResponses(400, 401, 403, 429),
    },
  }),
  get: createRoute({
    method: 'get',
    path: '/documents/{documentId}',
    tags: ['Documents'],
    summary: 'Get a document',
    security: API_KEY_SECURITY,
    request: { params: DocumentIdParams },
    responses: {
      200: { description: 'The document', content: json(successEnvelope(ManagedDocumentSchema)) },
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
  submission: createRoute({
    method: 'get',
    path: '/documents/{documentId}/submission',
    tags: ['Documents'],
    summary: "Get a document's submission",
    description: 'The accepted submission with its values, render context, page info, checksum and audit data. 404 `NOT_FOUND` while the document is pending.',
    security: API_KEY_SECURITY,
    request: { params: DocumentIdParams },
    responses: {
      200: { description: 'The submission', content: json(successEnvelope(SubmissionRecordSchema)) },
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
};

/** The management endpoints (SPEC §5), for `sk_` keys. */
export function registerDocumentRoutes(app: SignetApp, deps: AppContext): void {
  const read = apiKey(deps, { scopes: ['documents:read'], secretOnly: true });
  const write = apiKey(deps, { scopes: ['documents:write'], secretOnly: true });
  // The form (with its multipart overhead) may exceed the PDF limit by a little; the PDF itself is checked exactly.
  const uploadLimit = bodyLimit({
    maxSize: deps.config.maxPdfBytes + 1024 * 1024,
    onError: () => {
      throw tooLarge('file', deps.config.maxPdfBytes);
    },
  });

  // A plain route reading its multipart body itself; the OpenAPI description is the route definition above.
  app.openAPIRegistry.registerPath(routes.create);
  app.post('/documents', write, uploadLimit, async (c) => {
    if (!c.req.header('Content-Type')?.startsWith('multipart/form-data')) {
      throw validationError('body', 'must be multipart/form-data with "file" and "fields"');
    }
    const form = await c.req.parseBody().catch(() => {
      throw validationError('body', 'is not a readable multipart/form-data body');
    });
    const file = form['file'];
    if (!(file instanceof File)) throw validationError('file', 'a PDF file is required');
    const fields = form['fields'];
    if (typeof fields !== 'string') throw validationError('fields', 'a JSON array of field definitions is required');
    const filename = typeof form['filename'] === 'string' ? form['filename'] : file.name;
    const document = await createDocument(deps.storage, {
      organizationId: c.get('apiKey').organizationId,
      filename,
      bytes: new Uint8Array(await file.arrayBuffer()),
      fields,
      maxPdfBytes: deps.config.maxPdfBytes,
      logger: deps.logger,
      pdfPool: deps.pdfPool,
    });
    return sendEnvelope(c, managedDocument(document), 201);
  });

  app.openapi({ ...routes.list, middleware: [read] as const }, async (c) => {
    const query = c.req.valid('query');
    const limit = query.limit ?? PAGE_LIMIT.default;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = await deps.storage.listDocuments(c.get('apiKey').organizationId, { limit: limit + 1, after });
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json(
      {
        success: true as const,
        data: page.map(documentMetadata),
        pagination: { cursor: hasMore && last ? encodeCursor(last) : null, hasMore, limit },
        meta: responseMeta(c),
      },
      200,
    );
  });

  app.openapi({ ...routes.get, middleware: [read] as const }, async (c) => {
    const document = await findOwnDocument(deps, c.get('apiKey').organizationId, c.req.valid('param').documentId);
    return sendEnvelope(c, managedDocument(document), 200);
  });

  app.openapi({ ...routes.submission, middleware: [read] as const }, async (c) => {
    const document = await findOwnDocument(deps, c.get('apiKey').organizationId, c.req.valid('param').documentId);
    const submission = await deps.storage.getSubmissionForDocument(document.id);
    if (!submission) {
      throw new ApiError('NOT_FOUND', `Document ${document.id} has no submission yet`, {
        details: { reason: 'the document is still pending' },
      });
    }
    return sendEnvelope(c, submissionRecord(submission), 200);
  });
}
