import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagedDocumentSchema, VerifyResultSchema, successEnvelope } from '@signet/contract';
import { loadConfig } from '../config.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { pendingDocument } from '../../test/hardening/fuzz-targets.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { startServer, type RunningServer } from '../server.js';
import { openStorage } from '../storage/index.js';
import type { DocumentRecord, SealJob, Storage } from '../storage/types.js';
import { buildPayload, capturingLogger } from '../../test/support/harness.js';
import { startTestTsa, type TestTsa } from '../../test/sealing/signing/test-pki.js';
import { startLtvPki, type LtvPki } from '../../test/sealing/signing/test-ltv-pki.js';
import { pdfsig, sealRecord, signet, until } from '../../test/sealing/test-seal-jobs.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { findSealState } from '../storage/queries/seals.js';

/*
 * PAdES levels through the seal job: a real server (`startServer`, in this process so that its log is read) on an
 * embedded store, signing with a certificate of the local PKI (`startLtvPki`: an `openssl ocsp` responder and a CRL
 * server on loopback) and timestamping with `openssl ts`, SIGNET_PADES_LEVEL unset (so B-LTA). A seal records the
 * level it reached (`sealing.level`); with the responder down it is retried, then sealed B-T with the reason
 * logged; a revoked certificate fails the job with the reason `signet jobs list` shows.
 */
const ManagedDocumentEnvelope = successEnvelope(ManagedDocumentSchema);
const VerifyEnvelope = successEnvelope(VerifyResultSchema);

interface Instance {
  dir: string;
  env: Record<string, string>;
  server: RunningServer;
  logs: Array<Record<string, unknown>>;
  storage: Storage;
  organizationId: string;
  pk: string;
  sk: string;
}

let pki: LtvPki;
let tsa: TestTsa;
let instance: Instance;

/** A server signing with `p12`, on its own store. */
async function startInstance(p12: Uint8Array): Promise<Instance> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-seal-levels-'));
  const keyFile = join(dir, 'signing.p12');
  await writeFile(keyFile, p12);
  const env = { DATABASE_URL: `file:${join(dir, 'signet.db')}`, SIGNET_SECRET: randomBytes(32).toString('hex') };
  const config = loadConfig({
    ...env,
    PORT: '0',
    LOG_LEVEL: 'info',
    PDF_WORKERS: '1',
    SIGNET_SIGNING_P12: keyFile,
    SIGNET_SIGNING_P12_PASSWORD: pki.signer.password,
    SIGNET_TSA_URL: tsa.url,
    SEAL_POLL_MS: '50',
    SEAL_MAX_ATTEMPTS: '2',
    SEAL_RETRY_BASE_MS: '200',
  });
  expect(config.sealing.padesLevel).toBe('B-LTA');
  const captured = capturingLogger();
  const server = await startServer({ config, logger: captured.logger });
  const storage = await openStorage(env.DATABASE_URL);
  const organizationId = (await ensureOrganization(storage.db.query, 'levels', 'Levels')).id;
  const pk = (await createApiKeyRecord(storage, { organizationId, kind: 'pk', rateLimit: 1_000_000 })).key;
  const sk = (await createApiKeyRecord(storage, { organizationId, kind: 'sk', rateLimit: 1_000_000 })).key;
  return { dir, env, server, logs: captured.logs, storage, organizationId, pk, sk };
}

async function stopInstance(stopped: Instance | undefined): Promise<void> {
  await stopped?.server.close();
  await stopped?.storage.close();
  if (stopped) await rm(stopped.dir, { recursive: true, force: true });
}

beforeAll(async () => {
  pki = await startLtvPki();
  tsa = await startTestTsa({ pki });
  instance = await startInstance(pki.signer.p12);
}, 60_000);

afterAll(async () => {
  await stopInstance(instance);
  await tsa?.close();
  await pki?.close();
});

async function submittedDocument(at: Instance): Promise<DocumentRecord> {
  const pdf = { bytes: await generateSamplePdf({ pages: 1 }), fields: sampleFields(1), pages: 1 };
  const document = await pendingDocument(at.storage, pdf, at.organizationId);
  const response = await fetch(`${at.server.url}/sdk/documents/submit`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': at.pk },
    body: JSON.stringify(await buildPayload(document)),
  });
  expect(response.status).toBe(201);
  return document;
}

function jobWhen(at: Instance, documentId: string, done: (job: SealJob) => boolean): Promise<SealJob> {
  return until(
    async () => {
      const { job } = await findSealState(at.storage.db.query, documentId);
      return job && done(job) ? job : undefined;
    },
    `the seal job of ${documentId} in the awaited state`,
    { timeoutMs: 30_000, seen: () => findSealState(at.storage.db.query, documentId) },
  );
}

async function sealing(at: Instance, documentId: string) {
  const response = await fetch(`${at.server.url}/documents/${documentId}`, { headers: { 'X-API-Key': at.sk } });
  expect(response.status).toBe(200);
  return ManagedDocumentEnvelope.parse(await response.json()).data.sealing;
}

async function verify(at: Instance, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'sealed.pdf');
  const response = await fetch(`${at.server.url}/verify`, { method: 'POST', headers: { 'X-API-Key': at.sk }, body: form });
  expect(response.status).toBe(200);
  return VerifyEnvelope.parse(await response.json()).data;
}

// The last test runs `signet` commands, each a process loading the server from source.
describe('seal levels', { timeout: 90_000 }, () => {
  let sealedBytes: Uint8Array;

  it('seals at B-LTA by default with a timestamp authority, and says so in sealing.level', async () => {
    const document = await submittedDocument(instance);
    await jobWhen(instance, document.id, (job) => job.status === 'sealed');
    expect(await sealing(instance, document.id)).toMatchObject({ status: 'sealed', level: 'B-LTA' });
    const record = await sealRecord(instance.storage, document.id);
    expect(record).toMatchObject({ sha256Matches: true, sealedEvents: 1 });
    // A copy: the store hands back a Buffer, whose slice() is a view, not a copy.
    sealedBytes = new Uint8Array(record.content!);
    expect(await pdfsig(sealedBytes)).toContain('Signature Validation: Signature is Valid.');
    const sealedLine = instance.logs.find((line) => line.documentId === document.id && line.msg === 'document sealed');
    expect(sealedLine).toMatchObject({ level: 'B-LTA' });
  });

  it('POST /verify reports the level, the chain with its revocation statuses, and the timestamps', async () => {
    const verdict = await verify(instance, sealedBytes);
    expect(verdict).toMatchObject({ sealed: true, intact: true, pades: { level: 'B-LTA' } });
    const { pades } = verdict;
    expect(pades!.chain.map((c) => `${c.subject}: ${c.revocation.status}`)).toEqual([
      'CN=Signet LTV Signer, O=Signet LTV Test: good',
      'CN=Signet LTV Intermediate, O=Signet LTV Test: good',
      'CN=Signet LTV Root, O=Signet LTV Test: none',
    ]);
    expect(pades!.timestampChain[0]).toMatchObject({ subject: 'CN=Signet LTV TSA, O=Signet LTV Test', revocation: { status: 'good', source: 'crl' } });
    expect(Date.parse(pades!.signatureTimestamp!)).toBeLessThanOrEqual(Date.parse(pades!.documentTimestamp!));

    const tampered = Uint8Array.from(sealedBytes);
    tampered[Math.floor(tampered.byteLength / 4)]! ^= 0x01;
    expect(await verify(instance, tampered)).toMatchObject({ sealed: true, intact: false, pades: { level: null } });
  });

  it('with the OCSP responder down: retried, then sealed B-T on the last attempt, the reason logged', async () => {
    await pki.ocsp.stop();
    try {
      const document = await submittedDocument(instance);
      const job = await jobWhen(instance, document.id, (job) => job.status === 'sealed');
      expect(job.attempts).toBe(2);
      expect(await sealing(instance, document.id)).toMatchObject({ status: 'sealed', level: 'B-T' });
      const lines = instance.logs.filter((line) => line.documentId === document.id);
      expect(lines).toContainEqual(expect.objectContaining({
        msg: 'seal attempt failed; it will be retried',
        reason: expect.stringMatching(/PAdES B-LTA not reached \(the seal is retried\): no revocation data for CN=Signet LTV Signer.*OCSP/),
      }));
      expect(lines).toContainEqual(expect.objectContaining({
        msg: 'document sealed below the PAdES level asked for (SIGNET_PADES_LEVEL)',
        level: 'B-T',
        levelAsked: 'B-LTA',
        reason: expect.stringMatching(/^PAdES B-LTA not reached: no revocation data for CN=Signet LTV Signer/),
      }));
      const { content } = await sealRecord(instance.storage, document.id);
      expect((await verify(instance, content!)).pades).toMatchObject({ level: 'B-T' });
    } finally {
      await pki.ocsp.start();
    }
  });

  it('a revoked signing certificate fails the job with the reason signet jobs list shows; signet verify shows levels', async () => {
    const revoked = await startInstance(pki.revoked.p12);
    try {
      const document = await submittedDocument(revoked);
      const job = await jobWhen(revoked, document.id, (job) => job.status === 'failed');
      expect(job.attempts).toBe(1);
      expect(job.lastError).toMatch(/^The signing certificate cannot seal: The certificate CN=Signet LTV Revoked Signer, O=Signet LTV Test is revoked since /);
      expect(await sealing(revoked, document.id)).toEqual({ status: 'failed' });
      const listed = await signet(revoked.env, 'jobs', 'list');
      expect(listed.stdout).toContain(document.id);
      expect(listed.stdout).toContain('Revoked Signer, O=Signet LTV Test is revoked since');
    } finally {
      await stopInstance(revoked);
    }
    const file = join(instance.dir, 'sealed.pdf');
    await writeFile(file, sealedBytes);
    const verified = await signet(instance.env, 'verify', file);
    expect(verified.code, `${verified.stdout}${verified.stderr}`).toBe(0);
    expect(verified.stdout).toContain('PAdES level: B-LTA');
    expect(verified.stdout).toMatch(/document timestamp: \d{4}-/);
    expect(verified.stdout).toMatch(/CN=Signet LTV Signer, O=Signet LTV Test: good \(ocsp of /);
  });
});
