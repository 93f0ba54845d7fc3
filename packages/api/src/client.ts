import { z } from 'zod';
import {
  allEndpointChecks,
  builderEndpointChecks,
  endpointPath,
  sdkEndpointChecks,
  type EndpointCheckTable,
  type AnswerCheck,
  type AuditTrail,
  type BuilderSession,
  type CreateBuilderSessionRequest,
  type CreatedBuilderSession,
  type CreatedTemplateBuilderSession,
  type CreateTemplateBuilderSessionRequest,
  type CreateTemplateDocumentRequest,
  type BulkJob,
  type BulkRowResult,
  type CreateBulkJobRequest,
  type DeletedTemplate,
  type Template,
  type TemplateBuilderSession,
  type TemplateRole,
  type TemplateSummary,
  type UpdateTemplateRequest,
  type Draft,
  type CreateSessionRequest,
  type CreateWebhookRequest,
  type CreatedSession,
  type CreatedWebhook,
  type DeclineResult,
  type Session,
  type SignerDefinition,
  type SigningOrder,
  type VerifyResult,
  type VerificationCodeSent,
  type VerificationResult,
  type DocumentMetadata,
  type Endpoint,
  type EndpointName,
  type Endpoints,
  type FieldDefinition,
  type KeyValidationResult,
  type ManagedDocument,
  type Delivery,
  type Reminders,
  type SignerReminder,
  type DocumentTombstone,
  type OrganizationProfile,
  type UpdateOrganizationRequest,
  type Pagination,
  type PathParams,
  type SdkDocument,
  type SubmissionPayload,
  type SubmissionRecord,
  type SubmissionResult,
  type RotatedWebhookSecret,
  type UpdateWebhookRequest,
  type Webhook,
  type WebhookDelivery,
} from '@signet/contract';
import type { RateLimitInfo } from './rate-limit.js';
import { retryPolicy, type RetryOptions } from './retry.js';
import { Transport } from './transport.js';

export interface SigningClientOptions {
  /**
   * A `pk_` key in browsers; an `sk_` key on servers (needed for `createDocument`, `listDocuments`,
   * `getManagedDocument` and `getSubmission`).
   */
  apiKey: string;
  /** Where the Signet API is, such as `https://sign.example.com`. */
  baseUrl: string;
  /** Time-out of each attempt, in ms (default 10,000). */
  timeoutMs?: number;
  /** Retries of network errors, time-outs, 408, 429 and 5xx (default 3, 250 ms base, 8 s cap); `false` for none. */
  retry?: RetryOptions;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
}

export interface SubmitOptions {
  /** Sent as `Idempotency-Key`; one is generated per call when not given, and reused by its retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ListOptions {
  limit?: number;
  cursor?: string | null;
  signal?: AbortSignal;
}

/** A page of a list endpoint: its items, newest first, and the cursor of the next page. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/** A page of `GET /documents`. */
export type DocumentPage = Page<DocumentMetadata>;

export interface SigningClient {
  /** `POST /sdk/validate-key`: `{ valid: true, … }`, or `{ valid: false, error }` for an unusable key. */
  validateKey(options?: { signal?: AbortSignal }): Promise<KeyValidationResult>;
  /** `GET /sdk/documents/{documentId}`: metadata, the PDF's URL and the field definitions. */
  getDocument(documentId: string, options?: { signal?: AbortSignal }): Promise<SdkDocument>;
  /** `POST /sdk/documents/submit`, always with an `Idempotency-Key`, so a retried submit never submits twice. */
  submitDocument(payload: SubmissionPayload, options?: SubmitOptions): Promise<SubmissionResult>;
  /**
   * `POST /sdk/documents/{documentId}/decline`: the signer declines, with a reason; the document takes no submission
   * any more. Safe to retry: a declined document answers its first decline.
   */
  declineDocument(documentId: string, reason: string, options?: { signal?: AbortSignal }): Promise<DeclineResult>;
  /**
   * `POST /sdk/documents/{documentId}/verification` (the signer's session key): e-mails the signer a new 6-digit code
   * (docs/signer-auth.md); at most one a minute and five an hour (429 otherwise).
   */
  sendVerificationCode(documentId: string, options?: { signal?: AbortSignal }): Promise<VerificationCodeSent>;
  /**
   * `POST /sdk/documents/{documentId}/verification/check` (the signer's session key): the e-mailed code or the access
   * code; a wrong one throws `VERIFICATION_FAILED` with `details.attemptsLeft`. Never retried: each try counts.
   */
  checkVerification(documentId: string, code: string, options?: { signal?: AbortSignal }): Promise<VerificationResult>;
  /** `GET /documents` (sk key): one page. */
  listDocuments(options?: ListOptions): Promise<DocumentPage>;
  /** Every page of `GET /documents`, following the cursor. */
  documentPages(options?: Omit<ListOptions, 'cursor'>): AsyncGenerator<DocumentPage>;
  /** Every document of `GET /documents`, each once, page after page. */
  allDocuments(options?: Omit<ListOptions, 'cursor'>): AsyncGenerator<DocumentMetadata>;
  /**
   * `POST /documents` (sk key): a new document from a PDF and its field definitions. Retried only after a 429: the
   * endpoint takes no Idempotency-Key, so a retry after a time-out could create the document twice.
   */
  createDocument(
    input: DocumentUpload & {
      /** Turn the PDF's text tags into fields (docs/text-tags.md). */
      tags?: boolean;
      /** `import`: turn the PDF's form fields into fields (docs/form-fields.md). */
      formFields?: 'import' | 'keep';
    },
    options?: { signal?: AbortSignal },
  ): Promise<ManagedDocument>;
  /**
   * `POST /documents?draft=true` (sk key): a draft, not signable until `sendDocument`; its fields may be left out
   * and placed later (`updateDraft`, or a builder). Retried only after a 429, like `createDocument`.
   */
  createDraft(
    input: DocumentUpload,
    options?: { signal?: AbortSignal },
  ): Promise<ManagedDocument>;
  /** `GET /documents/{documentId}/draft` (sk key, or the draft's builder session key): its content, `version` and `documentUrl`. */
  getDraft(documentId: string, options?: { signal?: AbortSignal }): Promise<Draft>;
  /**
   * `PUT /documents/{documentId}/draft`: replaces its fields, signers and signing order, made on `version` (sent as
   * `If-Match`). A change made on an older version rejects with `PRECONDITION_FAILED` (`details.currentVersion`):
   * reload with `getDraft`, then change again. Retried only after a 429.
   */
  updateDraft(
    documentId: string,
    change: { version: number; fields: FieldDefinition[]; signers?: SignerDefinition[]; signingOrder?: SigningOrder },
    options?: { signal?: AbortSignal },
  ): Promise<Draft>;
  /**
   * `POST /documents/{documentId}/send`: checks the draft at `version` and makes it signable. Problems reject with a
   * 422 `VALIDATION_ERROR` whose `details.problems` lists each. Retried only after a 429.
   */
  sendDocument(documentId: string, change: { version: number }, options?: { signal?: AbortSignal }): Promise<ManagedDocument>;
  /**
   * `POST /documents/{documentId}/builder-sessions` (sk key): a `pk_` key that may only read and edit this draft (and
   * send it with `allowSend`), for the author's browser; shown this once. Retried only after a 429.
   */
  createBuilderSession(documentId: string, body?: CreateBuilderSessionRequest, options?: { signal?: AbortSignal }): Promise<CreatedBuilderSession>;
  /** `DELETE /documents/{documentId}/builder-sessions/{keyId}` (sk key): the key is refused from then on. */
  revokeBuilderSession(documentId: string, keyId: string, options?: { signal?: AbortSignal }): Promise<BuilderSession>;
  /**
   * `POST /documents/{documentId}/void` (sk key): withdraws a document not completed (a draft too), with a reason
   * (1-500 characters); its session keys and document URLs stop at once (docs/lifecycle.md). A completed, declined
   * or voided document rejects with 409 `DOCUMENT_CLOSED`. Retried only after a 429.
   */
  voidDocument(documentId: string, reason: string, options?: { signal?: AbortSignal }): Promise<ManagedDocument>;
  /**
   * `DELETE /documents/{documentId}` (sk key): erases the document's content and keeps its tombstone (docs/lifecycle.md).
   * A document erased already rejects with 410 `DOCUMENT_ERASED` (its tombstone in `details`). Retried only after a 429.
   */
  eraseDocument(documentId: string, options?: { signal?: AbortSignal }): Promise<DocumentTombstone>;
  /**
   * `POST /templates` (sk key): a template from a PDF, its fields (given, or found with `tags` / `formFields`) and its
   * roles (docs/templates.md). Retried only after a 429, like `createDocument`.
   */
  createTemplate(input: TemplateUpload, options?: { signal?: AbortSignal }): Promise<Template>;
  /** `GET /templates` (sk key): one page of the organization's templates, newest first. */
  listTemplates(options?: ListOptions): Promise<{ data: TemplateSummary[]; pagination: Pagination }>;
  /** `GET /templates/{templateId}` (sk key, or its builder session key): its current version, fields, roles and `documentUrl`. */
  getTemplate(templateId: string, options?: { signal?: AbortSignal }): Promise<Template>;
  /**
   * `PUT /templates/{templateId}`: its whole content made on `version` (sent as `If-Match`), a new version; an older
   * version rejects with `PRECONDITION_FAILED`. Documents made before keep theirs. Retried only after a 429.
   */
  updateTemplate(templateId: string, change: UpdateTemplateRequest & { version: number }, options?: { signal?: AbortSignal }): Promise<Template>;
  /** `DELETE /templates/{templateId}` (sk key): the template and its PDF are gone; its documents are kept. */
  deleteTemplate(templateId: string, options?: { signal?: AbortSignal }): Promise<DeletedTemplate>;
  /**
   * `POST /templates/{templateId}/documents` (sk key): a document from the template's current version, each role bound
   * to a signer, with prefilled values by field id. Retried only after a 429.
   */
  createTemplateDocument(templateId: string, body: CreateTemplateDocumentRequest, options?: { signal?: AbortSignal }): Promise<ManagedDocument>;
  /** `POST /templates/{templateId}/builder-sessions` (sk key): a `pk_` key that may only read and edit this template, for `<SigningBuilder templateId>`. */
  createTemplateBuilderSession(
    templateId: string,
    body?: CreateTemplateBuilderSessionRequest,
    options?: { signal?: AbortSignal },
  ): Promise<CreatedTemplateBuilderSession>;
  /** `DELETE /templates/{templateId}/builder-sessions/{keyId}` (sk key): the key is refused from then on. */
  revokeTemplateBuilderSession(templateId: string, keyId: string, options?: { signal?: AbortSignal }): Promise<TemplateBuilderSession>;
  /**
   * `POST /templates/{templateId}/bulk` (sk key): one document per row, made by a background job (docs/templates.md,
   * "Bulk"): the rows as JSON, or `{ csv }` with a CSV's text. Resolves with the job, `pending`. Retried only after a 429.
   * @example const job = await sk.createBulkJob('tpl_…', { rows: [{ key: 'r1', signers: [{ role: 'tenant', name: 'Ada' }] }] });
   */
  createBulkJob(templateId: string, body: CreateBulkJobRequest | { csv: string }, options?: { signal?: AbortSignal }): Promise<BulkJob>;
  /** `GET /bulk-jobs/{bulkJobId}` (sk key): where the job stands, with its counts. */
  getBulkJob(bulkJobId: string, options?: { signal?: AbortSignal }): Promise<BulkJob>;
  /**
   * `GET /bulk-jobs/{bulkJobId}/rows` (sk key): one page of its rows' results, in the request's order; to the key
   * that started the job, a created row's session keys the first time it is read.
   */
  listBulkJobRows(bulkJobId: string, options?: ListOptions): Promise<{ data: BulkRowResult[]; pagination: Pagination }>;
  /** `GET /documents/{documentId}` (sk key): the document with its field definitions and status. */
  getManagedDocument(documentId: string, options?: { signal?: AbortSignal }): Promise<ManagedDocument>;
  /** `GET /documents/{documentId}/submission` (sk key): the stored submission of a completed document without signers. */
  getSubmission(documentId: string, options?: { signal?: AbortSignal }): Promise<SubmissionRecord>;
  /** `GET /documents/{documentId}/submissions` (sk key): every accepted submission, one per signer who signed. */
  listSubmissions(documentId: string, options?: { signal?: AbortSignal }): Promise<SubmissionRecord[]>;
  /**
   * `POST /documents/{documentId}/sessions` (sk key): a `pk_` key that works only for this document, as `signerId`,
   * for the signer's browser (`<SigningViewer apiKey>`); shown this once. Retried only after a 429.
   */
  createSession(documentId: string, body: CreateSessionRequest, options?: { signal?: AbortSignal }): Promise<CreatedSession>;
  /** `DELETE /documents/{documentId}/sessions/{keyId}` (sk key): the key is refused from then on. */
  revokeSession(documentId: string, keyId: string, options?: { signal?: AbortSignal }): Promise<Session>;
  /**
   * `POST /documents/{documentId}/signers/{signerId}/remind` (sk key): e-mails the signer their signing link now
   * (docs/email.md). At most one message to a signer an hour: sooner is a 429 `RATE_LIMIT_EXCEEDED`, which the
   * client does not wait out (an hour is no retry). Never retried after it was sent, so it never sends twice.
   * @example await signet.remindSigner('doc_…', 'tenant') // { documentId, signerId, email, queuedAt }
   */
  remindSigner(documentId: string, signerId: string, options?: { signal?: AbortSignal }): Promise<SignerReminder>;
  /**
   * `GET /documents/{documentId}/signed.pdf` (sk key): the sealed PDF's bytes. Before it is sealed the server answers
   * 409 `DOCUMENT_NOT_SEALED` with `Retry-After`, which the client waits out like any retryable answer (with the
   * default retries, about 15 s) before it rejects with that code; `getManagedDocument(id).sealing` tells without
   * waiting.
   */
  getSignedDocument(documentId: string, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
  /** `GET /documents/{documentId}/audit` (sk key): created, opened, submitted, sealed, oldest first. */
  getAuditTrail(documentId: string, options?: { signal?: AbortSignal }): Promise<AuditTrail>;
  /** `POST /verify` (any key): whether `file` is a PDF this Signet sealed for the key's organization, unchanged. */
  verifyDocument(file: Blob, options?: { signal?: AbortSignal }): Promise<VerifyResult>;
  /**
   * `POST /webhooks` (sk key, `webhooks:write`): a new endpoint, with its signing secret (shown this once). Retried
   * only after a 429, like `createDocument`.
   */
  createWebhook(body: CreateWebhookRequest, options?: { signal?: AbortSignal }): Promise<CreatedWebhook>;
  /** `GET /webhooks` (sk key): one page of the organization's endpoints. */
  listWebhooks(options?: ListOptions): Promise<Page<Webhook>>;
  /** `GET /webhooks/{webhookId}` (sk key). */
  getWebhook(webhookId: string, options?: { signal?: AbortSignal }): Promise<Webhook>;
  /** `PATCH /webhooks/{webhookId}` (sk key): changes the members given (url, events, enabled, description). */
  updateWebhook(webhookId: string, body: UpdateWebhookRequest, options?: { signal?: AbortSignal }): Promise<Webhook>;
  /** `DELETE /webhooks/{webhookId}` (sk key): the deleted endpoint; its pending deliveries are dropped. */
  deleteWebhook(webhookId: string, options?: { signal?: AbortSignal }): Promise<Webhook>;
  /**
   * `POST /webhooks/{webhookId}/rotate-secret` (sk key): the new secret; the previous one signs beside it until
   * `previousSecretExpiresAt`. Retried only after a 429: a lost answer would otherwise rotate twice.
   */
  rotateWebhookSecret(webhookId: string, options?: { signal?: AbortSignal }): Promise<RotatedWebhookSecret>;
  /** `GET /webhooks/{webhookId}/deliveries` (sk key): one page of the endpoint's deliveries and their attempts. */
  listWebhookDeliveries(webhookId: string, options?: ListOptions): Promise<Page<WebhookDelivery>>;
  /** `POST /webhooks/{webhookId}/deliveries/{deliveryId}/retry` (sk key): the delivery, due now. Retried only after a 429. */
  retryWebhookDelivery(webhookId: string, deliveryId: string, options?: { signal?: AbortSignal }): Promise<WebhookDelivery>;
  /** `POST /webhooks/{webhookId}/test` (sk key): queues a `webhook.test` event; the queued delivery. Retried only after a 429. */
  sendTestWebhook(webhookId: string, options?: { signal?: AbortSignal }): Promise<WebhookDelivery>;
  /** `GET /organization` (sk key): the key's organization, its name and the brand colour of its hosted signing page. */
  getOrganization(options?: { signal?: AbortSignal }): Promise<OrganizationProfile>;
  /**
   * `PATCH /organization` (sk key, `documents:write`): changes the name or the brand colour (`#rrggbb`; `null` for the
   * default) of the hosted signing page (docs/email.md, "Branding").
   * @example await signet.updateOrganization({ brandColor: '#0a7d4f' }) // { id, name, brandColor: '#0a7d4f' }
   */
  updateOrganization(body: UpdateOrganizationRequest, options?: { signal?: AbortSignal }): Promise<OrganizationProfile>;
  /** The `X-RateLimit-*` headers of the last response that had them. */
  readonly rateLimit: RateLimitInfo | null;
}

/** The bodies an endpoint answers with (its 2xx answers, and validate-key's 401 `{ valid: false }`). */
type Answer<E extends Endpoint> = z.output<
  { [S in keyof E['responses']]: E['responses'][S] extends { content: { schema: infer T extends z.ZodType } } ? T : never }[keyof E['responses']]
>;

/** One call of an endpoint of the contract's table. */
type Call<E extends Endpoint> = ([PathParams<E['path']>] extends [never] ? { params?: never } : { params: Record<PathParams<E['path']>, string> }) & {
  query?: { [K in keyof z.input<NonNullable<E['request']['query']>>]?: string | undefined };
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  replayable?: boolean;
  binary?: boolean;
};

/** Sends calls of the endpoints of `table` with the client's key, time-outs and retries, checking their answers. */
function createCaller(options: SigningClientOptions, table: Partial<EndpointCheckTable>) {
  const transport = new Transport({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs ?? 10_000,
    retry: retryPolicy(options.retry),
    // Bound late, so that a host that replaces `fetch` after creating the client (or a test) is honoured.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  });

  /**
   * Calls the endpoint `name`: its method, its path with `params` filled in, its answer checked against the contract
   * (the checks of `table`, made from the contract's schemas without bundling zod).
   */
  const call = <N extends EndpointName>(name: N, { params, query, ...request }: Call<Endpoints[N]>): Promise<Answer<Endpoints[N]>> => {
    const endpoint = table[name]!;
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, value as string);
    const path = endpointPath<{ path: string }>(endpoint, (params ?? {}) as Record<string, string>);
    const answers = { check: endpoint.answer, ...(endpoint.refusal ? { failureCheck: endpoint.refusal } : {}) };
    return transport.send({
      method: endpoint.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      path: search.size > 0 ? `${path}?${search}` : path,
      ...request,
      ...(answers as { check: AnswerCheck<Answer<Endpoints[N]>>; failureCheck?: AnswerCheck<Answer<Endpoints[N]>> }),
    });
  };
  return { call, transport };
}

/** What a signer's browser calls: a client of the SDK endpoints alone (pk keys, session keys). */
export type SdkClient = Pick<
  SigningClient,
  'validateKey' | 'getDocument' | 'submitDocument' | 'declineDocument' | 'sendVerificationCode' | 'checkVerification' | 'rateLimit'
>;

/** The SDK methods of a client, over `call`. */
function sdkMethods(call: ReturnType<typeof createCaller>['call']): Omit<SdkClient, 'rateLimit'> {
  return {
    validateKey: ({ signal } = {}) => call('validateKey', { signal }),
    getDocument: (documentId, { signal } = {}) => call('getDocument', { params: { documentId }, signal }),
    submitDocument: (payload, { idempotencyKey = newIdempotencyKey(), signal } = {}) =>
      call('submitDocument', { body: payload, headers: { 'Idempotency-Key': idempotencyKey }, signal }),
    declineDocument: (documentId, reason, { signal } = {}) => call('declineDocument', { params: { documentId }, body: { reason }, signal }),
    sendVerificationCode: (documentId, { signal } = {}) => call('sendVerificationCode', { params: { documentId }, signal, replayable: false }),
    checkVerification: (documentId, code, { signal } = {}) =>
      call('checkVerification', { params: { documentId }, body: { code }, signal, replayable: false }),
  };
}

/** What an author's browser calls with a builder session key: a draft's and a template's endpoints, and the SDK's. */
export type BuilderClient = Pick<
  SigningClient,
  | 'validateKey'
  | 'getDocument'
  | 'submitDocument'
  | 'declineDocument'
  | 'sendVerificationCode'
  | 'checkVerification'
  | 'getDraft'
  | 'updateDraft'
  | 'sendDocument'
  | 'getTemplate'
  | 'updateTemplate'
  | 'rateLimit'
>;

/** The builder's methods of a client, over `call`. */
function builderMethods(call: ReturnType<typeof createCaller>['call']): Omit<BuilderClient, keyof SdkClient> {
  return {
    getDraft: async (documentId, { signal } = {}) => (await call('getDraft', { params: { documentId }, signal })).data,
    updateDraft: async (documentId, { version, ...body }, { signal } = {}) =>
      (await call('updateDraft', { params: { documentId }, body, headers: { 'If-Match': `"${version}"` }, signal, replayable: false })).data,
    sendDocument: async (documentId, { version }, { signal } = {}) =>
      (await call('sendDocument', { params: { documentId }, headers: { 'If-Match': `"${version}"` }, signal, replayable: false })).data,
    getTemplate: async (templateId, { signal } = {}) => (await call('getTemplate', { params: { templateId }, signal })).data,
    updateTemplate: async (templateId, { version, ...body }, { signal } = {}) =>
      (await call('updateTemplate', { params: { templateId }, body, headers: { 'If-Match': `"${version}"` }, signal, replayable: false })).data,
  };
}

/**
 * A client of what a builder calls, for an author's browser (`<SigningBuilder>`): a draft's and a template's
 * endpoints and the SDK's. It carries those answers' checks alone, so an authoring page does not download every
 * management endpoint's.
 * @example const client = createBuilderClient({ apiKey: builderKey, baseUrl: 'https://sign.example.com' });
 */
export function createBuilderClient(options: SigningClientOptions): BuilderClient {
  const { call, transport } = createCaller(options, builderEndpointChecks());
  return {
    ...sdkMethods(call),
    ...builderMethods(call),
    get rateLimit() {
      return transport.rateLimit;
    },
  };
}

/**
 * A client of the SDK endpoints only, for a signer's browser: `validateKey`, `getDocument`, `submitDocument`,
 * `declineDocument`, `sendVerificationCode`, `checkVerification`. It
 * carries the checks of those answers alone, so a page that signs does not download the management endpoints'.
 * @example const client = createSdkClient({ apiKey: sessionKey, baseUrl: 'https://sign.example.com' });
 */
export function createSdkClient(options: SigningClientOptions): SdkClient {
  const { call, transport } = createCaller(options, sdkEndpointChecks);
  return {
    ...sdkMethods(call),
    get rateLimit() {
      return transport.rateLimit;
    },
  };
}

/**
 * A client of the Signet API for browsers and Node 20+.
 * @example
 * const client = createSigningClient({ apiKey: 'pk_…', baseUrl: 'https://sign.example.com' });
 * const document = await client.getDocument('doc_…');
 */
export function createSigningClient(options: SigningClientOptions): SigningClient {
  const { call, transport } = createCaller(options, allEndpointChecks());

  const listDocuments = async ({ limit, cursor, signal }: ListOptions = {}): Promise<DocumentPage> => {
    const { data, pagination } = await call('listDocuments', { query: pageQuery({ limit, cursor }), signal });
    return { data, pagination };
  };

  async function* documentPages(list: Omit<ListOptions, 'cursor'> = {}): AsyncGenerator<DocumentPage> {
    let cursor: string | null = null;
    do {
      const page = await listDocuments({ ...list, cursor });
      yield page;
      cursor = page.pagination.hasMore ? page.pagination.cursor : null;
    } while (cursor);
  }

  return {
    ...sdkMethods(call),
    ...builderMethods(call),
    listDocuments,
    documentPages,
    async *allDocuments(list = {}) {
      for await (const page of documentPages(list)) yield* page.data;
    },
    createDocument: async (input, { signal } = {}) =>
      (await call('createDocument', { body: uploadForm(input), signal, replayable: false })).data,
    createDraft: async (input, { signal } = {}) =>
      (await call('createDocument', { query: { draft: 'true' }, body: uploadForm(input), signal, replayable: false })).data,
    createBuilderSession: async (documentId, body = {}, { signal } = {}) =>
      (await call('createBuilderSession', { params: { documentId }, body, signal, replayable: false })).data,
    revokeBuilderSession: async (documentId, keyId, { signal } = {}) =>
      (await call('revokeBuilderSession', { params: { documentId, keyId }, signal })).data,
    createTemplate: async (input, { signal } = {}) => (await call('createTemplate', { body: templateForm(input), signal, replayable: false })).data,
    listTemplates: async ({ limit, cursor, signal } = {}) => {
      const { data, pagination } = await call('listTemplates', { query: pageQuery({ limit, cursor }), signal });
      return { data, pagination };
    },
    deleteTemplate: async (templateId, { signal } = {}) =>
      (await call('deleteTemplate', { params: { templateId }, signal, replayable: false })).data,
    createTemplateDocument: async (templateId, body, { signal } = {}) =>
      (await call('createTemplateDocument', { params: { templateId }, body, signal, replayable: false })).data,
    createTemplateBuilderSession: async (templateId, body = {}, { signal } = {}) =>
      (await call('createTemplateBuilderSession', { params: { templateId }, body, signal, replayable: false })).data,
    revokeTemplateBuilderSession: async (templateId, keyId, { signal } = {}) =>
      (await call('revokeTemplateBuilderSession', { params: { templateId, keyId }, signal })).data,
    createBulkJob: async (templateId, body, { signal } = {}) =>
      (
        await call('createBulkJob', {
          params: { templateId },
          body: 'csv' in body ? new Blob([body.csv], { type: 'text/csv' }) : body,
          signal,
          replayable: false,
        })
      ).data,
    getBulkJob: async (bulkJobId, { signal } = {}) => (await call('getBulkJob', { params: { bulkJobId }, signal })).data,
    listBulkJobRows: async (bulkJobId, { limit, cursor, signal } = {}) => {
      const { data, pagination } = await call('listBulkJobRows', { params: { bulkJobId }, query: pageQuery({ limit, cursor }), signal });
      return { data, pagination };
    },
    eraseDocument: async (documentId, { signal } = {}) =>
      (await call('eraseDocument', { params: { documentId }, signal, replayable: false })).data,
    voidDocument: async (documentId, reason, { signal } = {}) =>
      (await call('voidDocument', { params: { documentId }, body: { reason }, signal, replayable: false })).data,
    getManagedDocument: async (documentId, { signal } = {}) =>
      (await call('getManagedDocument', { params: { documentId }, signal })).data,
    getSubmission: async (documentId, { signal } = {}) =>
      (await call('getSubmission', { params: { documentId }, signal })).data,
    listSubmissions: async (documentId, { signal } = {}) =>
      (await call('listSubmissions', { params: { documentId }, signal })).data,
    createSession: async (documentId, body, { signal } = {}) =>
      (await call('createSession', { params: { documentId }, body, signal, replayable: false })).data,
    revokeSession: async (documentId, keyId, { signal } = {}) =>
      (await call('revokeSession', { params: { documentId, keyId }, signal })).data,
    remindSigner: async (documentId, signerId, { signal } = {}) =>
      (await call('remindSigner', { params: { documentId, signerId }, signal, replayable: false })).data,
    getSignedDocument: async (documentId, { signal } = {}) =>
      (await call('getSignedDocument', { params: { documentId }, signal, binary: true })) as unknown as Uint8Array,
    getAuditTrail: async (documentId, { signal } = {}) =>
      (await call('getAuditTrail', { params: { documentId }, signal })).data,
    verifyDocument: async (file, { signal } = {}) => {
      const form = new FormData();
      form.set('file', file, 'document.pdf');
      return (await call('verifyDocument', { body: form, signal })).data;
    },
    createWebhook: async (body, { signal } = {}) => (await call('createWebhook', { body, signal, replayable: false })).data,
    listWebhooks: async ({ limit, cursor, signal } = {}) => {
      const { data, pagination } = await call('listWebhooks', { query: pageQuery({ limit, cursor }), signal });
      return { data, pagination };
    },
    getWebhook: async (webhookId, { signal } = {}) => (await call('getWebhook', { params: { webhookId }, signal })).data,
    updateWebhook: async (webhookId, body, { signal } = {}) =>
      (await call('updateWebhook', { params: { webhookId }, body, signal })).data,
    deleteWebhook: async (webhookId, { signal } = {}) => (await call('deleteWebhook', { params: { webhookId }, signal })).data,
    rotateWebhookSecret: async (webhookId, { signal } = {}) =>
      (await call('rotateWebhookSecret', { params: { webhookId }, signal, replayable: false })).data,
    listWebhookDeliveries: async (webhookId, { limit, cursor, signal } = {}) => {
      const query = pageQuery({ limit, cursor });
      const { data, pagination } = await call('listWebhookDeliveries', { params: { webhookId }, query, signal });
      return { data, pagination };
    },
    retryWebhookDelivery: async (webhookId, deliveryId, { signal } = {}) =>
      (await call('retryWebhookDelivery', { params: { webhookId, deliveryId }, signal, replayable: false })).data,
    sendTestWebhook: async (webhookId, { signal } = {}) =>
      (await call('testWebhook', { params: { webhookId }, signal, replayable: false })).data,
    getOrganization: async ({ signal } = {}) => (await call('getOrganization', { signal })).data,
    updateOrganization: async (body, { signal } = {}) => (await call('updateOrganization', { body, signal })).data,
    get rateLimit() {
      return transport.rateLimit;
    },
  };
}

/** The query of a list endpoint (an empty cursor is the first page). */
/** The multipart form of `POST /documents`: the file, its fields (when given), signers and signing order. */
function uploadForm(input: DocumentUpload & { tags?: boolean; formFields?: 'import' | 'keep' }) {
  const form = new FormData();
  form.set('file', input.file, input.filename ?? 'document.pdf');
  if (input.fields) form.set('fields', JSON.stringify(input.fields));
  if (input.tags !== undefined) form.set('tags', String(input.tags));
  if (input.formFields) form.set('formFields', input.formFields);
  if (input.filename) form.set('filename', input.filename);
  if (input.signers) form.set('signers', JSON.stringify(input.signers));
  if (input.signingOrder) form.set('signingOrder', input.signingOrder);
  if (input.expiresAt) form.set('expiresAt', input.expiresAt);
  if (input.delivery) form.set('delivery', input.delivery);
  if (input.reminders) form.set('reminders', JSON.stringify(input.reminders));
  return form;
}

/** What `createTemplate` uploads (docs/templates.md). */
export interface TemplateUpload {
  file: Blob;
  name?: string;
  filename?: string;
  fields?: FieldDefinition[];
  roles?: TemplateRole[];
  signingOrder?: SigningOrder;
  expiresInDays?: number;
  /** Turn the PDF's text tags into fields (docs/text-tags.md). */
  tags?: boolean;
  /** `import`: turn the PDF's form fields into fields (docs/form-fields.md). */
  formFields?: 'import' | 'keep';
}

function templateForm(input: TemplateUpload) {
  const form = new FormData();
  form.set('file', input.file, input.filename ?? 'document.pdf');
  if (input.name !== undefined) form.set('name', input.name);
  if (input.filename) form.set('filename', input.filename);
  if (input.fields) form.set('fields', JSON.stringify(input.fields));
  if (input.roles) form.set('roles', JSON.stringify(input.roles));
  if (input.signingOrder) form.set('signingOrder', input.signingOrder);
  if (input.expiresInDays !== undefined) form.set('expiresInDays', String(input.expiresInDays));
  if (input.tags !== undefined) form.set('tags', String(input.tags));
  if (input.formFields) form.set('formFields', input.formFields);
  return form;
}

function pageQuery({ limit, cursor }: Pick<ListOptions, 'limit' | 'cursor'>) {
  return { limit: limit === undefined ? undefined : String(limit), cursor: cursor || undefined };
}

/**
 * A fresh `Idempotency-Key`: 128 random bits in hex (`crypto.randomUUID` exists only on secure origins,
 * `getRandomValues` everywhere). Keep one per submission to retry it safely across calls.
 * @example client.submitDocument(payload, { idempotencyKey: newIdempotencyKey() })
 */
export function newIdempotencyKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}/** What `createDocument` and `createDraft` upload: the PDF and the parts of `POST /documents` (docs/api-guide.md). */
export interface DocumentUpload {
  file: Blob;
  filename?: string;
  /** Required when creating a signable document, unless `tags` or `formFields: 'import'` find them in the PDF. */
  fields?: FieldDefinition[];
  signers?: SignerDefinition[];
  signingOrder?: SigningOrder;
  expiresAt?: string;
  /** `email`: Signet e-mails each signer with an `email` a link to sign when their turn comes (docs/email.md). */
  delivery?: Delivery;
  /** With `delivery: 'email'`: reminders to the signers who have not signed. */
  reminders?: Reminders;
}


