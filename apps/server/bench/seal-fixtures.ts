import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { submissionChecksum, submittedFields, type FieldDefinition, type FieldValue, type TextStyle } from '@signet/contract';
import { createApiKeyRecord } from '../src/documents/seed.js';
import { generateSamplePdf, sampleFields } from '../src/pdf/sample.js';
import { openStorage } from '../src/storage/index.js';
import { dataUrlOf, makePng, pngDataUrl } from '../test/submissions/test-png.js';
import { checkRoundTrip, insertPendingDocuments, SIGNATURE_PNG_BYTES, storeGetDocument } from './fixtures.js';
import { sampleValue } from '../src/pdf/sample-values.js';
import { largeTextPdf } from '../test/sealing/test-large-pdf.js';
import { ensureOrganization } from '../src/storage/queries/organizations.js';

/** One kind of document the sealing phases submit, and the fresh pending copies of it left to submit. */
export interface SealDocumentKind {
  pageCount: number;
  fields: FieldDefinition[];
  /** Size of its PDF (bytes). */
  bytes: number;
  /** Never-submitted documents of this kind; each submission takes one. */
  ids: string[];
  /** The keys of its organization: pk to submit, sk to read its sealing status. */
  keys: { submit: string; read: string };
  /** Values for some of its fields, instead of the sample's (the photo). */
  values?: Record<string, FieldValue>;
}

/** The organization a kind of document belongs to, and its keys. */
type KindOwner = { organizationId: string; keys: SealDocumentKind['keys'] };

/** The loaded seal's heavy documents, in an organization of their own: one very long, one with a big photo. */
export interface HeavySeal {
  huge: SealDocumentKind;
  photo: SealDocumentKind & { photo: { side: number; bytes: number } };
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
  /** Null when the loaded seal is not run. */
  heavy: HeavySeal | null;
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
export async function createSealFixtures(
  dir: string,
  counts: { small: number; large: number; largePages: number; heavy: { pages: number; photoSide: number } | null },
): Promise<SealFixtures> {
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
    organizationId = (await ensureOrganization(storage.db.query, 'bench-seal', 'Benchmark Sealing Inc.')).id;
    submitKey = (await createApiKeyRecord(storage, { organizationId, kind: 'pk', rateLimit: 10_000_000 })).key;
    readKey = (await createApiKeyRecord(storage, { organizationId, kind: 'sk', rateLimit: 10_000_000 })).key;
    getDocumentId = await storeGetDocument(storage, organizationId, smallPdf);
  } finally {
    await storage.close();
  }

  const kind = async (
    pdf: Uint8Array,
    pageCount: number,
    fields: FieldDefinition[],
    count: number,
    owner: KindOwner = { organizationId, keys: { submit: submitKey, read: readKey } },
  ): Promise<SealDocumentKind> => {
    const spec = { pdf, pageCount, fields, filename: `bench-${pageCount}-pages.pdf` };
    const ids = await insertPendingDocuments(databaseUrl, owner.organizationId, spec, count);
    await checkRoundTrip(databaseUrl, ids[0]!, fields);
    return { pageCount, fields, bytes: pdf.byteLength, ids, keys: owner.keys };
  };
  const small = await kind(smallPdf, 3, smallDocumentFields(), counts.small);
  const large = await kind(largePdf, counts.largePages, largeDocumentFields(counts.largePages), counts.large);
  const heavy = counts.heavy ? await heavyDocuments(databaseUrl, counts.heavy, kind) : null;
  return { databaseUrl, submitKey, readKey, getDocumentId, small, large, heavy, setupMs: performance.now() - started };
}

/**
 * The heavy documents of the loaded seal, in an organization of their own (another customer): a `pages`-page text
 * document (`largeTextPdf`; 10,000 pages are 17 MB) and a one-page document whose image field covers the page,
 * submitted with a `photoSide`² 16-bit RGBA PNG (`photoPng`).
 */
async function heavyDocuments(
  databaseUrl: string,
  sizes: { pages: number; photoSide: number },
  kind: (pdf: Uint8Array, pageCount: number, fields: FieldDefinition[], count: number, owner: KindOwner) => Promise<SealDocumentKind>,
): Promise<HeavySeal> {
  const storage = await openStorage(databaseUrl);
  let owner: KindOwner;
  try {
    const organizationId = (await ensureOrganization(storage.db.query, 'bench-heavy', 'Heavy Documents Ltd')).id;
    const submit = (await createApiKeyRecord(storage, { organizationId, kind: 'pk', rateLimit: 10_000_000 })).key;
    const read = (await createApiKeyRecord(storage, { organizationId, kind: 'sk', rateLimit: 10_000_000 })).key;
    owner = { organizationId, keys: { submit, read } };
  } finally {
    await storage.close();
  }
  const [hugePdf, photoPdf] = await Promise.all([largeTextPdf(sizes.pages), largeTextPdf(1)]);
  const huge = await kind(hugePdf, sizes.pages, largeDocumentFields(sizes.pages), 1, owner);
  const photoField: FieldDefinition = {
    ...{ id: 'photo', type: 'image', label: 'Photo', required: true, editable: true },
    ...{ page: 1, x: 0, y: 0, width: 1, height: 1 },
  };
  const png = photoPng(sizes.photoSide);
  const photo = await kind(photoPdf, 1, [photoField], 1, owner);
  const values: Record<string, FieldValue> = { photo: { type: 'image', imageData: dataUrlOf(png) } };
  return { huge, photo: { ...photo, values, photo: { side: sizes.photoSide, bytes: png.byteLength } } };
}

/**
 * A `side` × `side` PNG of 16 bits per channel, RGBA (colour type 6): a few bands of colour, so that it compresses
 * under the submission's 1 MiB image limit while it decodes to `side² × 8` bytes (128 MiB at 4096).
 */
export function photoPng(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 16; // bit depth
  header[9] = 6; // colour type: RGBA
  const stride = side * 8 + 1;
  const raw = Buffer.alloc(stride * side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const at = y * stride + 1 + x * 8;
      raw.writeUInt16BE(((x >> 8) * 4111) & 0xffff, at);
      raw.writeUInt16BE(((y >> 8) * 4111) & 0xffff, at + 2);
      raw.writeUInt16BE((((x + y) >> 9) * 8191) & 0xffff, at + 4);
      raw.writeUInt16BE(0xffff, at + 6);
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
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
  const values = Object.fromEntries(kind.fields.map((field) => [field.id, kind.values?.[field.id] ?? valueOf(field)]));
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
