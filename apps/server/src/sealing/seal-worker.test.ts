import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { newId } from '../ids.js';
import { storageEngines } from '../../test/storage/test-engines.js';
import { IMPLICIT_SIGNER, type Storage } from '../storage/types.js';
import { capturingLogger } from '../../test/support/harness.js';
import { storeDocument } from '../documents/create-document.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { recordSubmission } from '../submissions/record-submission.js';
import { sharedPdfPool } from '../pdf-worker/index.js';
import { sealQueue } from './seal-queue.js';
import { sealRunner } from './seal-kind.js';
import { findSealState } from '../storage/queries/seals.js';

const sqlite = (await storageEngines()).find((engine) => engine.name === 'sqlite')!;

describe('the seal job kind', () => {
  let storage: Storage;
  beforeEach(async () => {
    storage = await sqlite.open();
  });
  afterEach(() => storage.close());

  it('gives a job up, without running it, once its worker stopped during every attempt it was allowed', async () => {
    const org = await ensureOrganization(storage.db.query, 'acme', 'Acme');
    const document = await storeDocument(storage,
      {
        id: newId('doc'),
        organizationId: org.id,
        filename: 'a.pdf',
        mimeType: 'application/pdf',
        pageCount: 1,
        fileSize: 1,
        sha256: '0'.repeat(64),
        createdAt: new Date(0).toISOString(),
        fields: [],
      },
      new Uint8Array([1]),
    );
    const submissionId = newId('sub');
    const receivedAt = new Date(1000).toISOString();
    await recordSubmission(storage, {
      id: submissionId,
      documentId: document.id,
      signerId: IMPLICIT_SIGNER.id,
      organizationId: org.id,
      keyId: newId('key'),
      checksum: 'c'.repeat(64),
      payload: '{"fields":[]}',
      result: { success: true, submissionId, documentId: document.id, timestamp: receivedAt, message: 'ok' },
      clientIp: null,
      userAgent: null,
      receivedAt,
    });
    const config = loadConfig({ SEAL_MAX_ATTEMPTS: '3', SEAL_LEASE_MS: '1000' }).sealing;
    // Three workers took it and died (their leases ran out, nothing recorded).
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [taken] = await sealQueue().claim(storage.db, { owner: `dead-${attempt}`, now: new Date(attempt * 10_000), leaseMs: 1000, limit: 1 });
      expect(taken).toMatchObject({ attempts: attempt });
    }
    const { logger, logs } = capturingLogger();
    let signingKeyAsked = false;
    const worker = sealRunner({
      storage,
      pdfPool: sharedPdfPool(),
      logger,
      config,
      signingKey: async () => {
        signingKeyAsked = true;
        throw new Error('not reached');
      },
      now: () => new Date(100_000),
    });
    expect(await worker.runOnce('seal')).toBe(true);
    expect(signingKeyAsked).toBe(false);
    expect((await findSealState(storage.db.query, document.id)).job).toMatchObject({
      status: 'failed',
      attempts: 4,
      lastError: 'gave up after 3 attempts, each ended by its worker stopping',
    });
    expect(logs.some((line) => line.msg === "seal failed; `signet jobs retry` runs it again" && line.documentId === document.id)).toBe(true);
    expect(await worker.runOnce('seal')).toBe(false);
  });
});
