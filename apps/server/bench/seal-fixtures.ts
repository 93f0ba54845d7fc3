import { join } from 'node:path';
import { submissionChecksum, submittedFields, type FieldDefinition, type FieldValue, type TextStyle } from '@signet/contract';
import { createApiKeyRecord } from '../src/documents/seed.js';
import { generateSamplePdf, sampleFields } from '../src/pdf/sample.js';
import { openStorage } from '../src/storage/index.js';
import { dataUrlOf, makePng, pngDataUrl } from '../src/submissions/test-png.js';
import { checkRoundTrip, insertPendingDocuments, SIGNATURE_PNG_BYTES, storeGetDocument } from './fixtures.js';
import { sampleValue } from '../src/pdf/sample-values.js';

/** One kind of document the sealing phases submit, and the fresh pending copies of it left to submit. */
export interface SealDocumentKind {
  pageCount: number;
  fields: FieldDefinition[];
  /** Size of its PDF (bytes). */
  bytes: number;
  /** Never-submitted documents of this kind; each submission takes one. */
  ids: string[];
}

/** The sealing phases' own embedded database: keys, the GET document and documents to submit and seal. */
export interface SealFixtures {
  databaseUrl: string;
  /** pk key: submits, and serves the GET load as in the GET phase. */
  submitKey: string;
  /** sk key: reads `GET /documents/{id}` (its `sealing`) while waiting for seals. */
  readKey: string;
  getDocumentId: string;
  small: SealDocumentKind;
  large: SealDocumentKind;
  setupMs: number;
}

/** The 3-page sample agreement's fields without its read-only, prefilled agreement number: six the signer fills. */
export function smallDocumentFields(): FieldDefinition[] {
  return sampleFields(3).filter((field) => field.editable);
}

/** The 300-page document's fields: the sample's signature block (checkbox, signature, date), all on its last page. */
export function largeDocumentFields(pageCount: number): FieldDefinition[] {
  return sampleFields(pageCount).filter((field) => field.page === pageCount);
}

/**
 * A fresh embedded database `seal.db` in `dir` with an organization, unlimited pk and sk keys, the 3-page sample as
 * the GET document, `counts.small` pending 3-page documents and `counts.large` pending 300-page ones (text-only
 * PDFs from `generateSamplePdf`; every copy of a kind has the same bytes under its own id).
 */
export async function createSealFixtures(dir: string, counts: { small: number; large: number; largePages: number }): Promise<SealFixtures> {
  const started = performance.now();
  const databasePath = join(dir, 'seal.db');
  const databaseUrl = `file:${databasePath}`;
  const [smallPdf, largePdf] = await Promise.all([generateSamplePdf({ pages: 3 }), generateSamplePdf({ pages: counts.largePages })]);

  const storage = await openStorage(databaseUrl);
  let organizationId: string;
  let submitKey: string;
  let readKey: string;
  let getDocumentId: string;
  try {
    organizationId = (await storage.ensureOrganization('bench-seal', 'Benchmark Sealing Inc.')).id;
    submitKey = (await createApiKeyRecord(storage, { organizationId, kind: 'pk', rateLimit: 10_000_000 })).key;
    readKey = (await createApiKeyRecord(storage, { organizationId, kind: 'sk', rateLimit: 10_000_000 })).key;
    getDocumentId = await storeGetDocument(storage, organizationId, smallPdf);
  } finally {
    await storage.close();
  }

  const kind = async (pdf: Uint8Array, pageCount: number, fields: FieldDefinition[], count: number): Promise<SealDocumentKind> => {
    const spec = { pdf, pageCount, fields, filename: `bench-${pageCount}-pages.pdf` };
    const ids = await insertPendingDocuments(databasePath, organizationId, spec, count);
    await checkRoundTrip(databaseUrl, ids[0]!, fields);
    return { pageCount, fields, bytes: pdf.byteLength, ids };
  };
  const small = await kind(smallPdf, 3, smallDocumentFields(), counts.small);
  const large = await kind(largePdf, counts.largePages, largeDocumentFields(counts.largePages), counts.large);
  return { databaseUrl, submitKey, readKey, getDocumentId, small, large, setupMs: performance.now() - started };
}

const SIGNATURE = dataUrlOf(makePng(480, 120, { size: SIGNATURE_PNG_BYTES }));
const INITIALS = pngDataUrl(120, 60);
const TEXT_STYLE: TextStyle = { fontSize: 14, fontFamily: 'Helvetica', textAlign: 'left' };

/** A value for every field, as a signer completes them: the signature is the submit phase's 20 KB PNG. */
function valueOf(field: FieldDefinition): FieldValue {
  return field.type === 'initials' ? { type: 'initials', imageData: INITIALS } : sampleValue(field, SIGNATURE);
}

/**
 * The JSON body of a submission completing every field of `documentId` (of `kind`), with the contract's checksum
 * and `submittedAt` now.
 */
export async function sealSubmissionBody(kind: SealDocumentKind, documentId: string): Promise<string> {
  const values = Object.fromEntries(kind.fields.map((field) => [field.id, valueOf(field)]));
  const payload: Record<string, unknown> = {
    documentId,
    submittedAt: new Date().toISOString(),
    renderContext: { scale: 1.5, viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 2 },
    pages: Array.from({ length: kind.pageCount }, (_, i) => ({ pageNumber: i + 1, width: 612, height: 792, rotation: 0 })),
    fields: submittedFields(kind.fields, values, () => TEXT_STYLE),
  };
  payload.checksum = await submissionChecksum(payload);
  return JSON.stringify(payload);
}
