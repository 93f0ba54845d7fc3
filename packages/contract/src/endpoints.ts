import { z } from './zod.js';
import type { ErrorCode } from './errors.js';
import { idSchema, type ApiKeyKind } from './ids.js';
import { PAGE_LIMIT, ErrorEnvelopeSchema, paginatedList, successEnvelope } from './schemas/envelope.js';
import { KeyValidationResultSchema, type Scope } from './schemas/key.js';
import {
  DeclineRequestSchema,
  DeclineResultSchema,
  DocumentMetadataSchema,
  ManagedDocumentSchema,
  SdkDocumentSchema,
  VoidRequestSchema,
  DocumentTombstoneSchema,
} from './schemas/document.js';
import { SubmissionPayloadSchema, SubmissionRecordSchema, SubmissionResultSchema } from './schemas/submission.js';
import { CreateSessionRequestSchema, CreatedSessionSchema, SessionSchema } from './schemas/signers.js';
import {
  BuilderSessionSchema,
  CreateBuilderSessionRequestSchema,
  CreatedBuilderSessionSchema,
  DraftSchema,
  IfMatchSchema,
  UpdateDraftRequestSchema,
} from './schemas/drafts.js';
import { AuditTrailSchema, VerifyResultSchema, VerifyUploadSchema } from './schemas/audit.js';
import { CheckVerificationRequestSchema, VerificationCodeSentSchema, VerificationResultSchema } from './schemas/verification.js';
import {
  CreateTemplateBuilderSessionRequestSchema,
  CreateTemplateDocumentRequestSchema,
  CreatedTemplateBuilderSessionSchema,
  DeletedTemplateSchema,
  TemplateIdParamsSchema,
  TemplateBuilderSessionSchema,
  TemplateSchema,
  TemplateSummarySchema,
  UpdateTemplateRequestSchema,
} from './schemas/templates.js';
import { BulkJobIdParamsSchema, BulkJobSchema, BulkRowResultSchema, CreateBulkJobRequestSchema } from './schemas/bulk.js';
import { DeliverySchema, SignerParamsSchema, SignerReminderSchema } from './schemas/delivery.js';
import { OrganizationProfileSchema, UpdateOrganizationRequestSchema } from './schemas/organization.js';
import {
  CreateWebhookRequestSchema,
  CreatedWebhookSchema,
  RotatedWebhookSecretSchema,
  UpdateWebhookRequestSchema,
  WebhookDeliverySchema,
  WebhookSchema,
} from './schemas/webhooks.js';
import { PREVIEW_MAX_SIDE, PREVIEW_PIXELS_PER_POINT } from './preview.js';

/**
 * Who may call an endpoint: an API key of one of `kinds` holding every scope of `scopes` (docs/api.md, "Authentication"), or whoever holds
 * the document token of `documentUrl` (docs/api.md, "Document tokens"; the file and its preview, which a browser fetches by URL).
 */
export type EndpointAccess =
  | {
      readonly by: 'key';
      readonly kinds: readonly ApiKeyKind[];
      readonly scopes: readonly Scope[];
      /** Whether a session key (a `pk_` key bound to one document and signer) may call it; the handler checks the binding. */
      readonly sessions?: true;
      /**
       * Whether a builder session key (a `pk_` key bound to one draft) may call it: any (`edit`), or only one created
       * with `allowSend` (`send`); the handler checks the binding.
       */
      readonly builders?: 'edit' | 'send';
    }
  | { readonly by: 'document-token' }
  /** Whoever holds the token of a template's `documentUrl` (its PDF, which a builder's browser fetches by URL). */
  | { readonly by: 'template-token' };

/** A body: its media type and the schema of its content (a `format: binary` string for bytes). */
export interface EndpointContent {
  readonly mediaType: string;
  readonly schema: z.ZodType;
}

/** An answer of the endpoint itself (2xx, 304, or validate-key's own 401 body). */
export interface EndpointResponse {
  readonly description: string;
  /** Absent for an answer without a body (304). */
  readonly content?: EndpointContent;
  /** Response headers by their canonical names; header values are strings. */
  readonly headers?: z.ZodObject;
}

/** A refusal: the error envelope (docs/api.md, "Envelope") with one of `codes`. */
export interface EndpointError {
  readonly codes: readonly [ErrorCode, ...ErrorCode[]];
  readonly description: string;
  readonly headers?: z.ZodObject;
}

/** One endpoint of the Signet API, as the server serves it, documents it (OpenAPI) and the client calls it. */
export interface Endpoint {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form: `{name}` for a path parameter. */
  readonly path: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  readonly access: EndpointAccess;
  readonly request: {
    readonly params?: z.ZodObject;
    readonly query?: z.ZodObject;
    /** Request headers by their lower-case names. */
    readonly headers?: z.ZodObject;
    readonly body?: EndpointContent;
    /** Other media types the same body may be sent as (a CSV of a bulk request's rows), the handler reading each. */
    readonly bodyAlternatives?: readonly EndpointContent[];
  };
  readonly responses: Readonly<Record<number, EndpointResponse>>;
  readonly errors: Readonly<Record<number, EndpointError>>;
}

const json = <S extends z.ZodType>(schema: S) => ({ mediaType: 'application/json', schema }) as const;
const binary = (mediaType: string): EndpointContent => ({ mediaType, schema: z.string().meta({ format: 'binary' }) });
const seconds = z.string().regex(/^\d+$/).meta({ description: 'Seconds to wait before trying again' });

/**
 * The error envelope whose `error.code` is one of `codes` (OpenAPI: the `ErrorEnvelope` component narrowed).
 * @example errorEnvelope(['DOCUMENT_NOT_FOUND']).parse(body)
 */
export function errorEnvelope(codes: readonly [ErrorCode, ...ErrorCode[]]) {
  return z.intersection(ErrorEnvelopeSchema, z.object({ error: z.object({ code: z.enum(codes) }) }));
}

/** The path parameter of every route about one document. */
export const DocumentIdParamsSchema = z.object({
  documentId: idSchema('doc').meta({ param: { name: 'documentId', in: 'path' }, example: 'doc_V1StGXR8Z5jdHi6BmyTaQ7fz' }),
});

/** Query of `GET /documents` (docs/api.md, "Pagination"). */
export const DocumentListQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(PAGE_LIMIT.min)
    .max(PAGE_LIMIT.max)
    .optional()
    .meta({ description: `Page size, ${PAGE_LIMIT.min}..${PAGE_LIMIT.max}, default ${PAGE_LIMIT.default}` }),
  cursor: z.string().optional().meta({ description: '`pagination.cursor` of the previous page' }),
});

/** The path parameter of every route about one webhook endpoint. */
export const WebhookIdParamsSchema = z.object({
  webhookId: idSchema('wh').meta({ param: { name: 'webhookId', in: 'path' }, example: 'wh_Q3hXk2v9TzR7mLpW4sNa8bYc' }),
});

/** The path parameters of a route about one delivery of a webhook endpoint. */
export const WebhookDeliveryParamsSchema = WebhookIdParamsSchema.extend({
  deliveryId: idSchema('dlv').meta({ param: { name: 'deliveryId', in: 'path' }, example: 'dlv_J8kQm2XwR4tZp6LnV3yBcD5e' }),
});

/** The path parameters of a route about one session key of a document. */
export const SessionParamsSchema = DocumentIdParamsSchema.extend({
  keyId: idSchema('key').meta({ param: { name: 'keyId', in: 'path' }, example: 'key_R2wXn8TqL5vBmK3pZ7cYd4Hs' }),
});

/**
 * The parts of an upload that turn what the PDF already holds into fields (`POST /documents`, `POST /templates`):
 * its text tags (docs/text-tags.md) and its form fields (docs/form-fields.md). With either, `fields` may be left out.
 */
export const UploadImportPartsSchema = z.strictObject({
  tags: z.enum(['true', 'false']).optional().meta({
    description:
      '`true`: every text tag such as `{{signature;signer=tenant;required}}` in the PDF becomes a field on its box, and its text is removed from the stored PDF (docs/text-tags.md). Default `false`',
  }),
  formFields: z.enum(['import', 'keep']).optional().meta({
    description:
      '`import`: the PDF\'s form fields become fields (names, boxes, options, values) and the form is removed from the stored PDF (docs/form-fields.md). Default `keep`: the PDF is stored as uploaded',
  }),
});

/** The multipart form of `POST /documents` (docs/api.md, "Management endpoints"); any other part is refused (400 naming it). */
export const DocumentUploadSchema = z.strictObject({
  file: z.string().meta({ format: 'binary', description: 'The PDF' }),
  fields: z.string().meta({
    description: 'JSON array of field definitions, as text or as a UTF-8 file of at most 1 MiB (`-F fields=@fields.json`); with `signers`, each names its `signerId`. May be left out of a draft, and of an upload with `tags` or `formFields` (the fields found are added to those given)',
  }),
  filename: z.string().optional(),
  signers: z.string().optional().meta({
    description: 'JSON array of signers `[{ id, name, email?, order? }]`, as text or as a UTF-8 file of at most 1 MiB; without it the document has one implicit signer',
  }),
  signingOrder: z.enum(['parallel', 'sequential']).optional().meta({
    description: '`parallel` (default) or `sequential` (by `order`; equal orders sign in parallel)',
  }),
  expiresAt: z.string().optional().meta({
    description:
      'ISO 8601 time with a zone, in the future and at most a year ahead: after it the document, unless completed, is `expired` and can no longer be signed (docs/lifecycle.md)',
  }),
  delivery: DeliverySchema.optional().meta({
    description:
      '`email`: Signet e-mails each signer with an `email` a link to its hosted signing page when their turn comes (a draft: once sent); needs `SIGNET_SMTP_URL` on the server (docs/email.md). Default `none`',
  }),
  reminders: z.string().optional().meta({
    description: 'Only with `delivery=email`: JSON `{ "firstAfterDays": 3, "everyDays": 7, "max": 3 }`, reminders to the signers who have not signed (docs/email.md)',
  }),
  ...UploadImportPartsSchema.shape,
});

/** The multipart form of `POST /templates` (docs/templates.md); any other part is refused (400 naming it). */
export const TemplateUploadSchema = z.strictObject({
  file: z.string().meta({ format: 'binary', description: 'The PDF' }),
  name: z.string().optional().meta({ description: 'What the template is called (default: the file name)' }),
  fields: z.string().optional().meta({
    description: 'JSON array of field definitions, as text or as a UTF-8 file of at most 1 MiB; with `roles`, each names its role as `signerId`. Default: none (place them with a builder, or find them with `tags` or `formFields`)',
  }),
  filename: z.string().optional(),
  roles: z.string().optional().meta({
    description: 'JSON array of roles `[{ id, name, order? }]`; without it each document made from the template has one signer',
  }),
  signingOrder: z.enum(['parallel', 'sequential']).optional().meta({ description: '`parallel` (default) or `sequential`, by role `order`' }),
  expiresInDays: z.string().regex(/^\d{1,3}$/).optional().meta({
    description: 'Each document made from it expires this many days (1 to 365) after it is made, unless its request says otherwise',
  }),
  ...UploadImportPartsSchema.shape,
});

/** The query of `POST /documents`: whether the new document is a draft (docs/api.md, "Drafts"). */
export const DocumentCreateQuerySchema = z.object({
  draft: z.enum(['true', 'false']).optional().meta({
    description:
      '`true`: a draft, not signable until sent (`POST /documents/{documentId}/send`); the `fields` part may then be left out, and hold fields still being set up. Default `false`: the document is sent at creation',
  }),
});

/** The path parameters of a route about one builder session key of a template. */
export const TemplateBuilderSessionParamsSchema = TemplateIdParamsSchema.extend({
  keyId: idSchema('key').meta({ param: { name: 'keyId', in: 'path' }, example: 'key_R2wXn8TqL5vBmK3pZ7cYd4Hs' }),
});

/** The path parameters of a route about one builder session key of a document. */
export const BuilderSessionParamsSchema = SessionParamsSchema;

/** `Idempotency-Key` of a submit (docs/api.md, "Idempotency"). */
export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .meta({ description: 'Up to 255 characters; same key + same body within 24 h replays the first response' });

/** validate-key's answer to a key that cannot be used (docs/api.md, "Key validation"): a 401 with this body, not the error envelope. */
export const KeyRefusalSchema = KeyValidationResultSchema.extend({ valid: z.literal(false), error: z.string() }).meta({
  id: 'KeyRefusal',
});

const documentToken = z.object({ token: z.string().meta({ description: 'Document token from `documentUrl`' }) });

const invalid: EndpointError = {
  codes: ['VALIDATION_ERROR'],
  description: 'Invalid request: `details.field` and `details.reason` name the member',
};
const keyErrors = {
  401: { codes: ['INVALID_API_KEY', 'EXPIRED_API_KEY'], description: 'Missing, malformed, unknown, revoked or expired key' },
  403: {
    codes: ['INSUFFICIENT_PERMISSIONS'],
    description: 'The key lacks a scope (`details.required`), is a pk key on a management route, is an sk key sent from a browser, or is used from a disallowed origin',
  },
  429: {
    codes: ['RATE_LIMIT_EXCEEDED'],
    description: 'Rate limit of the key, or of failed authentications from this address, exceeded',
    headers: z.object({ 'Retry-After': seconds }),
  },
} as const satisfies Record<number, EndpointError>;
const tokenRefused: EndpointError = {
  codes: ['INSUFFICIENT_PERMISSIONS'],
  description:
    'Missing, tampered or expired token, a token whose API key (or session key) has since been revoked or has expired, or an unknown document (`details.reason`)',
};
const sessionRefused: EndpointError = {
  codes: ['INSUFFICIENT_PERMISSIONS'],
  description:
    'As for any key (`details.required`, origins, kinds); and a session key used for another document than its own (`details.reason`)',
};
/** `sessionRefused`, and a session key whose signer must prove who they are first (docs/signer-auth.md). */
const unverifiedRefused: EndpointError = {
  codes: ['INSUFFICIENT_PERMISSIONS', 'VERIFICATION_REQUIRED'],
  description:
    'As for any key (`details.required`, origins, kinds); a session key used for another document than its own (`details.reason`); or `VERIFICATION_REQUIRED`: the session key\'s signer must prove who they are first (`details`: `method`, `documentName`, `signerName`, `maskedEmail` for `email_code`)',
};
/** Only a signer's own session key may verify. */
const verifierRefused: EndpointError = {
  codes: ['INSUFFICIENT_PERMISSIONS'],
  description:
    'As for any key (`details.required`, origins, kinds); a key that is not a session key of a signer of this document (`details.reason`)',
};
const isDraft: EndpointError = {
  codes: ['SUBMISSION_FAILED'],
  description:
    'The document is a draft: it cannot be signed or opened for signing until it is sent (`details.reason: "draft"`); or it was voided (`details.reason: "voided"`) or has expired (`details.reason: "expired"`)',
};
const notDraft: EndpointError = {
  codes: ['DOCUMENT_NOT_DRAFT'],
  description: 'The document is no draft: it was sent (at creation, or since) and can no longer be edited (`details.status`)',
};
const builderRefused: EndpointError = {
  codes: ['INSUFFICIENT_PERMISSIONS'],
  description:
    'As for any key (`details.required`, origins, kinds); and a builder session key used for another document than its own (`details.reason`)',
};
const versionConflict: EndpointError = {
  codes: ['PRECONDITION_FAILED'],
  description: '`If-Match` names another version than the current one (`details.currentVersion`): reload, then change again',
};
const versionRequired: EndpointError = {
  codes: ['PRECONDITION_REQUIRED'],
  description: 'No `If-Match`: a write to a draft must name the version it was made on',
};
const ifMatch = z.object({ 'if-match': IfMatchSchema.optional() });
const versionTag = z.object({ ETag: z.string().regex(/^"\d+"$/).meta({ description: 'The document\'s `version`, quoted' }) });
const documentNotFound: EndpointError = { codes: ['DOCUMENT_NOT_FOUND'], description: "No such document in the key's organization" };
const tooLarge: EndpointError = { codes: ['VALIDATION_ERROR'], description: 'Body or file over the size limit' };
const notJson: EndpointError = {
  codes: ['VALIDATION_ERROR'],
  description: 'The body is not sent as `Content-Type: application/json` (`details.field: "Content-Type"`)',
};
const webhookNotFound: EndpointError = { codes: ['NOT_FOUND'], description: "No such webhook endpoint in the key's organization" };
const deliveryNotFound: EndpointError = {
  codes: ['NOT_FOUND'],
  description: "No such webhook endpoint in the key's organization, or no such delivery of it",
};
const webhookDisabled: EndpointError = {
  codes: ['WEBHOOK_DISABLED'],
  description: 'The endpoint is turned off (by hand, or after it answered 410): enable it first',
};
const urlRefused: EndpointError = {
  codes: ['VALIDATION_ERROR'],
  description: 'The URL resolves to a loopback, private, link-local or metadata address, or to no address (`details.field: "url"`)',
};
const webhookRefused: EndpointError = {
  codes: ['VALIDATION_ERROR'],
  description: `${urlRefused.description}; or the organization already has as many endpoints as the server allows (\`WEBHOOK_MAX_ENDPOINTS\`, 20 by default; \`details.limit\`)`,
};
const internal: EndpointError = { codes: ['INTERNAL_ERROR'], description: 'An unexpected failure; nothing internal is revealed' };
const templateNotFound: EndpointError = { codes: ['NOT_FOUND'], description: "No such template in the key's organization" };
const templateVersionTag = z.object({ ETag: z.string().regex(/^"\d+"$/).meta({ description: "The template's `version`, quoted" }) });
const bulkJobNotFound: EndpointError = { codes: ['NOT_FOUND'], description: "No such bulk job in the key's organization" };
const templateBuilderRefused: EndpointError = {
  codes: ['INSUFFICIENT_PERMISSIONS'],
  description: 'A builder session key of another template or of a document',
};

/** What a response granted by a document token carries (docs/api.md, "Document tokens"): cacheable by the browser alone, per origin. */
const tokenCaching = {
  ETag: z.string(),
  'Cache-Control': z.literal('private, max-age=300'),
  Vary: z.string().regex(/Origin/),
};
const fileHeaders = {
  ...tokenCaching,
  'Accept-Ranges': z.literal('bytes'),
  'Content-Disposition': z.string().regex(/^inline; /),
  'Content-Length': z.string().regex(/^\d+$/),
};
const previewHeaders = {
  ...tokenCaching,
  'Cross-Origin-Resource-Policy': z.literal('cross-origin'),
  'Timing-Allow-Origin': z.literal('*'),
};
/** The sealed PDF, to both its readers: downloaded as an attachment, in ranges, revalidated by its strong ETag. */
const signedFileHeaders = {
  ETag: z.string().regex(/^"[0-9a-f]{64}"$/).meta({ description: "The sealed file's SHA-256, quoted" }),
  'Accept-Ranges': z.literal('bytes'),
  'Content-Disposition': z.string().regex(/^attachment; /),
  'Content-Length': z.string().regex(/^\d+$/),
};
const signedFileResponses = (cacheControl: z.ZodType, extra: Record<string, z.ZodType>) => ({
  200: {
    description: 'The sealed PDF',
    content: binary('application/pdf'),
    headers: z.object({ ...signedFileHeaders, ...extra, 'Cache-Control': cacheControl }),
  },
  206: {
    description: 'The requested byte range of the sealed PDF',
    content: binary('application/pdf'),
    headers: z.object({
      ...signedFileHeaders,
      ...extra,
      'Cache-Control': cacheControl,
      'Content-Range': z.string().regex(/^bytes \d+-\d+\/\d+$/),
    }),
  },
  304: { description: 'Not modified (`If-None-Match`)', headers: z.object({ ETag: z.string(), 'Cache-Control': cacheControl }) },
});
const rangeRefused: EndpointError = {
  codes: ['VALIDATION_ERROR'],
  description: 'Range not satisfiable',
  headers: z.object({ 'Content-Range': z.string().regex(/^bytes \*\/\d+$/) }),
};
const notSealed: EndpointError = {
  codes: ['DOCUMENT_NOT_SEALED'],
  description: 'The document is not sealed yet (not submitted, or its seal is queued, running or failed: `details.sealing`)',
  headers: z.object({ 'Retry-After': seconds }),
};

const replayed = z.object({
  'Idempotent-Replayed': z.literal('true').optional().meta({ description: 'Present when an Idempotency-Key replayed the first response' }),
});

/**
 * Every endpoint of the Signet API, once: the server registers its routes and its OpenAPI document from this table,
 * and the client builds its calls from it. The keys are the OpenAPI `operationId`s.
 * @example
 * const { method, path } = endpoints.getDocument; // 'get', '/sdk/documents/{documentId}'
 * endpointPath(endpoints.getDocument, { documentId: 'doc_…' }) // '/sdk/documents/doc_…'
 */
export const endpoints = {
  validateKey: {
    method: 'post',
    path: '/sdk/validate-key',
    tags: ['SDK'],
    summary: 'Validate the API key',
    description: 'Tells whether the key of `X-API-Key` is usable, and its organization and scopes. No envelope.',
    access: { by: 'key', kinds: ['pk', 'sk'], scopes: [], sessions: true, builders: 'edit' },
    request: {},
    responses: {
      200: { description: 'The key is valid (a session key: with its `documentId` and `signerId`)', content: json(KeyValidationResultSchema) },
      401: { description: 'Missing, unknown, revoked or expired key: `{ "valid": false, "error": "…" }`', content: json(KeyRefusalSchema) },
    },
    errors: { 403: keyErrors[403], 429: keyErrors[429], 500: internal },
  },
  getDocument: {
    method: 'get',
    path: '/sdk/documents/{documentId}',
    tags: ['SDK'],
    summary: 'Get a document with its fields',
    description:
      'Metadata, a `documentUrl` for the PDF (a token in its query string grants it for `DOCUMENT_TOKEN_TTL_SECONDS`) and the predefined fields. No envelope.',
    access: { by: 'key', kinds: ['pk', 'sk'], scopes: ['documents:read'], sessions: true },
    request: { params: DocumentIdParamsSchema },
    responses: { 200: { description: 'The document', content: json(SdkDocumentSchema) } },
    errors: { 400: invalid, ...keyErrors, 403: unverifiedRefused, 404: documentNotFound, 409: isDraft, 500: internal },
  },
  submitDocument: {
    method: 'post',
    path: '/sdk/documents/submit',
    tags: ['SDK'],
    summary: 'Submit a completed document',
    description:
      'Send `Idempotency-Key` so a retry can never create a second submission. A payload equal to the accepted one replays its result (200). No envelope on success.',
    access: { by: 'key', kinds: ['pk', 'sk'], scopes: ['documents:submit'], sessions: true },
    request: {
      headers: z.object({ 'idempotency-key': IdempotencyKeySchema.optional() }),
      body: json(SubmissionPayloadSchema),
    },
    responses: {
      200: { description: 'The same payload again: the original result', content: json(SubmissionResultSchema), headers: replayed },
      201: { description: 'Submission accepted', content: json(SubmissionResultSchema), headers: replayed },
    },
    errors: {
      400: invalid,
      ...keyErrors,
      403: unverifiedRefused,
      404: documentNotFound,
      409: {
        codes: ['SUBMISSION_FAILED'],
        description:
          'The document is a draft, not sent yet (`details.reason: "draft"`); or it (or this signer) has already completed; or it was declined (`details.reason: "declined"`), voided (`details.reason: "voided"`) or has expired (`details.reason: "expired"`); or, in sequential order, an earlier signer has not signed yet (`details.reason: "not_your_turn"`, `details.waitingFor`); or the same Idempotency-Key is in flight (then with `Retry-After`)',
        headers: z.object({ 'Retry-After': seconds.optional() }),
      },
      413: tooLarge,
      415: notJson,
      422: {
        codes: ['VALIDATION_ERROR'],
        description:
          "The payload breaks a document rule (`details.missingFields`, or `details.field` and `details.reason`: also another signer's field, or an image that cannot be decoded in full within the server's limits), names no single signer of a document with signers, or the Idempotency-Key was used with another body",
      },
      500: internal,
      503: {
        codes: ['SERVICE_UNAVAILABLE'],
        description: "The server is busy (its PDF queue, where submitted images are decoded, is full); nothing was stored",
        headers: z.object({ 'Retry-After': seconds }),
      },
    },
  },
  declineDocument: {
    method: 'post',
    path: '/sdk/documents/{documentId}/decline',
    tags: ['SDK'],
    summary: 'Decline to sign',
    description:
      'The signer declines, with a reason: the document becomes `declined` and takes no submission any more (409, `details.reason: "declined"`). Declining a declined document again answers the first decline (200). No envelope.',
    access: { by: 'key', kinds: ['pk', 'sk'], scopes: ['documents:submit'], sessions: true },
    request: { params: DocumentIdParamsSchema, body: json(DeclineRequestSchema) },
    responses: { 200: { description: 'The document is declined', content: json(DeclineResultSchema) } },
    errors: {
      400: invalid,
      ...keyErrors,
      403: unverifiedRefused,
      404: documentNotFound,
      409: {
        codes: ['SUBMISSION_FAILED'],
        description: 'The document is completed, or a draft not sent yet, or voided, or expired, or this signer has already signed (`details.reason`)',
      },
      413: tooLarge,
      415: notJson,
      500: internal,
    },
  },
  sendVerificationCode: {
    method: 'post',
    path: '/sdk/documents/{documentId}/verification',
    tags: ['SDK'],
    summary: 'E-mail the signer a code',
    description:
      'For a signer with `auth: "email_code"`: a new 6-digit code, valid 10 minutes, goes to their e-mail address (any earlier one stops working). One a minute and five an hour per signer. Only that signer\'s session key. No envelope.',
    access: { by: 'key', kinds: ['pk'], scopes: ['documents:read'], sessions: true },
    request: { params: DocumentIdParamsSchema },
    responses: { 202: { description: 'The code is on its way', content: json(VerificationCodeSentSchema) } },
    errors: {
      400: invalid,
      ...keyErrors,
      403: verifierRefused,
      404: documentNotFound,
      409: isDraft,
      422: { codes: ['VERIFICATION_FAILED'], description: 'The signer\'s method is not `email_code` (`details.reason: "not_email_code"`), or the signer has nothing to prove (`"not_required"`)' },
      429: {
        codes: ['RATE_LIMIT_EXCEEDED'],
        description: 'As for any key; or a code was sent less than a minute ago, or five this hour (`details.reason: "resend_limit"`)',
        headers: z.object({ 'Retry-After': seconds }),
      },
      500: internal,
      503: { codes: ['SERVICE_UNAVAILABLE'], description: 'This server sends no e-mail (`SIGNET_SMTP_URL` is not set)' },
    },
  },
  checkVerification: {
    method: 'post',
    path: '/sdk/documents/{documentId}/verification/check',
    tags: ['SDK'],
    summary: 'Check the signer\'s code',
    description:
      'The e-mailed code (`email_code`) or the access code (`access_code`). Right: this session key is verified, and `GET /sdk/documents/{id}` answers. Five wrong tries end an e-mailed code and lock an access code for 15 minutes. Only that signer\'s session key. No envelope.',
    access: { by: 'key', kinds: ['pk'], scopes: ['documents:read'], sessions: true },
    request: { params: DocumentIdParamsSchema, body: json(CheckVerificationRequestSchema) },
    responses: { 200: { description: 'Verified', content: json(VerificationResultSchema) } },
    errors: {
      400: invalid,
      ...keyErrors,
      403: verifierRefused,
      404: documentNotFound,
      409: isDraft,
      413: tooLarge,
      415: notJson,
      422: {
        codes: ['VERIFICATION_FAILED'],
        description:
          'The code is wrong (`details.reason: "wrong_code"`, `details.attemptsLeft`), or there is none to check against: none sent, expired, or used up by wrong tries (`"no_code"`, `"expired"`, `"too_many_attempts"`); or the signer has nothing to prove (`"not_required"`)',
      },
      429: {
        codes: ['RATE_LIMIT_EXCEEDED'],
        description: 'As for any key; or too many checks from this key or address, or an access code locked after five wrong tries (`details.reason: "locked"`)',
        headers: z.object({ 'Retry-After': seconds }),
      },
      500: internal,
    },
  },
  getDocumentFile: {
    method: 'get',
    path: '/sdk/documents/{documentId}/file',
    tags: ['SDK'],
    summary: 'Download the document PDF',
    description:
      'The URL comes from `documentUrl`; its `token` is the capability, no API key is needed. Supports `Range` (206), `If-None-Match` (304) and `If-Range`.',
    access: { by: 'document-token' },
    request: { params: DocumentIdParamsSchema, query: documentToken },
    responses: {
      200: { description: 'The whole PDF', content: binary('application/pdf'), headers: z.object(fileHeaders) },
      206: {
        description: 'The requested byte range',
        content: binary('application/pdf'),
        headers: z.object({ ...fileHeaders, 'Content-Range': z.string().regex(/^bytes \d+-\d+\/\d+$/) }),
      },
      304: { description: 'Not modified (`If-None-Match`)', headers: z.object(tokenCaching) },
    },
    errors: {
      400: invalid,
      403: tokenRefused,
      416: {
        codes: ['VALIDATION_ERROR'],
        description: 'Range not satisfiable',
        headers: z.object({ 'Content-Range': z.string().regex(/^bytes \*\/\d+$/) }),
      },
      500: internal,
    },
  },
  getDocumentPreview: {
    method: 'get',
    path: '/sdk/documents/{documentId}/preview',
    tags: ['SDK'],
    summary: 'Image of the first page',
    description: `The first page as displayed, as WebP, ${PREVIEW_PIXELS_PER_POINT} pixels a point (at most ${PREVIEW_MAX_SIDE} a side). Same URL and \`token\` as \`documentUrl\` with \`/preview\` in place of \`/file\`; no API key is needed. Supports \`If-None-Match\` (304).`,
    access: { by: 'document-token' },
    request: { params: DocumentIdParamsSchema, query: documentToken },
    responses: {
      200: { description: 'The image', content: binary('image/webp'), headers: z.object(previewHeaders) },
      304: { description: 'Not modified (`If-None-Match`)', headers: z.object(previewHeaders) },
    },
    errors: {
      400: invalid,
      403: tokenRefused,
      404: { codes: ['NOT_FOUND'], description: 'The document has no preview: its first page cannot be drawn' },
      500: internal,
    },
  },
  createDocument: {
    method: 'post',
    path: '/documents',
    tags: ['Documents'],
    summary: 'Create a document',
    description: 'Multipart upload of a PDF and its field definitions.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { query: DocumentCreateQuerySchema, body: { mediaType: 'multipart/form-data', schema: DocumentUploadSchema } },
    responses: { 201: { description: 'The document', content: json(successEnvelope(ManagedDocumentSchema)), headers: versionTag } },
    errors: {
      400: invalid,
      ...keyErrors,
      413: tooLarge,
      422: { codes: ['VALIDATION_ERROR'], description: "The PDF cannot be processed within the server's limits" },
      500: internal,
      503: {
        codes: ['SERVICE_UNAVAILABLE'],
        description: 'The server is busy (its PDF queue is full); nothing was done',
        headers: z.object({ 'Retry-After': seconds }),
      },
    },
  },
  listDocuments: {
    method: 'get',
    path: '/documents',
    tags: ['Documents'],
    summary: 'List documents',
    description: 'Newest first, cursor pagination.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: { query: DocumentListQuerySchema },
    responses: { 200: { description: 'A page of documents', content: json(paginatedList(DocumentMetadataSchema)) } },
    errors: { 400: invalid, ...keyErrors, 500: internal },
  },
  getManagedDocument: {
    method: 'get',
    path: '/documents/{documentId}',
    tags: ['Documents'],
    summary: 'Get a document',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: { params: DocumentIdParamsSchema },
    responses: { 200: { description: 'The document', content: json(successEnvelope(ManagedDocumentSchema)), headers: versionTag } },
    errors: { 400: invalid, ...keyErrors, 404: documentNotFound, 500: internal },
  },
  getDraft: {
    method: 'get',
    path: '/documents/{documentId}/draft',
    tags: ['Drafts'],
    summary: "Get a draft's content",
    description:
      "Its fields, signers and signing order as its author edits them, its `version` (also the `ETag`) and the `documentUrl` of its PDF. A builder session key of the document may call it from a browser. A sent document answers the same, with its status.",
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'], builders: 'edit' },
    request: { params: DocumentIdParamsSchema },
    responses: { 200: { description: 'The draft', content: json(successEnvelope(DraftSchema)), headers: versionTag } },
    errors: { 400: invalid, ...keyErrors, 403: builderRefused, 404: documentNotFound, 500: internal },
  },
  updateDraft: {
    method: 'put',
    path: '/documents/{documentId}/draft',
    tags: ['Drafts'],
    summary: "Replace a draft's fields and signers",
    description:
      'The whole content at once (a builder saves it so): fields, and signers with their signing order (without `signers`, one implicit signer). Checked as at creation, except what may still be missing while a field is set up (sending checks it). `If-Match` with the `ETag` it was made on is required: a change made on an older version is refused (412).',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'], builders: 'edit' },
    request: { params: DocumentIdParamsSchema, headers: ifMatch, body: json(UpdateDraftRequestSchema) },
    responses: { 200: { description: 'The draft as saved, with its new version', content: json(successEnvelope(DraftSchema)), headers: versionTag } },
    errors: {
      400: invalid,
      ...keyErrors,
      403: builderRefused,
      404: documentNotFound,
      409: notDraft,
      412: versionConflict,
      413: tooLarge,
      415: notJson,
      428: versionRequired,
      500: internal,
    },
  },
  sendDocument: {
    method: 'post',
    path: '/documents/{documentId}/send',
    tags: ['Drafts'],
    summary: 'Send a draft',
    description:
      'Checks the draft and makes it signable (`pending`): `document.sent` in its audit trail and to webhook endpoints. A builder session key may call it when created with `allowSend`. `If-Match` names the version sent.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'], builders: 'send' },
    request: { params: DocumentIdParamsSchema, headers: ifMatch },
    responses: { 200: { description: 'The document, sent', content: json(successEnvelope(ManagedDocumentSchema)), headers: versionTag } },
    errors: {
      400: invalid,
      ...keyErrors,
      403: {
        codes: ['INSUFFICIENT_PERMISSIONS'],
        description: `${builderRefused.description}; or a builder session key created without \`allowSend\``,
      },
      404: documentNotFound,
      409: notDraft,
      412: versionConflict,
      422: {
        codes: ['VALIDATION_ERROR'],
        description:
          'The draft cannot be sent yet: `details.problems` lists every problem (a signer without a field or without a signature field, a choice field without options, rules that disagree), each with its `field` and `reason`',
      },
      428: versionRequired,
      500: internal,
    },
  },
  voidDocument: {
    method: 'post',
    path: '/documents/{documentId}/void',
    tags: ['Documents'],
    summary: 'Void a document',
    description:
      "Withdraws a document that is not completed (a draft too), with a reason: it becomes `voided`, its session and builder session keys are revoked, the document URLs obtained for it stop working, and it takes no submission or decline any more. `document.voided` in its audit trail and to webhook endpoints (docs/lifecycle.md).",
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: DocumentIdParamsSchema, body: json(VoidRequestSchema) },
    responses: { 200: { description: 'The document, voided', content: json(successEnvelope(ManagedDocumentSchema)), headers: versionTag } },
    errors: {
      400: invalid,
      ...keyErrors,
      404: documentNotFound,
      409: {
        codes: ['DOCUMENT_CLOSED'],
        description: 'The document is completed, declined, voided or expired already (`details.status`, `details.reason`): it cannot be voided',
      },
      413: tooLarge,
      415: notJson,
      500: internal,
    },
  },
  eraseDocument: {
    method: 'delete',
    path: '/documents/{documentId}',
    tags: ['Documents'],
    summary: "Erase a document's content",
    description:
      'Deletes the PDF, its preview, the submitted values and signature images and the sealed copy, revokes its session keys, and keeps a tombstone: the id, the SHA-256 of the PDF and of the sealed copy, the times and who erased it. From then on the document is unknown (404 `DOCUMENT_NOT_FOUND`, `details.reason: "erased"`) to every request but its audit trail, which ends with `document.erased` (docs/lifecycle.md).',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: DocumentIdParamsSchema },
    responses: { 200: { description: 'The tombstone', content: json(successEnvelope(DocumentTombstoneSchema)) } },
    errors: {
      400: invalid,
      ...keyErrors,
      404: documentNotFound,
      410: { codes: ['DOCUMENT_ERASED'], description: 'The document was erased already: `details` is its tombstone' },
      500: internal,
    },
  },
  createBuilderSession: {
    method: 'post',
    path: '/documents/{documentId}/builder-sessions',
    tags: ['Drafts'],
    summary: 'Create a builder session key',
    description:
      "A `pk_` key that may only read and edit this draft (`GET` and `PUT /documents/{documentId}/draft`, its PDF), and send it when `allowSend`: give it to the author's browser, so that the host page never holds an sk key. Shown this once; only its hash is stored.",
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: DocumentIdParamsSchema, body: json(CreateBuilderSessionRequestSchema) },
    responses: { 201: { description: 'The builder session key', content: json(successEnvelope(CreatedBuilderSessionSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: documentNotFound, 409: notDraft, 413: tooLarge, 415: notJson, 500: internal },
  },
  revokeBuilderSession: {
    method: 'delete',
    path: '/documents/{documentId}/builder-sessions/{keyId}',
    tags: ['Drafts'],
    summary: 'Revoke a builder session key',
    description: 'From now on the key is refused (401 `INVALID_API_KEY`), and so are the document URLs it obtained. Revoking a revoked key changes nothing.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: BuilderSessionParamsSchema },
    responses: { 200: { description: 'The revoked builder session key', content: json(successEnvelope(BuilderSessionSchema)) } },
    errors: {
      400: invalid,
      ...keyErrors,
      404: {
        codes: ['DOCUMENT_NOT_FOUND', 'NOT_FOUND'],
        description: "No such document in the key's organization (`DOCUMENT_NOT_FOUND`), or no such builder session key of it (`NOT_FOUND`)",
      },
      500: internal,
    },
  },
  getSubmission: {
    method: 'get',
    path: '/documents/{documentId}/submission',
    tags: ['Documents'],
    summary: "Get a document's submission",
    description: 'The accepted submission with its values, render context, page info, checksum and audit data.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: { params: DocumentIdParamsSchema },
    responses: { 200: { description: 'The submission', content: json(successEnvelope(SubmissionRecordSchema)) } },
    errors: {
      400: invalid,
      ...keyErrors,
      404: {
        codes: ['DOCUMENT_NOT_FOUND', 'NOT_FOUND'],
        description:
          "No such document in the key's organization (`DOCUMENT_NOT_FOUND`), or it is still pending, or it has signers: see `GET /documents/{documentId}/submissions` (`NOT_FOUND`)",
      },
      500: internal,
    },
  },
  listSubmissions: {
    method: 'get',
    path: '/documents/{documentId}/submissions',
    tags: ['Documents'],
    summary: "List a document's submissions",
    description: 'Every accepted submission, one per signer that has signed (`signerId`), oldest first; empty while none has.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: { params: DocumentIdParamsSchema },
    responses: { 200: { description: 'The submissions', content: json(successEnvelope(z.array(SubmissionRecordSchema))) } },
    errors: { 400: invalid, ...keyErrors, 404: documentNotFound, 500: internal },
  },
  createSession: {
    method: 'post',
    path: '/documents/{documentId}/sessions',
    tags: ['Documents'],
    summary: 'Create a session key for one signer',
    description:
      "A `pk_` key that works only for this document, as this signer: `GET /sdk/documents/{documentId}`, `POST /sdk/documents/submit` of the signer's own fields, and `POST /sdk/validate-key`. Give it to the signer's browser as `<SigningViewer apiKey>`. The key is shown this once; only its hash is stored.",
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: DocumentIdParamsSchema, body: json(CreateSessionRequestSchema) },
    responses: { 201: { description: 'The session key', content: json(successEnvelope(CreatedSessionSchema)) } },
    errors: {
      400: invalid,
      ...keyErrors,
      404: documentNotFound,
      413: tooLarge,
      415: notJson,
      422: {
        codes: ['VALIDATION_ERROR'],
        description: '`signerId` names no signer of the document, or is missing on a document with signers, or is given on one without (`details.field: "signerId"`)',
      },
      409: isDraft,
      500: internal,
    },
  },
  revokeSession: {
    method: 'delete',
    path: '/documents/{documentId}/sessions/{keyId}',
    tags: ['Documents'],
    summary: 'Revoke a session key',
    description: 'From now on the key is refused (401 `INVALID_API_KEY`). Revoking a revoked key changes nothing.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: SessionParamsSchema },
    responses: { 200: { description: 'The revoked session key', content: json(successEnvelope(SessionSchema)) } },
    errors: {
      400: invalid,
      ...keyErrors,
      404: {
        codes: ['DOCUMENT_NOT_FOUND', 'NOT_FOUND'],
        description: "No such document in the key's organization (`DOCUMENT_NOT_FOUND`), or no such session key of it (`NOT_FOUND`)",
      },
      500: internal,
    },
  },
  remindSigner: {
    method: 'post',
    path: '/documents/{documentId}/signers/{signerId}/remind',
    tags: ['Documents'],
    summary: 'Remind a signer by e-mail',
    description:
      "Queues an e-mail to the signer's `email` with a link to the hosted signing page (`/sign/{token}`), now: `signer.reminded` in the audit trail. The signer must be able to sign (not waiting for their turn, not signed yet) on a `pending` document. At most one message to a signer an hour (an invitation counts): sooner is a 429 with `Retry-After` (docs/email.md).",
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: SignerParamsSchema },
    responses: { 202: { description: 'The reminder, queued', content: json(successEnvelope(SignerReminderSchema)) } },
    errors: {
      400: invalid,
      ...keyErrors,
      404: {
        codes: ['DOCUMENT_NOT_FOUND', 'NOT_FOUND'],
        description: "No such document in the key's organization (`DOCUMENT_NOT_FOUND`), or no such signer of it (`NOT_FOUND`)",
      },
      409: { codes: ['DOCUMENT_CLOSED'], description: 'The document cannot be signed (`details.status`: draft, completed, declined, voided or expired)' },
      422: {
        codes: ['VALIDATION_ERROR'],
        description: 'The signer has no `email`, has signed or waits for their turn (`details.field: "signerId"`), or the server sends no e-mail (`details.field: "delivery"`: `SIGNET_SMTP_URL` is not set)',
      },
      429: {
        codes: ['RATE_LIMIT_EXCEEDED'],
        description: "The key's rate limit, or the signer had a message less than an hour ago (`details.retryAfterSeconds`)",
        headers: z.object({ 'Retry-After': seconds }),
      },
      500: internal,
    },
  },
  getSignedDocumentFile: {
    method: 'get',
    path: '/sdk/documents/{documentId}/signed.pdf',
    tags: ['SDK'],
    summary: "Download the signer's copy of the sealed PDF",
    description:
      'The URL comes from `signedDocumentUrl`; its `token` is the capability (the token of `documentUrl`), no API key is needed. Supports `Range`, `If-None-Match` and `If-Range`.',
    access: { by: 'document-token' },
    request: { params: DocumentIdParamsSchema, query: documentToken },
    responses: signedFileResponses(z.literal('private, max-age=300'), { Vary: z.string().regex(/Origin/) }),
    errors: { 400: invalid, 403: tokenRefused, 409: notSealed, 416: rangeRefused, 500: internal },
  },
  getSignedDocument: {
    method: 'get',
    path: '/documents/{documentId}/signed.pdf',
    tags: ['Documents'],
    summary: 'Download the sealed PDF',
    description:
      'The completed PDF: the submitted values drawn in, forms flattened, audit trail pages appended, signed PAdES (`ETSI.CAdES.detached`). Supports `Range`, `If-None-Match` and `If-Range`.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: { params: DocumentIdParamsSchema },
    responses: signedFileResponses(z.literal('private, no-cache'), {}),
    errors: { 400: invalid, ...keyErrors, 404: documentNotFound, 409: notSealed, 416: rangeRefused, 500: internal },
  },
  getAuditTrail: {
    method: 'get',
    path: '/documents/{documentId}/audit',
    tags: ['Documents'],
    summary: "Get a document's audit trail",
    description: 'Created, first opened by the signer (address and browser), submitted, sealed: oldest first.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: { params: DocumentIdParamsSchema },
    responses: { 200: { description: 'The events', content: json(successEnvelope(AuditTrailSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: documentNotFound, 500: internal },
  },
  verifyDocument: {
    method: 'post',
    path: '/verify',
    tags: ['Documents'],
    summary: 'Verify a sealed PDF',
    description:
      "Whether the uploaded PDF was sealed by this Signet instance for the key's organization, and is unchanged since. A PDF sealed for another organization answers as not sealed.",
    access: { by: 'key', kinds: ['pk', 'sk'], scopes: [] },
    request: { body: { mediaType: 'multipart/form-data', schema: VerifyUploadSchema } },
    responses: { 200: { description: 'The verdict', content: json(successEnvelope(VerifyResultSchema)) } },
    errors: {
      400: invalid,
      ...keyErrors,
      413: tooLarge,
      422: { codes: ['VALIDATION_ERROR'], description: "The PDF's signatures cannot be read within the server's limits" },
      500: internal,
      503: {
        codes: ['SERVICE_UNAVAILABLE'],
        description: 'The server is busy (its PDF queue is full); try again',
        headers: z.object({ 'Retry-After': seconds }),
      },
    },
  },

  getOrganization: {
    method: 'get',
    path: '/organization',
    tags: ['Organization'],
    summary: "Get the key's organization",
    description: 'Its id, its name and the brand colour of its hosted signing page (`null`: the default accent; docs/email.md, "Branding").',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: {},
    responses: { 200: { description: 'The organization', content: json(successEnvelope(OrganizationProfileSchema)) } },
    errors: { ...keyErrors, 500: internal },
  },
  updateOrganization: {
    method: 'patch',
    path: '/organization',
    tags: ['Organization'],
    summary: "Change the key's organization",
    description:
      'Its name (1–200 characters, one line), which signers read on the hosted signing page and in its e-mails, and the page\'s brand colour: `#rrggbb` only, `null` for the default. The page picks white or near-black text on it, whichever contrasts more (docs/email.md, "Branding").',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { body: json(UpdateOrganizationRequestSchema) },
    responses: { 200: { description: 'The organization as changed', content: json(successEnvelope(OrganizationProfileSchema)) } },
    errors: { 400: invalid, ...keyErrors, 413: tooLarge, 415: notJson, 500: internal },
  },

  createWebhook: {
    method: 'post',
    path: '/webhooks',
    tags: ['Webhooks'],
    summary: 'Register a webhook endpoint',
    description:
      'Signet POSTs the subscribed events to `url`, signed as Standard Webhooks specifies. The answer carries the signing secret: it is shown this once. URLs that resolve to loopback, private, link-local or metadata addresses are refused unless the server allows them (`SIGNET_WEBHOOKS_ALLOW_PRIVATE`).',
    access: { by: 'key', kinds: ['sk'], scopes: ['webhooks:write'] },
    request: { body: json(CreateWebhookRequestSchema) },
    responses: { 201: { description: 'The endpoint and its secret', content: json(successEnvelope(CreatedWebhookSchema)) } },
    errors: { 400: invalid, ...keyErrors, 413: tooLarge, 415: notJson, 422: webhookRefused, 500: internal },
  },
  listWebhooks: {
    method: 'get',
    path: '/webhooks',
    tags: ['Webhooks'],
    summary: 'List webhook endpoints',
    description: 'Newest first, cursor pagination.',
    access: { by: 'key', kinds: ['sk'], scopes: ['webhooks:write'] },
    request: { query: DocumentListQuerySchema },
    responses: { 200: { description: 'A page of endpoints', content: json(paginatedList(WebhookSchema)) } },
    errors: { 400: invalid, ...keyErrors, 500: internal },
  },
  getWebhook: {
    method: 'get',
    path: '/webhooks/{webhookId}',
    tags: ['Webhooks'],
    summary: 'Get a webhook endpoint',
    access: { by: 'key', kinds: ['sk'], scopes: ['webhooks:write'] },
    request: { params: WebhookIdParamsSchema },
    responses: { 200: { description: 'The endpoint', content: json(successEnvelope(WebhookSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: webhookNotFound, 500: internal },
  },
  updateWebhook: {
    method: 'patch',
    path: '/webhooks/{webhookId}',
    tags: ['Webhooks'],
    summary: 'Change a webhook endpoint',
    description: 'Its URL, events, description, or whether it is enabled (enabling one that a 410 turned off clears `disabledReason`).',
    access: { by: 'key', kinds: ['sk'], scopes: ['webhooks:write'] },
    request: { params: WebhookIdParamsSchema, body: json(UpdateWebhookRequestSchema) },
    responses: { 200: { description: 'The endpoint', content: json(successEnvelope(WebhookSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: webhookNotFound, 413: tooLarge, 415: notJson, 422: urlRefused, 500: internal },
  },
  deleteWebhook: {
    method: 'delete',
    path: '/webhooks/{webhookId}',
    tags: ['Webhooks'],
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries are dropped with it.',
    access: { by: 'key', kinds: ['sk'], scopes: ['webhooks:write'] },
    request: { params: WebhookIdParamsSchema },
    responses: { 200: { description: 'The deleted endpoint', content: json(successEnvelope(WebhookSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: webhookNotFound, 500: internal },
  },
  rotateWebhookSecret: {
    method: 'post',
    path: '/webhooks/{webhookId}/rotate-secret',
    tags: ['Webhooks'],
    summary: "Rotate a webhook endpoint's secret",
    description:
      'A new secret signs from now on; the previous one keeps signing beside it for 24 hours (two signatures in `webhook-signature`), so the receiver can switch without losing an event.',
    access: { by: 'key', kinds: ['sk'], scopes: ['webhooks:write'] },
    request: { params: WebhookIdParamsSchema },
    responses: { 200: { description: 'The new secret', content: json(successEnvelope(RotatedWebhookSecretSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: webhookNotFound, 500: internal },
  },
  listWebhookDeliveries: {
    method: 'get',
    path: '/webhooks/{webhookId}/deliveries',
    tags: ['Webhooks'],
    summary: "List a webhook endpoint's deliveries",
    description: 'Newest first, cursor pagination: each event, its attempts, the last status code, error and duration, and the next attempt.',
    access: { by: 'key', kinds: ['sk'], scopes: ['webhooks:write'] },
    request: { params: WebhookIdParamsSchema, query: DocumentListQuerySchema },
    responses: { 200: { description: 'A page of deliveries', content: json(paginatedList(WebhookDeliverySchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: webhookNotFound, 500: internal },
  },
  retryWebhookDelivery: {
    method: 'post',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    tags: ['Webhooks'],
    summary: 'Send a delivery again now',
    description: 'Whatever its status: a failed delivery gets a new round of attempts, a succeeded one is sent once more (same `webhook-id`).',
    access: { by: 'key', kinds: ['sk'], scopes: ['webhooks:write'] },
    request: { params: WebhookDeliveryParamsSchema },
    responses: { 202: { description: 'The delivery, due now', content: json(successEnvelope(WebhookDeliverySchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: deliveryNotFound, 409: webhookDisabled, 500: internal },
  },
  testWebhook: {
    method: 'post',
    path: '/webhooks/{webhookId}/test',
    tags: ['Webhooks'],
    summary: 'Send a test event',
    description: 'Queues a `webhook.test` event to this endpoint, whatever it subscribes to; follow it in its deliveries.',
    access: { by: 'key', kinds: ['sk'], scopes: ['webhooks:write'] },
    request: { params: WebhookIdParamsSchema },
    responses: { 202: { description: 'The queued delivery', content: json(successEnvelope(WebhookDeliverySchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: webhookNotFound, 409: webhookDisabled, 500: internal },
  },
  createTemplate: {
    method: 'post',
    path: '/templates',
    tags: ['Templates'],
    summary: 'Create a template',
    description:
      'Multipart upload of a PDF with its fields and roles, to make documents from again and again (docs/templates.md). Fields may be found in the PDF too (`tags`, `formFields`).',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { body: { mediaType: 'multipart/form-data', schema: TemplateUploadSchema } },
    responses: { 201: { description: 'The template, version 1', content: json(successEnvelope(TemplateSchema)), headers: templateVersionTag } },
    errors: {
      400: invalid,
      ...keyErrors,
      413: tooLarge,
      422: { codes: ['VALIDATION_ERROR'], description: "The PDF cannot be processed within the server's limits, or a text tag is malformed (`details.reason` names its page and text)" },
      500: internal,
      503: {
        codes: ['SERVICE_UNAVAILABLE'],
        description: 'The server is busy (its PDF queue is full); nothing was done',
        headers: z.object({ 'Retry-After': seconds }),
      },
    },
  },
  listTemplates: {
    method: 'get',
    path: '/templates',
    tags: ['Templates'],
    summary: 'List templates',
    description: 'Newest first, cursor pagination.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: { query: DocumentListQuerySchema },
    responses: { 200: { description: 'A page of templates', content: json(paginatedList(TemplateSummarySchema)) } },
    errors: { 400: invalid, ...keyErrors, 500: internal },
  },
  getTemplate: {
    method: 'get',
    path: '/templates/{templateId}',
    tags: ['Templates'],
    summary: 'Get a template',
    description: "Its current version (also the `ETag`), fields, roles and the `documentUrl` of its PDF. A builder session key of the template may call it from a browser.",
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'], builders: 'edit' },
    request: { params: TemplateIdParamsSchema },
    responses: { 200: { description: 'The template', content: json(successEnvelope(TemplateSchema)), headers: templateVersionTag } },
    errors: { 400: invalid, ...keyErrors, 403: templateBuilderRefused, 404: templateNotFound, 500: internal },
  },
  updateTemplate: {
    method: 'put',
    path: '/templates/{templateId}',
    tags: ['Templates'],
    summary: "Replace a template's fields and roles",
    description:
      'Its whole content at once, as a builder saves it; a new version. Documents made from it before keep the version they copied. Checked as a draft is (a field may still be set up); making a document checks the rest. `If-Match` with the `ETag` it was made on is required (412 on an older one).',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'], builders: 'edit' },
    request: { params: TemplateIdParamsSchema, headers: ifMatch, body: json(UpdateTemplateRequestSchema) },
    responses: { 200: { description: 'The template as saved, with its new version', content: json(successEnvelope(TemplateSchema)), headers: templateVersionTag } },
    errors: {
      400: invalid,
      ...keyErrors,
      403: templateBuilderRefused,
      404: templateNotFound,
      412: versionConflict,
      413: tooLarge,
      415: notJson,
      428: versionRequired,
      500: internal,
    },
  },
  deleteTemplate: {
    method: 'delete',
    path: '/templates/{templateId}',
    tags: ['Templates'],
    summary: 'Delete a template',
    description: 'Deletes it, its PDF and its builder session keys. Documents made from it are kept, unchanged.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: TemplateIdParamsSchema },
    responses: { 200: { description: 'The template is gone', content: json(successEnvelope(DeletedTemplateSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: templateNotFound, 500: internal },
  },
  createTemplateDocument: {
    method: 'post',
    path: '/templates/{templateId}/documents',
    tags: ['Templates'],
    summary: 'Make a document from a template',
    description:
      "A new document with a copy of the template's current version: its PDF, its fields with the values given, each role bound to the signer given for it, the template's signing order and expiry unless the request says otherwise. The document records the template and version in `template`.",
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: TemplateIdParamsSchema, body: json(CreateTemplateDocumentRequestSchema) },
    responses: { 201: { description: 'The document', content: json(successEnvelope(ManagedDocumentSchema)), headers: versionTag } },
    errors: {
      400: invalid,
      ...keyErrors,
      404: templateNotFound,
      413: tooLarge,
      415: notJson,
      422: {
        codes: ['VALIDATION_ERROR'],
        description:
          'The template cannot make a signable document yet (`details.problems`: a role without a signature field, a read-only field without a value, …), or a value breaks its field\'s rules (`details.field`: `values.<id>`)',
      },
      500: internal,
    },
  },
  createTemplateBuilderSession: {
    method: 'post',
    path: '/templates/{templateId}/builder-sessions',
    tags: ['Templates'],
    summary: 'Create a builder session key of a template',
    description:
      "A `pk_` key that may only read and edit this template (`GET` and `PUT /templates/{templateId}`, its PDF): give it to the author's browser for `<SigningBuilder templateId>`. Shown this once; only its hash is stored.",
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: TemplateIdParamsSchema, body: json(CreateTemplateBuilderSessionRequestSchema) },
    responses: { 201: { description: 'The builder session key', content: json(successEnvelope(CreatedTemplateBuilderSessionSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: templateNotFound, 413: tooLarge, 415: notJson, 500: internal },
  },
  revokeTemplateBuilderSession: {
    method: 'delete',
    path: '/templates/{templateId}/builder-sessions/{keyId}',
    tags: ['Templates'],
    summary: 'Revoke a builder session key of a template',
    description: 'From now on the key is refused (401 `INVALID_API_KEY`), and so are the URLs it obtained. Revoking a revoked key changes nothing.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: { params: TemplateBuilderSessionParamsSchema },
    responses: { 200: { description: 'The revoked builder session key', content: json(successEnvelope(TemplateBuilderSessionSchema)) } },
    errors: {
      400: invalid,
      ...keyErrors,
      404: { codes: ['NOT_FOUND'], description: "No such template in the key's organization, or no such builder session key of it" },
      500: internal,
    },
  },
  getTemplateFile: {
    method: 'get',
    path: '/sdk/templates/{templateId}/file',
    tags: ['SDK'],
    summary: "Download a template's PDF",
    description:
      "The URL comes from the template's `documentUrl`; its `token` is the capability, no API key is needed. Supports `Range` (206), `If-None-Match` (304) and `If-Range`.",
    access: { by: 'template-token' },
    request: { params: TemplateIdParamsSchema, query: documentToken },
    responses: {
      200: { description: 'The whole PDF', content: binary('application/pdf'), headers: z.object(fileHeaders) },
      206: {
        description: 'The requested byte range',
        content: binary('application/pdf'),
        headers: z.object({ ...fileHeaders, 'Content-Range': z.string().regex(/^bytes \d+-\d+\/\d+$/) }),
      },
      304: { description: 'Not modified (`If-None-Match`)', headers: z.object(tokenCaching) },
    },
    errors: { 400: invalid, 403: tokenRefused, 416: rangeRefused, 500: internal },
  },
  createBulkJob: {
    method: 'post',
    path: '/templates/{templateId}/bulk',
    tags: ['Templates'],
    summary: 'Make many documents from a template',
    description:
      'Up to 10,000 rows, as JSON or as a CSV with a header row (`key`, `<role>.name`, `<role>.email`, `values.<fieldId>`: docs/templates.md, "Bulk"): one document per row, made by a background job. The whole request is checked first; a row that its fields\' rules refuse is recorded as failed, the others are made. A row whose `key` already made a document of this template makes none again: that document is reported. Follow it with `GET /bulk-jobs/{bulkJobId}`.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:write'] },
    request: {
      params: TemplateIdParamsSchema,
      body: json(CreateBulkJobRequestSchema),
      bodyAlternatives: [{ mediaType: 'text/csv', schema: z.string().meta({ description: 'A header row, then one row per document (RFC 4180)' }) }],
    },
    responses: { 202: { description: 'The bulk job, queued', content: json(successEnvelope(BulkJobSchema)) } },
    errors: {
      400: { codes: ['VALIDATION_ERROR'], description: 'Invalid request: `details.field` names the row (`rows[3].signers[0].role`) or the CSV line (`line 4`)' },
      ...keyErrors,
      404: templateNotFound,
      413: tooLarge,
      415: { codes: ['VALIDATION_ERROR'], description: 'The body is sent neither as `application/json` nor as `text/csv` (`details.field: "Content-Type"`)' },
      500: internal,
    },
  },
  getBulkJob: {
    method: 'get',
    path: '/bulk-jobs/{bulkJobId}',
    tags: ['Templates'],
    summary: 'Get a bulk job',
    description: 'Where it stands: `pending`, `running` or `completed`, with how many rows made a document and how many failed so far.',
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: { params: BulkJobIdParamsSchema },
    responses: { 200: { description: 'The bulk job', content: json(successEnvelope(BulkJobSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: bulkJobNotFound, 500: internal },
  },
  listBulkJobRows: {
    method: 'get',
    path: '/bulk-jobs/{bulkJobId}/rows',
    tags: ['Templates'],
    summary: "List a bulk job's rows",
    description:
      "In the request's order, cursor pagination: each row's status, its document or its error. To the key that started the job, the first read of a created row also gives the session key of each of its signers; later reads do not (docs/templates.md, \"Bulk\").",
    access: { by: 'key', kinds: ['sk'], scopes: ['documents:read'] },
    request: { params: BulkJobIdParamsSchema, query: DocumentListQuerySchema },
    responses: { 200: { description: 'A page of rows', content: json(paginatedList(BulkRowResultSchema)) } },
    errors: { 400: invalid, ...keyErrors, 404: bulkJobNotFound, 500: internal },
  },
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
