import { createHash } from 'node:crypto';
import type { FieldDefinition } from '@signet/contract';
import { createApiKeyRecord, type NewApiKeyOptions } from '../documents/seed.js';
import { newId } from '../ids.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import type { Storage } from '../storage/types.js';
import { buildPayload } from '../test-support/harness.js';
import type { Answer } from './fuzz-oracle.js';
import type { FuzzKeys, FuzzRequest, FuzzTargets } from './fuzz-requests.js';

/** Documents kept pending at once; a completed one is replaced, so the checks before acceptance stay reachable. */
const PENDING_DOCUMENTS = 6;
const UNLIMITED = 1_000_000_000;

/** A sample PDF with fields that fit it. */
export type SamplePdf = { bytes: Uint8Array; fields: FieldDefinition[]; pages: number };

/** Where the targets are made: a storage, the organization the keys belong to, the server's PDF limit. */
export interface FuzzStore {
  storage: Storage;
  organizationId: string;
  maxPdfBytes: number;
}

/** A fuzz run's targets on a store, and what keeps them usable as the run completes documents. */
export interface FuzzSetup {
  targets: FuzzTargets;
  /** Every key secret, none of which may appear in a log line. */
  secrets: string[];
  /** After an accepted submission, a new pending document takes the completed one's place. */
  replaceCompleted(request: FuzzRequest, answer: Answer): Promise<void>;
}

/**
 * A pending document of `pdf`, stored directly: thousands are made in a long run, and the page-1 preview that
 * `createDocument` draws plays no part in a submission.
 */
export async function pendingDocument(storage: Storage, pdf: SamplePdf, organizationId: string) {
  return storage.createDocument(
    {
      id: newId('doc'),
      organizationId,
      filename: 'fuzz.pdf',
      mimeType: 'application/pdf',
      pageCount: pdf.pages,
      fileSize: pdf.bytes.byteLength,
      sha256: createHash('sha256').update(pdf.bytes).digest('hex'),
      fields: pdf.fields,
      createdAt: new Date().toISOString(),
    },
    pdf.bytes,
  );
}

async function keys({ storage, organizationId }: FuzzStore): Promise<FuzzKeys> {
  const key = async (options: Omit<NewApiKeyOptions, 'organizationId'>) =>
    (await createApiKeyRecord(storage, { organizationId, rateLimit: UNLIMITED, ...options })).key;
  const revoked = await createApiKeyRecord(storage, { organizationId, kind: 'pk' });
  await storage.revokeApiKey(revoked.id, new Date().toISOString());
  return {
    pk: await key({ kind: 'pk' }),
    sk: await key({ kind: 'sk' }),
    pkReadOnly: await key({ kind: 'pk', scopes: ['documents:read'] }),
    skReadOnly: await key({ kind: 'sk', scopes: ['documents:read'] }),
    pkWithOrigins: await key({ kind: 'pk', origins: ['https://host.example'] }),
    revoked: revoked.key,
    expired: await key({ kind: 'pk', expiresAt: '2020-01-01T00:00:00.000Z' }),
    limited: await key({ kind: 'pk', rateLimit: 3 }),
  };
}

/**
 * Keys of every kind, pending documents with valid payloads, a document of another organization and sample PDFs
 * with fields, in real storage.
 * @example const { targets, replaceCompleted } = await fuzzTargets({ storage, organizationId, maxPdfBytes })
 */
export async function fuzzTargets(store: FuzzStore): Promise<FuzzSetup> {
  const { storage } = store;
  const pdfs: SamplePdf[] = [];
  for (const pages of [1, 2, 3]) pdfs.push({ bytes: await generateSamplePdf({ pages }), fields: sampleFields(pages), pages });
  const payloadOf = async (pdf: SamplePdf, organizationId = store.organizationId) =>
    buildPayload(await pendingDocument(storage, pdf, organizationId));

  const payloads: Array<Record<string, unknown>> = [];
  for (let i = 0; i < PENDING_DOCUMENTS; i++) payloads.push(await payloadOf(pdfs[i % pdfs.length]!));
  const other = await storage.ensureOrganization(`other-${store.organizationId.toLowerCase()}`, 'Other Org');
  const targets: FuzzTargets = {
    keys: await keys(store),
    payloads,
    foreignPayload: await payloadOf(pdfs[0]!, other.id),
    pdfs,
    maxPdfBytes: store.maxPdfBytes,
  };

  return {
    targets,
    secrets: Object.values(targets.keys),
    async replaceCompleted(request, answer) {
      if (request.endpoint !== 'submit' || answer.status !== 201) return;
      const { documentId } = JSON.parse(answer.text) as { documentId: string };
      const index = payloads.findIndex((payload) => payload['documentId'] === documentId);
      if (index >= 0) payloads[index] = await payloadOf(pdfs[index % pdfs.length]!);
    },
  };
}
