import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDF, rgb } from '@libpdf/core';
import { canonicalPayload, submissionChecksum, type FieldDefinition } from '@signet/contract';
import { newId } from '../src/ids.js';
import { createApiKeyRecord } from '../src/documents/seed.js';
import { generateApiKey } from '../src/keys.js';
import { generateSamplePdf, sampleFields } from '../src/pdf/sample.js';
import { openStorage } from '../src/storage/index.js';
import { recordAuditEvent } from '../src/storage/queries/audit.js';
import { writeDocumentContent } from '../src/storage/queries/document-files.js';
import { insertDocument } from '../src/storage/queries/documents.js';
import { insertSigners } from '../src/storage/queries/signers.js';
import { newDocumentRecord } from '../src/documents/create-document.js';
import type { NewDocument, Storage } from '../src/storage/types.js';
import { dataUrlOf, makePng } from '../test/submissions/test-png.js';
import { storeDocument } from '../src/documents/create-document.js';
import { insertApiKey } from '../src/storage/queries/api-keys.js';
import { readDocumentContent } from '../src/storage/queries/document-files.js';
import { findDocument } from '../src/storage/queries/documents.js';
import { ensureOrganization } from '../src/storage/queries/organizations.js';

/** Size of the signature image of every benchmark submission (the "20 KB signature PNG"). */
export const SIGNATURE_PNG_BYTES = 20 * 1024;

/** What the benchmark runs against: a fresh embedded database with a key and its documents. */
export interface BenchFixtures {
  dir: string;
  databaseUrl: string;
  databasePath: string;
  apiKey: string;
  /** An sk key that may upload documents (the hostile-upload phase). */
  uploadKey: string;
  /** The document every GET asks for: the 3-page sample agreement with a field of every type. */
  getDocumentId: string;
  /** Never-submitted documents (1 page: two required text fields, one required signature), one per submission. */
  submitDocumentIds: string[];
  setupMs: number;
}

/** The fields of a submit-phase document: exactly two required text fields and one required signature. */
export const SUBMIT_FIELDS: FieldDefinition[] = [
  { id: 'signer_name', type: 'text', label: 'Full legal name', required: true, editable: true, page: 1, x: 0.1176, y: 0.2374, width: 0.3627, height: 0.0278 },
  { id: 'signer_title', type: 'text', label: 'Title', required: true, editable: true, page: 1, x: 0.5196, y: 0.2374, width: 0.3627, height: 0.0278 },
  { id: 'signature', type: 'signature', label: 'Signature', required: true, editable: true, page: 1, x: 0.1176, y: 0.6894, width: 0.4412, height: 0.0808 },
];

/** A small one-page PDF with the boxes of {@link SUBMIT_FIELDS} drawn on it. */
async function submitPdf(): Promise<Uint8Array> {
  const pdf = PDF.create();
  const page = pdf.addPage({ width: 612, height: 792 });
  page.drawText('Benchmark agreement', { x: 72, y: 720, size: 16, font: 'Helvetica' });
  for (const field of SUBMIT_FIELDS) {
    const [x, width, height] = [field.x * 612, field.width * 612, field.height * 792];
    page.drawRectangle({ x, y: 792 - field.y * 792 - height, width, height, color: rgb(0, 0, 0) });
    page.drawText(field.label, { x, y: 792 - field.y * 792 + 4, size: 8, font: 'Helvetica' });
  }
  return pdf.save();
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * A fresh temporary database: an organization, a pk key whose rate limit cannot interfere, the GET document
 * (created through `Storage.createDocument`, the real path) and `submitDocuments` pending documents. Those are
 * written in one transaction with the storage's own statements (`insertPendingDocuments`): through
 * `createDocument` each would be its own synced commit, tens of seconds for a pool this size.
 */
export async function createFixtures(submitDocuments: number, postgresUrl?: string): Promise<BenchFixtures> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'signet-bench-'));
  const databasePath = join(dir, 'bench.db');
  const databaseUrl = postgresUrl ?? `file:${databasePath}`;

  const storage = await openStorage(databaseUrl);
  let apiKey: string;
  let uploadKey: string;
  let getDocumentId: string;
  let organizationId: string;
  try {
    const org = await ensureOrganization(storage.db.query, 'bench', 'Benchmark Inc.');
    organizationId = org.id;
    const { secret, hash, prefix } = generateApiKey('pk');
    apiKey = secret;
    await insertApiKey(storage.db.query, {
      id: newId('key'),
      organizationId,
      kind: 'pk',
      hash,
      displayPrefix: prefix,
      scopes: ['documents:read', 'documents:submit'],
      expiresAt: null,
      revokedAt: null,
      allowedOrigins: [],
      rateLimit: 10_000_000,
      createdAt: new Date().toISOString(),
    });
    uploadKey = (await createApiKeyRecord(storage, { organizationId, kind: 'sk', rateLimit: 10_000_000 })).key;
    getDocumentId = await storeGetDocument(storage, organizationId, await generateSamplePdf({ pages: 3 }));
  } finally {
    await storage.close();
  }

  const spec = { pdf: await submitPdf(), pageCount: 1, fields: SUBMIT_FIELDS, filename: 'bench-agreement.pdf' };
  const submitDocumentIds = await insertPendingDocuments(databaseUrl, organizationId, spec, submitDocuments);
  await checkRoundTrip(databaseUrl, submitDocumentIds[0]!, SUBMIT_FIELDS);
  return {
    dir,
    databaseUrl,
    databasePath,
    apiKey,
    uploadKey,
    getDocumentId,
    submitDocumentIds,
    setupMs: performance.now() - started,
  };
}

/** What {@link insertPendingDocuments} writes, as many times as asked. */
export interface PendingDocumentSpec {
  pdf: Uint8Array;
  pageCount: number;
  fields: FieldDefinition[];
  filename: string;
}

/**
 * Writes `count` pending documents of `spec` into the database `databaseUrl` names in one transaction, with
 * the storage's own statements and row mapping (`INSERT_DOCUMENT`, `documentValues`, `writeChunks`,
 * `recordAuditEvent`: what `Storage.createDocument` writes, less the `document.created` webhook event, as the
 * benchmark registers no endpoint), and returns their ids.
 */
export async function insertPendingDocuments(
  databaseUrl: string,
  organizationId: string,
  spec: PendingDocumentSpec,
  count: number,
): Promise<string[]> {
  const { pdf } = spec;
  const base: Omit<NewDocument, 'id' | 'createdAt'> = {
    organizationId,
    filename: spec.filename,
    mimeType: 'application/pdf',
    pageCount: spec.pageCount,
    fileSize: pdf.byteLength,
    sha256: sha256(pdf),
    fields: spec.fields,
  };
  const storage = await openStorage(databaseUrl);
  try {
    const createdAt = new Date().toISOString();
    return await storage.db.transaction(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        // The rows `storeDocument` writes, through the same queries, without its webhook lookup per document.
        const record = newDocumentRecord({ ...base, id: newId('doc'), createdAt });
        await insertDocument(tx.query, record);
        await insertSigners(tx.query, record.id, record.signers);
        await writeDocumentContent(tx.query, record.id, pdf);
        await recordAuditEvent(tx.query, record.id, { type: 'document.created', occurredAt: createdAt });
        ids.push(record.id);
      }
      return ids;
    });
  } finally {
    await storage.close();
  }
}

/** The bulk-written rows must read back through the storage exactly as `createDocument` would have stored them. */
export async function checkRoundTrip(databaseUrl: string, id: string, fields: FieldDefinition[]): Promise<void> {
  const storage = await openStorage(databaseUrl);
  try {
    const document = await findDocument(storage.db.query, id);
    if (!document || document.status !== 'pending' || JSON.stringify(document.fields) !== JSON.stringify(fields)) {
      throw new Error(`bulk-created document ${id} does not read back through the storage as written`);
    }
    const head = await readDocumentContent(storage.db.query, id, 0, 4);
    if (Buffer.from(head).toString('latin1') !== '%PDF-') throw new Error(`document ${id} has no PDF content`);
  } finally {
    await storage.close();
  }
}

const ID_MARK = `doc_${'Q'.repeat(24)}`;
const CHECKSUM_MARK = '@@CHECKSUM@@';

/**
 * Builds submit bodies fast: the canonical JSON is serialised once with a marker id and only the id changes from
 * one request to the next (ids are [A-Za-z0-9_], so the text stays canonical), then hashed with node:crypto.
 */
export interface SubmitBodies {
  /** The body (JSON) for `documentId` and the checksum it carries. */
  build(documentId: string): { body: Buffer; checksum: string };
  /** Bytes of one body. */
  size: number;
  imageBytes: number;
}

/** Splits `text` around the single occurrence of `mark`. */
function around(text: string, mark: string): [string, string] {
  const parts = text.split(mark);
  if (parts.length !== 2) throw new Error(`expected one "${mark}" in the template, found ${parts.length - 1}`);
  return [parts[0]!, parts[1]!];
}

/** The realistic payload of a submit-phase document: two short texts and a ~20 KB signature PNG. */
export async function submitBodies(): Promise<SubmitBodies> {
  const png = makePng(480, 120, { size: SIGNATURE_PNG_BYTES });
  const values: Record<string, object> = {
    signer_name: { type: 'text', content: 'Ada Lovelace' },
    signer_title: { type: 'text', content: 'Chief Analytical Engine Officer' },
    signature: { type: 'signature', imageData: dataUrlOf(png) },
  };
  const payload = {
    documentId: ID_MARK,
    submittedAt: new Date().toISOString(),
    renderContext: { scale: 1.5, viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 2 },
    pages: [{ pageNumber: 1, width: 612, height: 792, rotation: 0 }],
    fields: SUBMIT_FIELDS.map((field) => ({
      id: field.id,
      type: field.type,
      page: field.page,
      position: { x: field.x, y: field.y, width: field.width, height: field.height },
      value: values[field.id],
      ...(field.type === 'text' ? { style: { fontSize: 14, fontFamily: 'Helvetica', textAlign: 'left' } } : {}),
    })),
  };
  const [canonicalHead, canonicalTail] = around(canonicalPayload(payload), ID_MARK);
  const [bodyHead, bodyRest] = around(JSON.stringify({ ...payload, checksum: CHECKSUM_MARK }), ID_MARK);
  const [bodyMiddle, bodyTail] = around(bodyRest, CHECKSUM_MARK);
  const [head, middle, tail] = [bodyHead, bodyMiddle, bodyTail].map((part) => Buffer.from(part, 'utf8')) as [Buffer, Buffer, Buffer];

  const build = (documentId: string) => {
    const checksum = createHash('sha256').update(canonicalHead).update(documentId).update(canonicalTail).digest('hex');
    const body = Buffer.concat([head, Buffer.from(documentId, 'latin1'), middle, Buffer.from(checksum, 'latin1'), tail]);
    return { body, checksum };
  };

  // The shortcut must agree with the contract's own checksum, or every submission would be a 422.
  const probeId = newId('doc');
  const probe = build(probeId);
  const expected = await submissionChecksum({ ...payload, documentId: probeId });
  const parsed = JSON.parse(probe.body.toString('utf8')) as { checksum: string; documentId: string };
  if (probe.checksum !== expected || parsed.checksum !== expected || parsed.documentId !== probeId) {
    throw new Error('the templated submit body does not carry the contract checksum');
  }
  return { build, size: probe.body.length, imageBytes: png.length };
}

/**
 * The GET phases' document, stored directly: a 3-page sample agreement (`pdf`) with the sample's fields; its id.
 * @example const getDocumentId = await storeGetDocument(storage, organizationId, await generateSamplePdf({ pages: 3 }))
 */
export async function storeGetDocument(storage: Storage, organizationId: string, pdf: Uint8Array): Promise<string> {
  const document = await storeDocument(storage,
    {
      id: newId('doc'),
      organizationId,
      filename: 'agreement.pdf',
      mimeType: 'application/pdf',
      pageCount: 3,
      fileSize: pdf.byteLength,
      sha256: sha256(pdf),
      fields: sampleFields(3),
      createdAt: new Date().toISOString(),
    },
    pdf,
  );
  return document.id;
}
