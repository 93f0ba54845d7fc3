import { enqueueJob } from '../jobs/generic-queue.js';
import { expireJob, parseExpiresAt } from './expiry.js';
import { createHash } from 'node:crypto';
import {
  FieldDefinitionListSchema,
  SignerDefinitionListSchema,
  SigningOrderSchema,
  fieldDefinitionIssues,
  signerIssues,
  type FieldDefinition,
  type FieldDefinitionIssue,
  type SignerDefinition,
  type SigningOrder,
} from '@signet/contract';
import { tooLarge, validationError } from '../errors.js';
import { issueDetails } from '../http/validation.js';
import { newId } from '../ids.js';
import { createLogger, type Logger } from '../logger.js';
import type { PdfInfo } from '../pdf/inspect.js';
import { refusingFile, type PdfPool } from '../pdf/pool/index.js';
import { recordAuditEvent } from '../storage/queries/audit.js';
import { writeDocumentContent } from '../storage/queries/document-files.js';
import { insertDocument } from '../storage/queries/documents.js';
import { insertSigners } from '../storage/queries/signers.js';
import { protectAccessCodes } from '../signer-auth/codes.js';
import { assertEmailCodesSendable } from '../signer-auth/mail-required.js';
import { IMPLICIT_SIGNER, type DocumentRecord, type EmailDelivery, type NewDocument, type Storage } from '../storage/types.js';
import { enqueueInvitations, INVITATION_KIND } from '../mail/delivery.js';
import { jobsEnqueued } from '../jobs/wake.js';
import { enqueueWebhookEvent } from '../storage/queries/webhook-deliveries.js';
import { webhookEventsEnqueued } from '../webhooks/wake.js';
import { sharedPdfPool } from '../pdf-worker/index.js';
import type { Queryable } from '../storage/sql-database.js';
import { storeDocumentPreview } from './document-preview.js';
import { unsafePatternIssues } from './pattern-safety.js';
import { importsAsked, mergeFoundFields, prepareUpload, type UploadImports } from './prepare-upload.js';

export interface CreateDocumentInput extends UploadImports {
  organizationId: string;
  filename?: string;
  bytes: Uint8Array;
  /** The field definitions: a JSON string (as uploaded) or an already parsed value. */
  fields: unknown;
  /** Whether the server sends e-mail: when false, signers with `auth: "email_code"` are refused (unset: not checked). */
  mailConfigured?: boolean;
  /** The signers, like `fields`: absent for a document with one implicit signer. */
  signers?: unknown;
  /** `parallel` (default) or `sequential`; only with `signers`. */
  signingOrder?: unknown;
  /** When it expires unless completed: an ISO 8601 time in the future, at most a year ahead (docs/lifecycle.md). */
  expiresAt?: unknown;
  /**
   * A draft (docs/api.md, "Drafts"): not signable until sent; `fields` may be left out, and hold fields still being
   * set up (sending checks them).
   */
  draft?: boolean;
  /** Delivery by e-mail, checked (`parseDelivery`): its signers are invited when their turn comes (docs/email.md). */
  delivery?: EmailDelivery;
  maxPdfBytes: number;
  /** Where a first page that cannot be drawn as a preview is reported (default: warnings on stderr). */
  logger?: Logger;
  /** Where the PDF is inspected and drawn (default: the process's shared pool). */
  pdfPool?: PdfPool;
}

const MAX_FILENAME_LENGTH = 255;

/** Where a caller that passes no logger (the command line, the seed) has an undrawable first page reported. */
let stderrLogger: Logger | undefined;

/**
 * A file name safe to show and to put in `Content-Disposition`: the last path segment, without control or
 * bidirectional-override characters (which can disguise an extension), at most 255 characters with the extension
 * kept when shortened; `document.pdf` when nothing usable is left.
 * @example cleanFilename('C:\\Users\\me\\lease.pdf') // 'lease.pdf'
 */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/\s+/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  if (clean === '' || clean === '.' || clean === '..') return 'document.pdf';
  const chars = Array.from(clean); // code points, so that a surrogate pair is never cut in half
  if (chars.length <= MAX_FILENAME_LENGTH) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= 16 ? Array.from(clean.slice(dot)) : [];
  return [...chars.slice(0, MAX_FILENAME_LENGTH - extension.length), ...extension].join('');
}

/**
 * Inspects an upload in the PDF pool: a file the pool stops at its time or memory limit is refused as a 422 naming
 * the limit, so that the uploader learns why; a full pool answers 503 (`PdfPoolBusyError`).
 */
export function inspectUpload(pdfPool: PdfPool, bytes: Uint8Array): Promise<PdfInfo> {
  return refusingFile(() => pdfPool.run('inspect', bytes), { cannot: 'the PDF cannot be processed', failed: 'the PDF could not be processed' });
}

/**
 * Creates a document from a PDF and its field definitions (docs/api.md, "Management endpoints"): the file must be a PDF that parses, no larger
 * than `maxPdfBytes` (else 413); the fields must have the contract's shape and fit the document (else 400 naming
 * the first bad member, such as `fields[2].x`); the file is inspected off the event loop, within the PDF pool's limits
 * (else 422). Its page-1 preview is drawn and stored with it; a PDF whose first
 * page cannot be drawn still makes a document, one without a preview.
 * @example await createDocument(storage, { organizationId, filename: 'nda.pdf', bytes, fields, maxPdfBytes, logger })
 */
export async function createDocument(storage: Storage, input: CreateDocumentInput): Promise<DocumentRecord> {
  if (input.bytes.byteLength > input.maxPdfBytes) throw tooLarge('file', input.maxPdfBytes);
  const pdfPool = input.pdfPool ?? sharedPdfPool();
  const draft = input.draft === true;
  const given = input.fields === undefined ? undefined : parseJsonPart('fields', input.fields, 'a JSON array of field definitions');
  if (given === undefined && !draft && !importsAsked(input)) throw validationError('fields', 'is required: a JSON array of field definitions');
  const { pageCount } = await inspectUpload(pdfPool, input.bytes);
  // Finding tags or form fields removes them from the PDF: what is stored is `bytes`, with the same pages.
  const { bytes, found } = await prepareUpload(pdfPool, input.bytes, input);
  const fields = mergeFoundFields(given, found);
  const parsed = FieldDefinitionListSchema.safeParse(fields ?? []);
  if (!parsed.success) {
    const { field, reason } = issueDetails(parsed.error, ['fields']);
    throw validationError(field, reason);
  }
  const { signers, signingOrder } = parseSigners(input);
  if (input.mailConfigured !== undefined) assertEmailCodesSendable(signers, input.mailConfigured);
  const expiresAt = parseExpiresAt(input.expiresAt, new Date());
  const issue = contentIssues(parsed.data, signers, pageCount, draft)[0];
  if (issue) throw validationError(issue.field, issue.reason);

  const document = await storeDocument(
    storage,
    {
      id: newId('doc'),
      organizationId: input.organizationId,
      filename: cleanFilename(input.filename),
      mimeType: 'application/pdf',
      pageCount,
      fileSize: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      fields: parsed.data,
      ...(signers ? { signers, signingOrder } : {}),
      createdAt: new Date().toISOString(),
      ...(draft ? { draft } : {}),
      ...(expiresAt ? { expiresAt } : {}),
      ...(input.delivery ? { delivery: input.delivery } : {}),
    },
    bytes,
  );
  const logger = input.logger ?? (stderrLogger ??= createLogger('warn', process.stderr));
  await storeDocumentPreview({ storage, logger, pdfPool }, document.id, bytes);
  return document;
}

/** A new document as it is stored: pending, version 1, with its signers (the implicit one when it has none). */
export function newDocumentRecord(document: NewDocument): DocumentRecord {
  const { signers, signingOrder = 'parallel', draft, ...rest } = document;
  return {
    ...rest,
    signers: signers ?? [{ ...IMPLICIT_SIGNER }],
    signingOrder,
    implicitSigner: signers === undefined,
    updatedAt: document.createdAt,
    version: 1,
    status: draft ? 'draft' : 'pending',
  };
}

/**
 * What fields and signers must keep to be stored: as at creation (docs/api.md, "Fields"), or, for a draft, only
 * where each field is and what it is, and whose (the rest is checked when it is sent: `draftProblems`).
 */
export function contentIssues(
  fields: readonly FieldDefinition[],
  signers: SignerDefinition[] | undefined,
  pageCount: number,
  draft: boolean,
): FieldDefinitionIssue[] {
  return [
    ...fieldDefinitionIssues(fields, pageCount, { draft }),
    ...(draft ? [] : unsafePatternIssues(fields)),
    ...signerIssues(signers, fields),
  ];
}

/**
 * Stores a new document, in one transaction: its row, its signers (without `signers`, the implicit one: docs/decisions.md,
 * "One document model"), its file, its `document.created` audit event and webhook event.
 * @example const document = await storeDocument(storage, { id, organizationId, filename, …, fields, createdAt }, bytes)
 */
export async function storeDocument(storage: Storage, document: NewDocument, content: Uint8Array): Promise<DocumentRecord> {
  const record = newDocumentRecord(document.signers ? { ...document, signers: await protectAccessCodes(document.signers) } : document);
  const enqueued = await storage.db.transaction((tx) => insertNewDocument(tx, record, content));
  webhookEventsEnqueued(storage.db, enqueued);
  if (record.delivery) jobsEnqueued(storage.db, INVITATION_KIND.name);
  return record;
}

/**
 * `storeDocument`'s writes in the caller's transaction (bulk creation stores many in one): resolves with the webhook
 * events enqueued, which the caller announces after its commit (`webhookEventsEnqueued`).
 */
export async function insertNewDocument(tx: Queryable, record: DocumentRecord, content: Uint8Array): Promise<number> {
  if (record.fileSize !== content.length) {
    throw new Error(`Document ${record.id}: fileSize ${record.fileSize} differs from its ${content.length} bytes`);
  }
  await insertDocument(tx.query, record);
  await insertSigners(tx.query, record.id, record.signers);
  await writeDocumentContent(tx.query, record.id, content);
  await recordAuditEvent(tx.query, record.id, { type: 'document.created', occurredAt: record.createdAt });
  if (record.expiresAt) await enqueueJob(tx, expireJob, { documentId: record.id }, { key: record.id, runAt: new Date(record.expiresAt) });
  // Its signers' invitations by e-mail, when it is signable and asked for them (docs/email.md).
  await enqueueInvitations(tx, record, []);
  return enqueueWebhookEvent(tx.query, {
    type: 'document.created',
    organizationId: record.organizationId,
    documentId: record.id,
    occurredAt: record.createdAt,
    data: { documentId: record.id, filename: record.filename, pageCount: record.pageCount, createdAt: record.createdAt },
  });
}

/** A JSON part of the upload (a string as uploaded, or a value already parsed); a 400 naming it when it is not JSON. */
export function parseJsonPart(part: string, value: unknown, what: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw validationError(part, `must be ${what}`);
  }
}

/** The `signers` and `signingOrder` parts: both absent, or valid signers and an order (default `parallel`). */
export function parseSigners(input: CreateDocumentInput): { signers?: SignerDefinition[]; signingOrder?: SigningOrder } {
  if (input.signers === undefined) {
    if (input.signingOrder !== undefined) throw validationError('signingOrder', 'applies only to a document with "signers"');
    return {};
  }
  const parsed = SignerDefinitionListSchema.safeParse(parseJsonPart('signers', input.signers, 'a JSON array of signers'));
  if (!parsed.success) {
    const { field, reason } = issueDetails(parsed.error, ['signers']);
    throw validationError(field, reason);
  }
  const order = SigningOrderSchema.safeParse(input.signingOrder ?? 'parallel');
  if (!order.success) throw validationError('signingOrder', 'must be "parallel" or "sequential"');
  return { signers: parsed.data, signingOrder: order.data };
}
