import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import { storageEngines } from '../../test/storage/test-engines.js';
import { CHUNK_SIZE } from './schema.js';
import {
  IMPLICIT_SIGNER,
  type DocumentRecord,
  type Organization,
  type SealJobSizeLimit,
  type SealedDocument,
  type Storage,
  type StoredSubmission,
} from './types.js';
import { storeDocument } from '../documents/create-document.js';
import { recordDocumentOpened } from '../documents/opening.js';
import { listAuditEvents } from './queries/audit.js';
import { ensureOrganization } from './queries/organizations.js';
import { findStoredSecret, putStoredSecretIfAbsent } from './queries/stored-secrets.js';
import { recordSubmission } from '../submissions/record-submission.js';
import { completeSeal } from '../sealing/seal-kind.js';
import { sealQueue, type ClaimedSeal } from '../sealing/seal-queue.js';
import { findSealState, findSealedBySha256, listSealJobs, readSealedContent, retrySealJob } from './queries/seals.js';

const engines = await storageEngines();

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs);
const iso = (offsetMs: number) => at(offsetMs).toISOString();
const LEASE = { leaseMs: 60_000 };
/** Bytes as the engines return them (a Buffer, which is a Uint8Array), for comparison. */
const bytes = (value: Uint8Array | null) => (value ? Buffer.from(value) : value);

async function completedDocument(storage: Storage, organization: Organization, offsetMs = 0, pageCount = 1) {
  const document = await storeDocument(storage,
    {
      id: newId('doc'),
      organizationId: organization.id,
      filename: 'a.pdf',
      mimeType: 'application/pdf',
      pageCount,
      fileSize: 4,
      sha256: '0'.repeat(64),
      createdAt: iso(offsetMs),
      fields: [],
    },
    new Uint8Array([1, 2, 3, 4]),
  );
  const submissionId = newId('sub');
  const submission: StoredSubmission = {
    id: submissionId,
    documentId: document.id,
    signerId: IMPLICIT_SIGNER.id,
    organizationId: organization.id,
    keyId: newId('key'),
    checksum: 'c'.repeat(64),
    payload: '{}',
    result: { success: true, submissionId, documentId: document.id, timestamp: iso(offsetMs + 1000), message: 'ok' },
    clientIp: '203.0.113.9',
    userAgent: 'Test/1.0',
    receivedAt: iso(offsetMs + 1000),
  };
  await recordSubmission(storage, submission);
  return { document, submission };
}

const sealedRecord = (document: DocumentRecord, submission: StoredSubmission, content: Uint8Array, offsetMs: number) => ({
  documentId: document.id,
  submissionId: submission.id,
  sha256: randomBytes(32).toString('hex'),
  fileSize: content.length,
  sealedAt: iso(offsetMs),
});

/**
 * The seal kind's queue and completion as the seal jobs' storage calls: a claim of one job (of a lane of `size`),
 * a lease renewal, the completion with its sealed file, and a failed attempt.
 */
function sealJobs(storage: Storage) {
  const queue = sealQueue();
  const job = (documentId: string) => ({ id: documentId }) as ClaimedSeal;
  return {
    async claimSealJob(owner: string, options: { now: Date; leaseMs: number; size?: SealJobSizeLimit }) {
      const lanes = options.size ? sealQueue({ lanes: { lane: options.size } }) : queue;
      const [claimed] = await lanes.claim(storage.db, { owner, now: options.now, leaseMs: options.leaseMs, limit: 1, lane: options.size ? 'lane' : undefined });
      return claimed ?? null;
    },
    async renewSealLease(owner: string, documentId: string, until: Date) {
      return (await queue.renew(storage.db, owner, [documentId], until)) === 1;
    },
    completeSealJob(owner: string, sealed: SealedDocument, content: Uint8Array) {
      return storage.db.transaction(async (tx) => {
        if (!(await queue.settle(tx, owner, job(sealed.documentId), { state: 'done', at: new Date() }))) return false;
        await completeSeal(tx, sealed, content, `/documents/${sealed.documentId}/signed.pdf`);
        return true;
      });
    },
    failSealJob(owner: string, documentId: string, { error, retryAt, now }: { error: string; retryAt: Date | null; now: Date }) {
      const settlement = retryAt ? { state: 'pending' as const, at: now, runAt: retryAt, error } : { state: 'dead' as const, at: now, error };
      return storage.db.transaction((tx) => queue.settle(tx, owner, job(documentId), settlement));
    },
    async nextSealJobDue() {
      const due = await queue.nextDue(storage.db);
      return due === null ? null : new Date(due).toISOString();
    },
  };
}

describe.each(engines)('sealing storage on $name', (engine) => {
  let storage: Storage;
  let org: Organization;
  let jobs: ReturnType<typeof sealJobs>;

  beforeEach(async () => {
    storage = await engine.open();
    org = await ensureOrganization(storage.db.query, 'acme', 'Acme');
    jobs = sealJobs(storage);
  });
  afterEach(() => storage.close());

  it('enqueues a seal job and records created and submitted with the submission, in its transaction', async () => {
    const { document, submission } = await completedDocument(storage, org);
    const { job, sealed } = await findSealState(storage.db.query, document.id);
    expect(sealed).toBeNull();
    expect(job).toMatchObject({ documentId: document.id, submissionId: submission.id, status: 'pending', attempts: 0 });
    expect(await listAuditEvents(storage.db.query, document.id)).toEqual([
      { type: 'document.created', occurredAt: iso(0), ip: null, userAgent: null },
      { type: 'document.submitted', occurredAt: iso(1000), ip: '203.0.113.9', userAgent: 'Test/1.0' },
    ]);
    // A second submission of the same document changes nothing: one job, one submitted event.
    const again = await recordSubmission(storage, { ...submission, id: newId('sub') });
    expect(again.created).toBe(false);
    expect(await listSealJobs(storage.db.query, { limit: 10 })).toHaveLength(1);
  });

  it('keeps only the first opening, in time order with the other events', async () => {
    const { document } = await completedDocument(storage, org);
    await recordDocumentOpened(storage, document.id, { occurredAt: iso(500), ip: '198.51.100.1', userAgent: 'First' });
    await recordDocumentOpened(storage, document.id, { occurredAt: iso(600), ip: '198.51.100.2', userAgent: 'Second' });
    expect((await listAuditEvents(storage.db.query, document.id)).map((event) => [event.type, event.userAgent])).toEqual([
      ['document.created', null],
      ['document.opened', 'First'],
      ['document.submitted', 'Test/1.0'],
    ]);
  });

  it('leases a due job to one owner, stores the seal once, and refuses a completion without the lease', async () => {
    const { document, submission } = await completedDocument(storage, org);
    expect(await jobs.claimSealJob('w1', { now: at(500), ...LEASE })).toBeNull(); // not due before it was enqueued
    const job = await jobs.claimSealJob('w1', { now: at(2000), ...LEASE });
    expect(job).toMatchObject({ status: 'running', attempts: 1, leaseOwner: 'w1', leaseUntil: iso(62_000) });
    expect(await jobs.claimSealJob('w2', { now: at(3000), ...LEASE })).toBeNull();

    const content = new Uint8Array(CHUNK_SIZE + 10).map((_, i) => i % 251);
    const sealed = sealedRecord(document, submission, content, 4000);
    expect(await jobs.completeSealJob('w2', sealed, content)).toBe(false);
    expect(await jobs.completeSealJob('w1', sealed, content)).toBe(true);
    expect(await jobs.completeSealJob('w1', sealed, content)).toBe(false);

    const state = await findSealState(storage.db.query, document.id);
    expect(state.job).toMatchObject({ status: 'sealed', leaseOwner: null, lastError: null });
    expect(state.sealed).toEqual(sealed);
    expect(bytes(await readSealedContent(storage.db.query, document.id, 0, content.length - 1))).toEqual(bytes(content));
    expect(bytes(await readSealedContent(storage.db.query, document.id, CHUNK_SIZE - 2, CHUNK_SIZE + 1))).toEqual(
      bytes(content.subarray(CHUNK_SIZE - 2, CHUNK_SIZE + 2)),
    );
    expect(await findSealedBySha256(storage.db.query, sealed.sha256)).toEqual([sealed]);
    expect((await listAuditEvents(storage.db.query, document.id)).at(-1)).toEqual({ type: 'document.sealed', occurredAt: iso(4000), ip: null, userAgent: null });
    expect(await jobs.claimSealJob('w3', { now: at(999_999), ...LEASE })).toBeNull();
  });

  it('lets another owner take over a job whose lease ran out; the first owner can then neither complete nor fail it', async () => {
    const { document, submission } = await completedDocument(storage, org);
    await jobs.claimSealJob('w1', { now: at(2000), leaseMs: 1000 });
    const taken = await jobs.claimSealJob('w2', { now: at(3001), leaseMs: 1000 });
    expect(taken).toMatchObject({ leaseOwner: 'w2', attempts: 2 });
    expect(await jobs.failSealJob('w1', document.id, { error: 'late', retryAt: null, now: at(3002) })).toBe(false);
    const content = new Uint8Array([9]);
    expect(await jobs.completeSealJob('w1', sealedRecord(document, submission, content, 3003), content)).toBe(false);
    expect(await jobs.completeSealJob('w2', sealedRecord(document, submission, content, 3004), content)).toBe(true);
  });

  it('puts a failed attempt back with its due time, or marks it failed; retry makes it due now with fresh attempts', async () => {
    const { document } = await completedDocument(storage, org);
    await jobs.claimSealJob('w1', { now: at(2000), ...LEASE });
    expect(await jobs.failSealJob('w1', document.id, { error: 'TSA down', retryAt: at(10_000), now: at(2500) })).toBe(true);
    expect((await findSealState(storage.db.query, document.id)).job).toMatchObject({ status: 'pending', lastError: 'TSA down', runAt: iso(10_000) });
    expect(await jobs.nextSealJobDue()).toBe(iso(10_000));
    expect(await jobs.claimSealJob('w1', { now: at(9_999), ...LEASE })).toBeNull();
    await jobs.claimSealJob('w1', { now: at(10_000), ...LEASE });
    expect(await jobs.failSealJob('w1', document.id, { error: 'bad P12 password', retryAt: null, now: at(10_500) })).toBe(true);
    expect((await findSealState(storage.db.query, document.id)).job).toMatchObject({ status: 'failed', attempts: 2, lastError: 'bad P12 password' });
    expect(await listSealJobs(storage.db.query, { status: 'failed', limit: 10 })).toHaveLength(1);
    expect(await jobs.nextSealJobDue()).toBeNull();

    expect(await retrySealJob(storage.db.query, document.id, at(20_000))).toBe(true);
    expect((await findSealState(storage.db.query, document.id)).job).toMatchObject({ status: 'pending', attempts: 0, runAt: iso(20_000) });
    expect(await retrySealJob(storage.db.query, newId('doc'), at(20_000))).toBe(false);
    await jobs.claimSealJob('w1', { now: at(20_000), ...LEASE });
    expect(await retrySealJob(storage.db.query, document.id, at(20_001))).toBe(false); // running: not retried under its worker
  });

  it('takes due jobs fairly: of the organization with the fewest seals running, then the longest due', async () => {
    const other = await ensureOrganization(storage.db.query, 'globex', 'Globex');
    const backlog: string[] = [];
    for (let i = 0; i < 3; i++) backlog.push((await completedDocument(storage, org, i)).document.id);
    const late = (await completedDocument(storage, other, 5000)).document.id;
    const order: string[] = [];
    for (let i = 0; i < 4; i++) order.push((await jobs.claimSealJob(`w${i}`, { now: at(60_000), ...LEASE }))!.documentId);
    // Globex's one job comes second, ahead of Acme's older backlog, once Acme has a seal running.
    expect(order).toEqual([backlog[0], late, backlog[1], backlog[2]]);
  });

  it("puts one document's retries behind another organization's job that fell due before them", async () => {
    const other = await ensureOrganization(storage.db.query, 'globex', 'Globex');
    const retried = (await completedDocument(storage, org, 0)).document.id;
    await jobs.claimSealJob('w1', { now: at(2000), ...LEASE });
    await jobs.failSealJob('w1', retried, { error: 'the seal took longer than its time limit', retryAt: at(7000), now: at(2500) });
    const waiting = (await completedDocument(storage, other, 5000)).document.id;
    expect((await jobs.claimSealJob('w2', { now: at(8000), ...LEASE }))!.documentId).toBe(waiting);
    expect((await jobs.claimSealJob('w3', { now: at(8000), ...LEASE }))!.documentId).toBe(retried);

  });

  it('keeps to documents within a size limit when asked (the lane for documents that are not large)', async () => {
    const large = (await completedDocument(storage, org, 0, 2001)).document.id;
    const small = (await completedDocument(storage, org, 10, 1999)).document.id;
    const size = { perPage: 5, perByte: 1000 / 1024 / 1024, max: 10_000 };
    expect((await jobs.claimSealJob('small-lane', { now: at(60_000), ...LEASE, size }))!.documentId).toBe(small);
    expect(await jobs.claimSealJob('small-lane', { now: at(60_000), ...LEASE, size })).toBeNull();
    // Bytes count too: 4 bytes weigh more than 3 at one a byte.
    expect(await jobs.claimSealJob('bytes', { now: at(60_000), ...LEASE, size: { perPage: 0, perByte: 1, max: 3 } })).toBeNull();
    expect((await jobs.claimSealJob('any', { now: at(60_000), ...LEASE }))!.documentId).toBe(large);
  });

  it('renews the lease of its holder only; a renewed job is not taken over until the new time', async () => {
    const { document } = await completedDocument(storage, org);
    await jobs.claimSealJob('w1', { now: at(2000), leaseMs: 1000 });
    expect(await jobs.renewSealLease('w1', document.id, at(10_000))).toBe(true);
    expect((await findSealState(storage.db.query, document.id)).job).toMatchObject({ leaseOwner: 'w1', leaseUntil: iso(10_000) });
    expect(await jobs.claimSealJob('w2', { now: at(5000), ...LEASE })).toBeNull();
    expect(await jobs.renewSealLease('w2', document.id, at(20_000))).toBe(false);
    expect(await jobs.claimSealJob('w2', { now: at(10_001), ...LEASE })).toMatchObject({ leaseOwner: 'w2', attempts: 2 });
    expect(await jobs.renewSealLease('w1', document.id, at(30_000))).toBe(false);
  });

  it('hands each due job to exactly one of many concurrent claimers', async () => {
    const documents = [];
    for (let i = 0; i < 12; i++) documents.push((await completedDocument(storage, org, i)).document.id);
    const claims = await Promise.all(
      Array.from({ length: 30 }, (_, i) => jobs.claimSealJob(`w${i}`, { now: at(60_000), ...LEASE })),
    );
    const taken = claims.flatMap((job) => (job ? [job.documentId] : []));
    expect(taken.sort()).toEqual([...documents].sort());
  });

  it('keeps the first stored secret when two are put', async () => {
    expect(await findStoredSecret(storage.db.query, 'signing')).toBeNull();
    const first = new Uint8Array([1, 2, 3]);
    expect(bytes(await putStoredSecretIfAbsent(storage.db.query, 'signing', first))).toEqual(bytes(first));
    expect(bytes(await putStoredSecretIfAbsent(storage.db.query, 'signing', new Uint8Array([4])))).toEqual(bytes(first));
    expect(bytes(await findStoredSecret(storage.db.query, 'signing'))).toEqual(bytes(first));
  });
});
