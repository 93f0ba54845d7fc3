import type { Context } from 'hono';
import { PAGE_LIMIT, endpointPath, endpoints } from '@signet/contract';
import { ApiError, validationError } from '../errors.js';
import { assertEmailCodesSendable } from '../signer-auth/mail-required.js';
import type { AppContext } from '../app-context.js';
import type { AppEnv } from '../http/env.js';
import { sendEnvelope } from '../http/envelope.js';
import { requireIfMatch, versionTag } from '../http/if-match.js';
import { readJsonObject, smallJsonBodyLimit } from '../http/json-body.js';
import { jsonPart, pdfUploadLimit, readMultipartForm, textPart } from '../http/multipart.js';
import { parseOrThrow } from '../http/validation.js';
import { assertSessionDocument } from '../middleware/api-key/index.js';
import { decodeCursor } from '../documents/cursor.js';
import { sendPage } from './page.js';
import { FILE_VERSION, signDocumentToken } from '../documents/token.js';
import { managedDocument } from '../documents/present.js';
import { revokeSessionKey } from '../storage/queries/api-keys.js';
import { findTemplate, listTemplates } from '../storage/queries/templates.js';
import type { TemplateRecord } from '../storage/types.js';
import { createTemplate, deleteTemplate, templateNotFound, updateTemplate } from '../templates/templates.js';
import { createDocumentFromTemplate } from '../templates/template-documents.js';
import { createTemplateBuilderSession, presentTemplateBuilderSession } from '../templates/template-sessions.js';
import { presentTemplate, templateSummary } from '../templates/present.js';
import { requestOrigin, tokenExpiry } from './sdk-documents.js';
import { handler, type EndpointHandlers } from './serve.js';

/** The parts `POST /templates` takes, as the contract lists them. */
const UPLOAD_PARTS = endpoints.createTemplate.request.body.schema.shape;

type TemplateEndpoint =
  | 'createTemplate'
  | 'listTemplates'
  | 'getTemplate'
  | 'updateTemplate'
  | 'deleteTemplate'
  | 'createTemplateDocument'
  | 'createTemplateBuilderSession'
  | 'revokeTemplateBuilderSession';

/** The templates' endpoints (docs/templates.md); the template's file is `templateFileHandler`'s. */
export function templateHandlers(deps: AppContext): Pick<EndpointHandlers, TemplateEndpoint> {
  const now = () => (deps.now ? deps.now() : new Date());

  /** The template of the path, in the key's organization; a builder session key reaches only its own (403). */
  async function ownTemplate(c: Context<AppEnv>, templateId: string): Promise<TemplateRecord> {
    const key = c.get('apiKey');
    assertSessionDocument(key, templateId);
    const template = await findTemplate(deps.storage.db.query, key.organizationId, templateId);
    if (!template) throw templateNotFound(templateId);
    return template;
  }

  const answerTemplate = (c: Context<AppEnv>, template: TemplateRecord, status: 200 | 201) => {
    c.header('ETag', versionTag(template.version));
    return sendEnvelope(c, presentTemplate(template, templateUrlFor(deps, c, template, c.get('apiKey').id)), status);
  };

  return {
    createTemplate: handler(endpoints.createTemplate, {
      after: [pdfUploadLimit(deps.config.maxPdfBytes)],
      readsItself: ['body'],
      async handle(c) {
        const form = await readMultipartForm(c, '"file"');
        const stray = Object.keys(form).find((name) => !Object.hasOwn(UPLOAD_PARTS, name));
        if (stray !== undefined) {
          throw validationError(stray, `received unknown part ${JSON.stringify(stray)}; the parts are ${Object.keys(UPLOAD_PARTS).join(', ')}`);
        }
        const file = form['file'];
        if (!(file instanceof File)) throw validationError('file', 'a PDF file is required');
        const template = await createTemplate(deps.storage, {
          organizationId: c.get('apiKey').organizationId,
          bytes: new Uint8Array(await file.arrayBuffer()),
          name: textPart(form, 'name'),
          filename: textPart(form, 'filename') ?? file.name,
          fields: await jsonPart(form, 'fields'),
          roles: await jsonPart(form, 'roles'),
          signingOrder: textPart(form, 'signingOrder'),
          expiresInDays: textPart(form, 'expiresInDays'),
          tags: textPart(form, 'tags'),
          formFields: textPart(form, 'formFields'),
          maxPdfBytes: deps.config.maxPdfBytes,
          logger: deps.logger,
          pdfPool: deps.pdfPool,
          now: now(),
        });
        return answerTemplate(c, template, 201);
      },
    }),

    listTemplates: handler(endpoints.listTemplates, {
      async handle(c, { query }) {
        const limit = query.limit ?? PAGE_LIMIT.default;
        const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
        const rows = await listTemplates(deps.storage.db.query, c.get('apiKey').organizationId, { limit: limit + 1, after });
        return sendPage(c, rows, limit, templateSummary);
      },
    }),

    getTemplate: handler(endpoints.getTemplate, {
      async handle(c, { params }) {
        return answerTemplate(c, await ownTemplate(c, params.templateId), 200);
      },
    }),

    updateTemplate: handler(endpoints.updateTemplate, {
      before: [smallJsonBodyLimit(deps.config.maxBodyBytes)],
      readsItself: ['body', 'headers'],
      async handle(c, { params }) {
        const body = parseOrThrow(endpoints.updateTemplate.request.body.schema, await readJsonObject(c));
        const template = await ownTemplate(c, params.templateId);
        const expected = requireIfMatch(c);
        const saved = await updateTemplate(deps.storage, template.organizationId, template.id, body, expected, now().toISOString());
        return answerTemplate(c, saved, 200);
      },
    }),

    deleteTemplate: handler(endpoints.deleteTemplate, {
      async handle(c, { params }) {
        const revoked = await deleteTemplate(deps.storage, c.get('apiKey').organizationId, params.templateId, now().toISOString());
        for (const id of revoked) deps.reads.forgetApiKey(id);
        return sendEnvelope(c, { id: params.templateId, deleted: true as const }, 200);
      },
    }),

    createTemplateDocument: handler(endpoints.createTemplateDocument, {
      before: [smallJsonBodyLimit(deps.config.maxBodyBytes)],
      readsItself: ['body'],
      async handle(c, { params }) {
        const body = parseOrThrow(endpoints.createTemplateDocument.request.body.schema, await readJsonObject(c));
        const delivery = { mailConfigured: deps.config.mail !== undefined, linkBaseUrl: requestOrigin(c.req.url) };
        assertEmailCodesSendable(body.signers, delivery.mailConfigured);
        const document = await createDocumentFromTemplate(deps.storage, c.get('apiKey').organizationId, params.templateId, body, now(), delivery);
        c.header('ETag', versionTag(document.version));
        return sendEnvelope(c, managedDocument(document, { status: 'pending' }, []), 201);
      },
    }),

    createTemplateBuilderSession: handler(endpoints.createTemplateBuilderSession, {
      before: [smallJsonBodyLimit(16 * 1024)],
      readsItself: ['body'],
      async handle(c, { params }) {
        const body = parseOrThrow(endpoints.createTemplateBuilderSession.request.body.schema, await readJsonObject(c));
        const template = await ownTemplate(c, params.templateId);
        return sendEnvelope(c, await createTemplateBuilderSession(deps.storage, template, { ...body, now: now() }), 201);
      },
    }),

    revokeTemplateBuilderSession: handler(endpoints.revokeTemplateBuilderSession, {
      async handle(c, { params }) {
        const template = await ownTemplate(c, params.templateId);
        const revoked = await revokeSessionKey(deps.storage.db.query, template.id, params.keyId, now().toISOString(), { builder: true });
        if (!revoked) {
          throw new ApiError('NOT_FOUND', `Template ${template.id} has no builder session key ${params.keyId}`, { details: { field: 'keyId' } });
        }
        deps.reads.forgetApiKey(revoked.id);
        return sendEnvelope(c, presentTemplateBuilderSession(revoked), 200);
      },
    }),
  };
}

/**
 * The `documentUrl` of a template's PDF for the key `keyId`: a document token over the template's id (ids of
 * templates and documents never collide: their prefixes differ), checked by `templateByToken`.
 */
export function templateUrlFor(deps: AppContext, c: Context<AppEnv>, template: TemplateRecord, keyId: string): string {
  const base = deps.config.publicBaseUrl ?? requestOrigin(c.req.url);
  const token = signDocumentToken(deps.secret, { documentId: template.id, version: FILE_VERSION, expires: tokenExpiry(deps), keyId });
  return `${base}${endpointPath(endpoints.getTemplateFile, { templateId: template.id })}?token=${token}`;
}
