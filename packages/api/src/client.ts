import {
  DocumentMetadataSchema,
  KeyValidationResultSchema,
  ManagedDocumentSchema,
  SdkDocumentSchema,
  SubmissionRecordSchema,
  SubmissionResultSchema,
  paginatedList,
  successEnvelope,
  type DocumentMetadata,
  type FieldDefinition,
  type KeyValidationResult,
  type ManagedDocument,
  type Pagination,
  type SdkDocument,
  type SubmissionPayload,
  type SubmissionRecord,
  type SubmissionResult,
} from '@signet/contract';
import type { RateLimitInfo } from './rate-limit.js';
import { retryPolicy, type RetryOptions } from './retry.js';
import { Transport } from './transport.js';

export interface SigningClientOptions {
  /** A `pk_` key in browsers; an `sk_` key on servers (needed for `listDocuments` and `getSubmission`). */
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

/** A page of `GET /documents`. */
export interface DocumentPage {
  data: DocumentMetadata[];
  pagination: Pagination;
}

export interface SigningClient {
  /** `POST /sdk/validate-key`: `{ valid: true, … }`, or `{ valid: false, error }` for an unusable key. */
  validateKey(options?: { signal?: AbortSignal }): Promise<KeyValidationResult>;
  /** `GET /sdk/documents/{documentId}`: metadata, the PDF's URL and the field definitions. */
  getDocument(documentId: string, options?: { signal?: AbortSignal }): Promise<SdkDocument>;
  /** `POST /sdk/documents/submit`, always with an `Idempotency-Key`, so a retried submit never submits twice. */
  submitDocument(payload: SubmissionPayload, options?: SubmitOptions): Promise<SubmissionResult>;
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
  createDocument(input: { file: Blob; filename?: string; fields: FieldDefinition[] }, options?: { signal?: AbortSignal }): Promise<ManagedDocument>;
  /** `GET /documents/{documentId}/submission` (sk key): the stored submission of a completed document. */
  getSubmission(documentId: string, options?: { signal?: AbortSignal }): Promise<SubmissionRecord>;
  /** The `X-RateLimit-*` headers of the last response that had them. */
  readonly rateLimit: RateLimitInfo | null;
}

const DocumentListSchema = paginatedList(DocumentMetadataSchema);
const SubmissionEnvelopeSchema = successEnvelope(SubmissionRecordSchema);
const ManagedDocumentEnvelopeSchema = successEnvelope(ManagedDocumentSchema);
/** validate-key's refusal (SPEC §2): a 401 whose body is `{ valid: false, error }`, not an error envelope. */
const KeyRefusalSchema = KeyValidationResultSchema.refine((result) => !result.valid);

/**
 * A client of the Signet API for browsers and Node 20+.
 * @example
 * const client = createSigningClient({ apiKey: 'pk_…', baseUrl: 'https://sign.example.com' });
 * const document = await client.getDocument('doc_…');
 */
export function createSigningClient(options: SigningClientOptions): SigningClient {
  const transport = new Transport({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs ?? 10_000,
    retry: retryPolicy(options.retry),
    // Bound late, so that a host that replaces `fetch` after creating the client (or a test) is honoured.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  });

  const listDocuments = async ({ limit, cursor, signal }: ListOptions = {}): Promise<DocumentPage> => {
    const query = new URLSearchParams();
    if (limit !== undefined) query.set('limit', String(limit));
    if (cursor) query.set('cursor', cursor);
    const path = `/documents${query.size > 0 ? `?${query}` : ''}`;
    const { data, pagination } = await transport.send({ method: 'GET', path, signal, schema: DocumentListSchema });
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
    validateKey: ({ signal } = {}) =>
      transport.send({
        method: 'POST',
        path: '/sdk/validate-key',
        signal,
        schema: KeyValidationResultSchema,
        failureSchema: KeyRefusalSchema,
      }),
    getDocument: (documentId, { signal } = {}) =>
      transport.send({ method: 'GET', path: `/sdk/documents/${encodeURIComponent(documentId)}`, signal, schema: SdkDocumentSchema }),
    submitDocument: (payload, { idempotencyKey = newIdempotencyKey(), signal } = {}) =>
      transport.send({
        method: 'POST',
        path: '/sdk/documents/submit',
        body: payload,
        headers: { 'Idempotency-Key': idempotencyKey },
        signal,
        schema: SubmissionResultSchema,
      }),
    listDocuments,
    documentPages,
    async *allDocuments(list = {}) {
      for await (const page of documentPages(list)) yield* page.data;
    },
    createDocument: async ({ file, filename, fields }, { signal } = {}) => {
      const form = new FormData();
      form.set('file', file, filename ?? 'document.pdf');
      form.set('fields', JSON.stringify(fields));
      if (filename) form.set('filename', filename);
      const created = await transport.send({
        method: 'POST',
        path: '/documents',
        body: form,
        signal,
        schema: ManagedDocumentEnvelopeSchema,
        replayable: false,
      });
      return created.data;
    },
    getSubmission: async (documentId, { signal } = {}) => {
      const path = `/documents/${encodeURIComponent(documentId)}/submission`;
      return (await transport.send({ method: 'GET', path, signal, schema: SubmissionEnvelopeSchema })).data;
    },
    get rateLimit() {
      return transport.rateLimit;
    },
  };
}

/**
 * A fresh `Idempotency-Key`: 128 random bits in hex (`crypto.randomUUID` exists only on secure origins,
 * `getRandomValues` everywhere). Keep one per submission to retry it safely across calls.
 * @example client.submitDocument(payload, { idempotencyKey: newIdempotencyKey() })
 */
export function newIdempotencyKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
