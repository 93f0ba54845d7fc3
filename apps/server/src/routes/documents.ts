import { PAGE_LIMIT, endpoints } from '@signet/contract';
import { ApiError, validationError } from '../errors.js';
import { sendEnvelope } from '../http/envelope.js';
import { createDocument } from '../documents/create-document.js';
import { importsAsked } from '../documents/prepare-upload.js';
import { documentMetadata, managedDocument, sealingOf, submissionRecord } from '../documents/present.js';
import { decodeCursor } from '../documents/cursor.js';
import { sendPage } from './page.js';
import { signerStatesOf } from '../documents/signers.js';
import type { AppContext } from '../app-context.js';
import { jsonPart, pdfUploadLimit, readMultipartForm, textPart } from '../http/multipart.js';
import { handler, type EndpointHandlers } from './serve.js';
import { findOwnDocument, requestOrigin } from './sdk-documents.js';
import { parseDelivery } from '../documents/delivery-options.js';
import { versionTag } from '../http/if-match.js';
import { listDocuments } from '../storage/queries/documents.js';
import { findSubmissionForDocument, listSubmissions } from '../storage/queries/submissions.js';
import { findSealState } from '../storage/queries/seals.js';

/** The parts `POST /documents` takes, as the contract lists them. */
const UPLOAD_PARTS = endpoints.createDocument.request.body.schema.shape;

/** The management endpoints (docs/api.md, "Management endpoints"), for `sk_` keys. */
export function documentHandlers(
  deps: AppContext,
): Pick<EndpointHandlers, 'createDocument' | 'listDocuments' | 'getManagedDocument' | 'getSubmission' | 'listSubmissions'> {
  return {
    // Reads its multipart body itself, so that each missing or malformed part is named.
    createDocument: handler(endpoints.createDocument, {
      after: [pdfUploadLimit(deps.config.maxPdfBytes)],
      readsItself: ['body'],
      async handle(c, { query }) {
        const draft = query.draft === 'true';
        const form = await readMultipartForm(c, draft ? '"file"' : '"file" and "fields"');
        // Strict like every JSON body: a misspelt part (`signingorder`) is refused, not ignored.
        const stray = Object.keys(form).find((name) => !Object.hasOwn(UPLOAD_PARTS, name));
        if (stray !== undefined) {
          throw validationError(stray, `received unknown part ${JSON.stringify(stray)}; the parts are ${Object.keys(UPLOAD_PARTS).join(', ')}`);
        }
        const file = form['file'];
        if (!(file instanceof File)) throw validationError('file', 'a PDF file is required');
        const fields = await jsonPart(form, 'fields');
        const imports = { tags: textPart(form, 'tags'), formFields: textPart(form, 'formFields') };
        // A draft may come without fields (its author places them later), and so may an upload whose fields are found in it.
        if (fields === undefined && !draft && !importsAsked(imports)) {
          throw validationError('fields', 'a JSON array of field definitions is required');
        }
        const filename = typeof form['filename'] === 'string' ? form['filename'] : file.name;
        const signers = await jsonPart(form, 'signers');
        const signingOrder = textPart(form, 'signingOrder');
        const expiresAt = textPart(form, 'expiresAt');
        const delivery = parseDelivery(
          { delivery: textPart(form, 'delivery'), reminders: await jsonPart(form, 'reminders') },
          { mailConfigured: deps.config.mail !== undefined, linkBaseUrl: requestOrigin(c.req.url) },
        );
        const document = await createDocument(deps.storage, {
          organizationId: c.get('apiKey').organizationId,
          filename,
          bytes: new Uint8Array(await file.arrayBuffer()),
          fields,
          signers,
          signingOrder,
          expiresAt,
          draft,
          ...(delivery ? { delivery } : {}),
          ...imports,
          maxPdfBytes: deps.config.maxPdfBytes,
          logger: deps.logger,
          pdfPool: deps.pdfPool,
          mailConfigured: deps.config.mail !== undefined,
        });
        c.header('ETag', versionTag(document.version));
        return sendEnvelope(c, managedDocument(document, { status: 'pending' }, []), 201);
      },
    }),

    listDocuments: handler(endpoints.listDocuments, {
      async handle(c, { query }) {
        const limit = query.limit ?? PAGE_LIMIT.default;
        const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
        const rows = await listDocuments(deps.storage.db.query, c.get('apiKey').organizationId, { limit: limit + 1, after });
        return sendPage(c, rows, limit, documentMetadata);
      },
    }),

    getManagedDocument: handler(endpoints.getManagedDocument, {
      async handle(c, { params }) {
        const document = await findOwnDocument(deps, c.get('apiKey').organizationId, params.documentId);
        const [seal, states] = await Promise.all([findSealState(deps.storage.db.query, document.id), signerStatesOf(deps, document)]);
        c.header('ETag', versionTag(document.version));
        return sendEnvelope(c, managedDocument(document, sealingOf(seal), states), 200);
      },
    }),

    getSubmission: handler(endpoints.getSubmission, {
      async handle(c, { params }) {
        const document = await findOwnDocument(deps, c.get('apiKey').organizationId, params.documentId);
        if (!document.implicitSigner) {
          throw new ApiError('NOT_FOUND', `Document ${document.id} has signers: each has a submission of their own`, {
            details: { reason: 'list them with GET /documents/{documentId}/submissions' },
          });
        }
        const submission = await findSubmissionForDocument(deps.storage.db.query, document.id);
        if (!submission) {
          throw new ApiError('NOT_FOUND', `Document ${document.id} has no submission yet`, {
            details: { reason: 'the document is still pending' },
          });
        }
        return sendEnvelope(c, submissionRecord(submission), 200);
      },
    }),

    listSubmissions: handler(endpoints.listSubmissions, {
      async handle(c, { params }) {
        const document = await findOwnDocument(deps, c.get('apiKey').organizationId, params.documentId);
        const submissions = await listSubmissions(deps.storage.db.query, document.id);
        return sendEnvelope(c, submissions.map(submissionRecord), 200);
      },
    }),
  };
}
