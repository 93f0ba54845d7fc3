import { hash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagedDocumentSchema, SUBMISSION_LIMITS, successEnvelope, type FieldDefinition } from '@signet/contract';
import { loadConfig } from '../config.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { pendingDocument } from '../../test/hardening/fuzz-targets.js';
import { newId } from '../ids.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { startServer, type RunningServer } from '../server.js';
import { openStorage } from '../storage/index.js';
import type { DocumentRecord, SealJob, Storage } from '../storage/types.js';
import { buildPayload, capturingLogger, completeValues } from '../../test/support/harness.js';
import { signaturePng } from '../../test/sealing/render/test-pdfs.js';
import { generateP12 } from './signing/credentials.js';
import { createTestPki, startTestTsa, type TestPki, type TestTsa } from '../../test/sealing/signing/test-pki.js';
import { findSignatureDictionaries, parseSignedData } from './signing/verify-pdf.js';
import { pdfsig, sealRecord, signet, until } from '../../test/sealing/test-seal-jobs.js';
import { storeDocument } from '../documents/create-document.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { findSealState } from '../storage/queries/seals.js';

/*
 * Seals that cannot be made. One real server (`startServer`, in this process so that its log is read as it is
 * written) on an embedded store, with SIGNET_SIGNING_P12 naming a file the tests rewrite and a loopback timestamp
 * authority. A job that cannot succeed as things stand ends `failed` at once, its reason in `seal_jobs.last_error`
 * and in the log, while the server keeps answering; `signet jobs retry` (the real command) runs it again, and it is
 * sealed once the cause is fixed. A timestamp authority that fails is a passing cause: the job goes back to
 * `pending` with a growing delay, is never sealed without its timestamp, and is sealed B-T once the authority answers.
 */
const RETRY_BASE_MS = 200;
const OID_TIMESTAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';
const ManagedDocumentEnvelope = successEnvelope(ManagedDocumentSchema);

let dir: string;
let env: Record<string, string>;
let keyFile: string;
let pki: TestPki;
let tsa: TestTsa;
let server: RunningServer;
let logs: Array<Record<string, unknown>>;
let storage: Storage;
let organizationId: string;
let pk: string;
let sk: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-seal-failures-'));
  [pki, tsa] = await Promise.all([createTestPki(), startTestTsa()]);
  keyFile = join(dir, 'signing.p12');
  await writeFile(keyFile, pki.expired.p12);
  env = { DATABASE_URL: `file:${join(dir, 'signet.db')}`, SIGNET_SECRET: randomBytes(32).toString('hex') };
  const config = loadConfig({
    ...env,
    PORT: '0',
    LOG_LEVEL: 'info',
    PDF_WORKERS: '1',
    SIGNET_SIGNING_P12: keyFile,
    SIGNET_SIGNING_P12_PASSWORD: pki.signer.password,
    SIGNET_TSA_URL: tsa.url,
    SEAL_POLL_MS: '50',
    SEAL_RETRY_BASE_MS: String(RETRY_BASE_MS),
  });
  const captured = capturingLogger();
  logs = captured.logs;
  server = await startServer({ config, logger: captured.logger });
  storage = await openStorage(env.DATABASE_URL);
  organizationId = (await ensureOrganization(storage.db.query, 'failures', 'Failures')).id;
  pk = (await createApiKeyRecord(storage, { organizationId, kind: 'pk', rateLimit: 1_000_000 })).key;
  sk = (await createApiKeyRecord(storage, { organizationId, kind: 'sk', rateLimit: 1_000_000 })).key;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await storage?.close();
  await tsa?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (path: string, key = sk) => fetch(`${server.url}${path}`, { headers: { 'X-API-Key': key } });

async function submit(document: DocumentRecord, payload?: Record<string, unknown>) {
  return fetch(`${server.url}/sdk/documents/submit`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': pk },
    body: JSON.stringify(payload ?? (await buildPayload(document))),
  });
}

/** A document of `bytes` put straight into storage, as one from before uploads were checked would be. */
function storedDocument(bytes: Uint8Array, fields: FieldDefinition[]): Promise<DocumentRecord> {
  return storeDocument(storage,
    {
      id: newId('doc'),
      organizationId,
      filename: 'stored.pdf',
      mimeType: 'application/pdf',
      pageCount: 1,
      fileSize: bytes.byteLength,
      sha256: hash('sha256', bytes, 'hex'),
      fields,
      createdAt: new Date().toISOString(),
    },
    bytes,
  );
}

/** A well-formed one-page PDF whose page is `/MediaBox [0 0 0 0]`: it opens, but nothing can be drawn at a field. */
function zeroAreaPdf(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 0 0] /Resources << >> /Contents 4 0 R >>',
    '<< /Length 0 >>\nstream\n\nendstream',
  ];
  let pdf = '%PDF-1.7\n';
  const offsets = objects.map((body, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

/** A one-page sample document with its fields, submitted. */
async function submittedDocument(): Promise<DocumentRecord> {
  const pdf = { bytes: await generateSamplePdf({ pages: 1 }), fields: sampleFields(1), pages: 1 };
  const document = await pendingDocument(storage, pdf, organizationId);
  expect((await submit(document)).status).toBe(201);
  return document;
}

/** The job once `done` says it has reached the state a test waits for. */
function jobWhen(documentId: string, done: (job: SealJob) => boolean): Promise<SealJob> {
  return until(
    async () => {
      const { job } = await findSealState(storage.db.query, documentId);
      return job && done(job) ? job : undefined;
    },
    `the seal job of ${documentId} in the awaited state`,
    { timeoutMs: 30_000, seen: () => findSealState(storage.db.query, documentId) },
  );
}

/** The log's lines about `documentId`'s seal failing for good. */
const failuresLogged = (documentId: string) =>
  logs.filter((line) => line.documentId === documentId && String(line.msg).startsWith('seal failed'));

/** The server still answers: its health, and the document's management view, which shows the seal failed. */
async function expectServing(documentId: string) {
  expect((await get('/healthz')).status).toBe(200);
  const response = await get(`/documents/${documentId}`);
  expect(response.status).toBe(200);
  expect(ManagedDocumentEnvelope.parse(await response.json()).data.sealing.status).toBe('failed');
}

async function retry(documentId: string) {
  const result = await signet(env, 'jobs', 'retry', documentId);
  expect(result, result.stderr).toMatchObject({ code: 0, stdout: `Seal of ${documentId} queued again.\n` });
}

function hasTimestampToken(sealed: Uint8Array): boolean {
  const [signature] = findSignatureDictionaries(sealed);
  const signerInfo = parseSignedData(signature!.contents!.der).signerInfos[0]!;
  return signerInfo.unsignedAttrs?.attributes.some((attribute) => attribute.type === OID_TIMESTAMP_TOKEN) ?? false;
}

// Tests run `signet` commands, each a process loading the server from source: a minute each, as the CLI's own tests.
describe('seal jobs that fail', { timeout: 60_000 }, () => {
  let document: DocumentRecord;

  it('an expired certificate: failed at once, the reason in seal_jobs and the log, the server serving', async () => {
    const startup = 'sealing will fail until the signing certificate is fixed';
    expect(logs).toContainEqual(expect.objectContaining({ msg: startup, reason: expect.stringMatching(/expired/) }));
    document = await submittedDocument();
    const job = await jobWhen(document.id, (job) => job.status === 'failed');
    expect(job).toMatchObject({ attempts: 1, leaseOwner: null });
    expect(job.lastError).toMatch(/^The signing certificate cannot be used: .*has expired/);
    expect(failuresLogged(document.id)).toEqual([expect.objectContaining({ reason: job.lastError, retryable: false })]);
    await expectServing(document.id);
  });

  it('a wrong P12 password: signet jobs retry runs the job again, and it fails with that reason', async () => {
    await writeFile(keyFile, await generateP12('not the configured password'));
    await retry(document.id);
    const job = await jobWhen(document.id, (job) => job.status === 'failed' && !/expired/.test(job.lastError ?? ''));
    expect(job.attempts).toBe(1);
    expect(job.lastError).toMatch(/^The signing certificate cannot be used: .*password/i);
    const reasons = failuresLogged(document.id).map((line) => line.reason);
    expect(reasons).toEqual([expect.stringMatching(/expired/), job.lastError]);
    await expectServing(document.id);
  });

  it('with the certificate fixed, signet jobs retry seals it, B-T, valid', async () => {
    await writeFile(keyFile, pki.signer.p12);
    await retry(document.id);
    const job = await jobWhen(document.id, (job) => job.status === 'sealed');
    expect(job).toMatchObject({ attempts: 1, lastError: null });
    const record = await sealRecord(storage, document.id);
    expect(record).toMatchObject({ sha256Matches: true, sealedEvents: 1 });
    const report = await pdfsig(record.content!);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: Signet Test Signer');
    expect(hasTimestampToken(record.content!)).toBe(true);
    const retried = await signet(env, 'jobs', 'retry', document.id);
    expect(retried.code).toBe(1);
  });

  it('a PDF that cannot be parsed: failed with the reason; retried, it fails again; the server serving', async () => {
    const broken = await storedDocument(new TextEncoder().encode(`%PDF-1.7\n${'not a pdf at all '.repeat(200)}`), []);
    expect((await submit(broken)).status).toBe(201);
    const first = await jobWhen(broken.id, (job) => job.status === 'failed');
    expect(first.lastError).toMatch(/^the PDF cannot be sealed: /);
    expect(failuresLogged(broken.id)).toEqual([expect.objectContaining({ reason: first.lastError })]);
    expect((await get(`/sdk/documents/${broken.id}`, pk)).status).toBe(200);
    await expectServing(broken.id);

    await retry(broken.id);
    const again = await jobWhen(broken.id, (job) => job.status === 'failed' && job.updatedAt > first.updatedAt);
    expect(again).toMatchObject({ attempts: 1, lastError: first.lastError });
    expect(failuresLogged(broken.id)).toHaveLength(2);
    await expectServing(broken.id);
  });

  it('a PDF that parses but whose page cannot be drawn on (no area): failed at once, the server serving', async () => {
    const flat = await storedDocument(zeroAreaPdf(), sampleFields(1));
    expect((await submit(flat)).status).toBe(201);
    const job = await jobWhen(flat.id, (job) => job.status === 'failed');
    expect(job).toMatchObject({ attempts: 1, lastError: expect.any(String) });
    expect(failuresLogged(flat.id)).toEqual([expect.objectContaining({ reason: job.lastError, retryable: false })]);
    await expectServing(flat.id);
  });

  it(`a signature past the contract's ${SUBMISSION_LIMITS.maxImageSide} px is refused at submit; one at it is sealed`, async () => {
    const pdf = { bytes: await generateSamplePdf({ pages: 1 }), fields: sampleFields(1), pages: 1 };
    const withSignature = async (document: DocumentRecord, side: number) => {
      const values = completeValues(document.fields);
      const image = await signaturePng(side, side);
      for (const field of document.fields.filter((field) => field.type === 'signature')) {
        values[field.id] = { type: 'signature', imageData: image };
      }
      return buildPayload(document, values);
    };
    const huge = await pendingDocument(storage, pdf, organizationId);
    const refused = await submit(huge, await withSignature(huge, 6000));
    expect(refused.status).toBe(422);
    expect(await findSealState(storage.db.query, huge.id)).toEqual({ job: null, sealed: null });

    const large = await pendingDocument(storage, pdf, organizationId);
    expect((await submit(large, await withSignature(large, SUBMISSION_LIMITS.maxImageSide))).status).toBe(201);
    await jobWhen(large.id, (job) => job.status === 'sealed');
    expect(await sealRecord(storage, large.id)).toMatchObject({ sha256Matches: true, sealedEvents: 1 });
  });

  it('a timestamp authority answering 500: retried with a doubling delay, sealed B-T only once it answers', async () => {
    tsa.fail = true;
    const document = await submittedDocument();
    const waiting = await jobWhen(document.id, (job) => job.status === 'pending' && job.attempts >= 3);
    expect(waiting.lastError).toMatch(/timestamp authority.*500/);
    // runAt and updatedAt are set from the same clock reading when the attempt fails.
    expect(Date.parse(waiting.runAt) - Date.parse(waiting.updatedAt)).toBe(RETRY_BASE_MS * 2 ** (waiting.attempts - 1));
    expect((await findSealState(storage.db.query, document.id)).sealed).toBeNull();
    const retryLine = 'seal attempt failed; it will be retried';
    const retried = logs.filter((line) => line.documentId === document.id && line.msg === retryLine);
    expect(retried.length).toBeGreaterThanOrEqual(2);
    expect(failuresLogged(document.id)).toEqual([]);

    tsa.fail = false;
    const sealed = await jobWhen(document.id, (job) => job.status === 'sealed');
    expect(sealed.attempts).toBeGreaterThan(waiting.attempts);
    const record = await sealRecord(storage, document.id);
    expect(hasTimestampToken(record.content!)).toBe(true);
    expect(await pdfsig(record.content!)).toContain('Signature Validation: Signature is Valid.');
  });
});
