import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagedDocumentSchema, successEnvelope } from '@signet/contract';
import { loadConfig } from '../config.js';
import { createApiKeyRecord } from '../documents/seed.js';
import { pendingDocument } from '../../test/hardening/fuzz-targets.js';
import { generateSamplePdf, sampleFields } from '../pdf/sample.js';
import { startServer, type RunningServer } from '../server.js';
import { openStorage } from '../storage/index.js';
import type { Storage } from '../storage/types.js';
import { buildPayload, capturingLogger } from '../../test/support/harness.js';
import { createTestHsm, type TestHsm } from '../../test/sealing/signing/test-hsm.js';
import { startTestTsa, type TestTsa } from '../../test/sealing/signing/test-pki.js';
import { startLtvPki, type LtvPki } from '../../test/sealing/signing/test-ltv-pki.js';
import { pdfsig, sealRecord, until } from '../../test/sealing/test-seal-jobs.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { findSealState } from '../storage/queries/seals.js';
import { verifyPdfSignatures } from './signing/verify-pdf.js';

/*
 * The seal job with its key in a PKCS#11 token, end to end: a real server (`startServer`) whose seals run in a
 * forked PDF worker, which opens the SoftHSM2 token itself (`createTestHsm`; the worker inherits SOFTHSM2_CONF). The
 * LTV test PKI's signer key is on the token, its chain in SIGNET_SIGNING_PKCS11_CHAIN, and the seal reaches B-LTA.
 */
const ManagedDocumentEnvelope = successEnvelope(ManagedDocumentSchema);

let pki: LtvPki;
let tsa: TestTsa;
let hsm: TestHsm;
let dir: string;
let server: RunningServer;
let storage: Storage;
let logs: Array<Record<string, unknown>>;

beforeAll(async () => {
  pki = await startLtvPki();
  tsa = await startTestTsa({ pki });
  hsm = await createTestHsm();
  await hsm.importKey('ltv-seal', 'a1', join(pki.dir, 'signer.key'), pki.signer.certificatePath);
  dir = await mkdtemp(join(tmpdir(), 'signet-seal-pkcs11-'));
  const databaseUrl = `file:${join(dir, 'signet.db')}`;
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    SIGNET_SECRET: randomBytes(32).toString('hex'),
    PORT: '0',
    LOG_LEVEL: 'info',
    PDF_WORKERS: '1',
    SIGNET_SIGNING_PKCS11: hsm.uri('ltv-seal'),
    SIGNET_SIGNING_PKCS11_PIN: hsm.pin,
    SIGNET_SIGNING_PKCS11_CHAIN: join(pki.dir, 'chain.pem'),
    SIGNET_TSA_URL: tsa.url,
    SEAL_POLL_MS: '50',
  });
  const captured = capturingLogger();
  logs = captured.logs;
  server = await startServer({ config, logger: captured.logger });
  storage = await openStorage(databaseUrl);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await storage?.close();
  await tsa?.close();
  await pki?.close();
  await hsm?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the seal job with a PKCS#11 key', { timeout: 60_000 }, () => {
  it('seals a submitted document at B-LTA in the PDF worker, signed by the token’s key', async () => {
    const organizationId = (await ensureOrganization(storage.db.query, 'hsm', 'HSM')).id;
    const pk = (await createApiKeyRecord(storage, { organizationId, kind: 'pk', rateLimit: 1_000_000 })).key;
    const sk = (await createApiKeyRecord(storage, { organizationId, kind: 'sk', rateLimit: 1_000_000 })).key;
    const pdf = { bytes: await generateSamplePdf({ pages: 1 }), fields: sampleFields(1), pages: 1 };
    const document = await pendingDocument(storage, pdf, organizationId);
    const submitted = await fetch(`${server.url}/sdk/documents/submit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': pk },
      body: JSON.stringify(await buildPayload(document)),
    });
    expect(submitted.status).toBe(201);

    const job = await until(
      async () => {
        const { job } = await findSealState(storage.db.query, document.id);
        return job && job.status !== 'pending' && job.status !== 'running' ? job : undefined;
      },
      `the seal job of ${document.id} to end`,
      { timeoutMs: 30_000, seen: () => findSealState(storage.db.query, document.id) },
    );
    expect(job).toMatchObject({ status: 'sealed', attempts: 1 });
    const response = await fetch(`${server.url}/documents/${document.id}`, { headers: { 'X-API-Key': sk } });
    expect(ManagedDocumentEnvelope.parse(await response.json()).data.sealing).toMatchObject({ status: 'sealed', level: 'B-LTA' });

    const { content } = await sealRecord(storage, document.id);
    const sealed = new Uint8Array(content!);
    expect(await pdfsig(sealed)).toContain('Signature Validation: Signature is Valid.');
    const [signature] = await verifyPdfSignatures(sealed);
    expect(signature).toMatchObject({ digestMatches: true, signatureValid: true, certificateSha256: pki.signer.certificateSha256 });
    expect(logs).toContainEqual(
      expect.objectContaining({ msg: 'Seals are signed with a key in a PKCS#11 token', keyLabel: 'ltv-seal', certificateSha256: pki.signer.certificateSha256 }),
    );
    expect(JSON.stringify(logs)).not.toContain(`"${hsm.pin}"`);
  });
});
