import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { SdkDocumentSchema, type FieldDefinition } from '@signet/contract';
import type { SealingConfig } from '../../src/config.js';
import { createApiKeyRecord, type NewApiKeyOptions } from '../../src/documents/seed.js';
import { signDocumentToken } from '../../src/documents/token.js';
import { newId } from '../../src/ids.js';
import { createLogger } from '../../src/logger.js';
import { sharedPdfPool } from '../../src/pdf-worker/index.js';
import { LEASE_SIGNERS, generateSamplePdf, sampleFields, sampleLeaseFields } from '../../src/pdf/sample.js';
import { sealQueue } from '../../src/sealing/seal-queue.js';
import { sealRunner } from '../../src/sealing/seal-kind.js';
import { createTestPki } from '../sealing/signing/test-pki.js';
import type { DocumentRecord, Storage } from '../../src/storage/types.js';
import { buildPayload } from '../support/harness.js';
import { registerWebhook } from '../../src/webhooks/manage.js';
import { PUBLIC_WEBHOOK_URL, type DeclineTarget, type WriteTargets } from './fuzz-json-writes.js';
import { truncatedPng } from './hostile-images.js';
import type { Answer } from './fuzz-oracle.js';
import type { DocumentTarget, FuzzDocuments, FuzzKeys, FuzzRequest, FuzzTargets } from './fuzz-requests.js';
import { storeDocument } from '../../src/documents/create-document.js';
import { declineDocument } from '../../src/documents/decline.js';
import { revokeApiKey } from '../../src/storage/queries/api-keys.js';
import { findDocument } from '../../src/storage/queries/documents.js';
import { ensureOrganization } from '../../src/storage/queries/organizations.js';
import { recordSubmission } from '../../src/submissions/record-submission.js';
import { findSealState, readSealedContent } from '../../src/storage/queries/seals.js';
import { updateWebhookEndpoint } from '../../src/storage/queries/webhook-endpoints.js';

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
  /** How the real seal worker seals the targets' sealed document. */
  sealing: SealingConfig;
  /**
   * The server's `SIGNET_SECRET` when the test knows it: then expired tokens, which only the secret can sign, are
   * drawn too.
   */
  secret?: string;
}

/** A fuzz run's targets on a store, and what keeps them usable as the run completes documents. */
export interface FuzzSetup {
  targets: FuzzTargets;
  /** Every key secret (and the server's secret, when known), none of which may appear in a log line. */
  secrets: string[];
  /**
   * After each answer: a new pending document takes the place of one a submission completed or a decline declined,
   * and the key and webhook secrets an answer showed join `secrets`.
   */
  afterAnswer(request: FuzzRequest, answer: Answer): Promise<void>;
  /**
   * Reads the document token of each read target from `GET /sdk/documents/{id}` (the server signs it with a secret
   * the test may not know), through `get`, which answers a path asked with a key with the response's body.
   */
  readTokens(get: (path: string, key: string) => Promise<string>): Promise<void>;
}

/**
 * A pending document of `pdf`, stored directly: thousands are made in a long run, and the page-1 preview that
 * `createDocument` draws plays no part in a submission. `lease`: with the lease's two signers, in sequential order.
 */
export async function pendingDocument(storage: Storage, pdf: SamplePdf, organizationId: string, lease = false) {
  return storeDocument(storage,
    {
      id: newId('doc'),
      organizationId,
      filename: 'fuzz.pdf',
      mimeType: 'application/pdf',
      pageCount: pdf.pages,
      fileSize: pdf.bytes.byteLength,
      sha256: createHash('sha256').update(pdf.bytes).digest('hex'),
      fields: lease ? sampleLeaseFields(pdf.pages) : pdf.fields,
      ...(lease ? { signers: [...LEASE_SIGNERS], signingOrder: 'sequential' as const } : {}),
      createdAt: new Date().toISOString(),
    },
    pdf.bytes,
  );
}

async function keys({ storage, organizationId }: FuzzStore): Promise<FuzzKeys & { pkId: string }> {
  const key = async (options: Omit<NewApiKeyOptions, 'organizationId'>) =>
    (await createApiKeyRecord(storage, { organizationId, rateLimit: UNLIMITED, ...options })).key;
  const revoked = await createApiKeyRecord(storage, { organizationId, kind: 'pk' });
  await revokeApiKey(storage.db.query, revoked.id, new Date().toISOString());
  const pk = await createApiKeyRecord(storage, { organizationId, rateLimit: UNLIMITED, kind: 'pk' });
  return {
    pkId: pk.id,
    pk: pk.key,
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
 * Records a complete submission of `document` as the submit route does, which enqueues its seal job; with
 * `signerId`, that signer's submission (the document completes with its last signer).
 */
async function submitted(storage: Storage, document: DocumentRecord, keyId: string, signerId?: string): Promise<void> {
  const payload = await buildPayload(document);
  const id = newId('sub');
  const receivedAt = new Date().toISOString();
  await recordSubmission(storage, {
    id,
    documentId: document.id,
    signerId: signerId ?? document.signers[0]!.id,
    organizationId: document.organizationId,
    keyId,
    checksum: payload['checksum'] as string,
    payload: JSON.stringify(payload),
    result: { success: true, submissionId: id, documentId: document.id, timestamp: receivedAt, message: 'Document submitted successfully' },
    clientIp: '203.0.113.9',
    userAgent: 'signet-fuzz',
    receivedAt,
  });
}

/**
 * The read endpoints' documents: one sealed by the real seal worker (the sample PDF in the PDF pool, signed with the
 * test PKI's self-signed key), one whose seal failed, one whose seal is queued, one nobody submitted.
 */
async function readTargets(store: FuzzStore, pdf: SamplePdf, keyId: string, foreignId: string): Promise<FuzzDocuments> {
  const { storage, organizationId } = store;
  const signing = (await createTestPki()).selfSigned;
  const worker = sealRunner({
    storage,
    pdfPool: sharedPdfPool(),
    logger: createLogger('warn'),
    config: store.sealing,
    signingKey: async () => signing,
  });
  const document = await pendingDocument(storage, pdf, organizationId);
  await submitted(storage, document, keyId);
  while (await worker.runOnce('seal'));
  const { sealed } = await findSealState(storage.db.query, document.id);
  if (!sealed) throw new Error(`the fuzz's sealed document was not sealed: ${JSON.stringify(await findSealState(storage.db.query, document.id))}`);
  // A plain copy: storage may answer with a Buffer, whose `slice` is a view that a mutation would write through.
  const sealedPdf = new Uint8Array(await readSealedContent(storage.db.query, document.id, 0, sealed.fileSize - 1));

  const failed = await pendingDocument(storage, pdf, organizationId);
  await submitted(storage, failed, keyId);
  const queue = sealQueue();
  const [job] = await queue.claim(storage.db, { owner: worker.owner, now: new Date(), leaseMs: 60_000, limit: 1 });
  await queue.settle(storage.db, worker.owner, job!, { state: 'dead', at: new Date(), error: 'fuzz: failed on purpose' });
  // Queued last, so that the claim above took the failed one's job; a server's own worker may seal it later.
  const queued = await pendingDocument(storage, pdf, organizationId);
  await submitted(storage, queued, keyId);
  const pending = await pendingDocument(storage, pdf, organizationId);

  return {
    sealed: [{ id: document.id, pdf: sealedPdf }],
    unsealed: [{ id: failed.id }, { id: queued.id }],
    pending: [{ id: pending.id }],
    foreign: { id: foreignId },
  };
}

/**
 * Sets `target.token` from its `documentUrl`, `target.revokedToken` from the `documentUrl` a key revoked since
 * obtained, and `target.expiredToken` when the secret is known.
 */
async function readToken(store: FuzzStore, target: DocumentTarget, get: (path: string, key: string) => Promise<string>, pk: string) {
  const tokenOf = async (key: string) => {
    const { documentUrl } = SdkDocumentSchema.parse(JSON.parse(await get(`/sdk/documents/${target.id}`, key)));
    return new URL(documentUrl).searchParams.get('token') ?? undefined;
  };
  target.token = await tokenOf(pk);
  const revoked = await createApiKeyRecord(store.storage, { organizationId: store.organizationId, rateLimit: UNLIMITED, kind: 'pk' });
  target.revokedToken = await tokenOf(revoked.key);
  await revokeApiKey(store.storage.db.query, revoked.id, new Date().toISOString());
  if (!store.secret) return;
  const { version } = (await findDocument(store.storage.db.query, target.id))!;
  const keyId = target.token!.split('.')[1]!;
  target.expiredToken = signDocumentToken(store.secret, { documentId: target.id, version, expires: Math.floor(Date.now() / 1000) - 60, keyId });
}

/** The kinds of document a decline or a session is asked about, in the order `declineTargets` makes them. */
const DECLINE_KINDS: ReadonlyArray<DeclineTarget['kind']> = ['plain', 'plain', 'plain', 'lease', 'lease signed by the tenant'];

/** A pending document of `kind` with a session key of each of its signers (of its implicit signer: `''`). */
async function declineTarget(store: FuzzStore, pdf: SamplePdf, pkId: string, kind: DeclineTarget['kind']): Promise<DeclineTarget> {
  const { storage, organizationId } = store;
  const document = await pendingDocument(storage, pdf, organizationId, kind !== 'plain');
  if (kind === 'lease signed by the tenant') await submitted(storage, document, pkId, 'tenant');
  const sessions: Record<string, string> = {};
  for (const signerId of kind === 'plain' ? [''] : LEASE_SIGNERS.map((signer) => signer.id)) {
    const session = await createApiKeyRecord(storage, {
      organizationId,
      kind: 'pk',
      rateLimit: UNLIMITED,
      expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
      documentId: document.id,
      ...(signerId ? { signerId } : {}),
    });
    sessions[signerId] = session.key;
  }
  return { id: document.id, kind, sessions };
}

/**
 * What the JSON writes act on: pending documents with and without signers (with their session keys), one declined
 * already, and webhook endpoints of the organization (one turned off by a 410) and of another. The endpoints' URL
 * is a public address nothing connects to: no fuzz run has a webhook dispatcher. Their signing secrets are sealed
 * with the server's secret when the test knows it, else with a throwaway one (only a dispatcher opens them).
 */
async function writeTargets(store: FuzzStore, pdf: SamplePdf, pkId: string, otherOrganizationId: string): Promise<WriteTargets> {
  const { storage, organizationId } = store;
  const documents: DeclineTarget[] = [];
  for (const kind of DECLINE_KINDS) documents.push(await declineTarget(store, pdf, pkId, kind));
  const declined = await pendingDocument(storage, pdf, organizationId);
  const at = new Date().toISOString();
  await declineDocument(storage, declined.id, { reason: 'Declined before the fuzz', at, signerId: null, ip: null, userAgent: null });

  const management = { storage, secret: store.secret ?? randomBytes(32).toString('hex'), allowPrivate: false, maxEndpoints: 20 };
  const webhook = async (owner: string) =>
    (await registerWebhook(management, { organizationId: owner, url: PUBLIC_WEBHOOK_URL, events: ['document.sealed'] })).endpoint.id;
  const disabled = await webhook(organizationId);
  await updateWebhookEndpoint(storage.db, organizationId, disabled, { enabled: false, disabledReason: 'the endpoint answered 410 Gone', updatedAt: at });
  return {
    documents,
    declined: declined.id,
    webhooks: { enabled: await webhook(organizationId), disabled, foreign: await webhook(otherOrganizationId) },
  };
}

/** The secrets an answer shows once: a session's key, a webhook endpoint's signing secret. */
function secretsShown(request: FuzzRequest, answer: Answer): string[] {
  if (answer.status !== 201 || (request.endpoint !== 'create-session' && request.endpoint !== 'create-webhook')) return [];
  const { data } = JSON.parse(answer.text) as { data: { key?: string; secret?: string } };
  return [data.key, data.secret].filter((secret) => secret !== undefined);
}

/**
 * The images the submit fuzz puts in every image value: the truncated PNG (refused at submit, naming the field) and a
 * 16-bit PNG wider than a seal draws (accepted, normalised for the seal). Small, so that decoding them in the PDF
 * pool costs the fuzz little; the 4096 × 4096 one is the hostile-uploads test's.
 */
async function fuzzImages(): Promise<string[]> {
  const wide = await sharp({ create: { width: 2400, height: 4, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
    .toColourspace('rgb16')
    .png()
    .toBuffer();
  return [await truncatedPng(), wide].map((png) => `data:image/png;base64,${png.toString('base64')}`);
}

/**
 * Keys of every kind, pending documents with valid payloads, a document of another organization, sample PDFs with
 * fields, documents in every state of their seal (one sealed by the real worker), and what declines, sessions and
 * webhook changes act on (`writeTargets`), in real storage.
 * @example const { targets, afterAnswer } = await fuzzTargets({ storage, organizationId, maxPdfBytes, sealing })
 */
export async function fuzzTargets(store: FuzzStore): Promise<FuzzSetup> {
  const { storage } = store;
  const pdfs: SamplePdf[] = [];
  for (const pages of [1, 2, 3]) pdfs.push({ bytes: await generateSamplePdf({ pages }), fields: sampleFields(pages), pages });
  const payloadOf = async (pdf: SamplePdf, organizationId = store.organizationId) =>
    buildPayload(await pendingDocument(storage, pdf, organizationId));

  const payloads: Array<Record<string, unknown>> = [];
  for (let i = 0; i < PENDING_DOCUMENTS; i++) payloads.push(await payloadOf(pdfs[i % pdfs.length]!));
  const other = await ensureOrganization(storage.db.query, `other-${store.organizationId.toLowerCase()}`, 'Other Org');
  const { pkId, ...fuzzKeys } = await keys(store);
  const foreignPayload = await payloadOf(pdfs[0]!, other.id);
  const targets: FuzzTargets = {
    keys: fuzzKeys,
    payloads,
    foreignPayload,
    hostileImages: await fuzzImages(),
    pdfs,
    maxPdfBytes: store.maxPdfBytes,
    documents: await readTargets(store, pdfs[0]!, pkId, foreignPayload['documentId'] as string),
    writes: await writeTargets(store, pdfs[1]!, pkId, other.id),
  };
  const secrets = [...Object.values(targets.keys), ...(store.secret ? [store.secret] : [])];
  secrets.push(...targets.writes.documents.flatMap((document) => Object.values(document.sessions)));

  return {
    targets,
    secrets,
    async readTokens(get) {
      const { sealed, unsealed, pending } = targets.documents;
      for (const target of [...sealed, ...unsealed, ...pending]) await readToken(store, target, get, fuzzKeys.pk);
    },
    async afterAnswer(request, answer) {
      secrets.push(...secretsShown(request, answer));
      if (request.endpoint === 'submit' && answer.status === 201) {
        const { documentId } = JSON.parse(answer.text) as { documentId: string };
        const index = payloads.findIndex((payload) => payload['documentId'] === documentId);
        if (index >= 0) payloads[index] = await payloadOf(pdfs[index % pdfs.length]!);
      }
      if (request.endpoint === 'decline' && answer.status === 200) {
        const { documentId } = JSON.parse(answer.text) as { documentId: string };
        const { documents } = targets.writes;
        const index = documents.findIndex((document) => document.id === documentId);
        if (index < 0) return;
        documents[index] = await declineTarget(store, pdfs[1]!, pkId, documents[index]!.kind);
        secrets.push(...Object.values(documents[index]!.sessions));
      }
    },
  };
}
