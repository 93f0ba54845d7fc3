import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SubmissionRecordSchema, successEnvelope } from '@signet/contract';
import { createApiKeyRecord } from '../../src/documents/seed.js';
import { generateSamplePdf, sampleFields } from '../../src/pdf/sample.js';
import { openStorage } from '../../src/storage/index.js';
import { engines, buildPayload } from '../support/harness.js';
import { freshStore, type DurableStore } from './durable-store.js';
import { pendingDocument, type SamplePdf } from './fuzz-targets.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { submitRound, type ClientSubmission, type RoundResult } from './submission-client.js';
import { ensureOrganization } from '../../src/storage/queries/organizations.js';

/*
 * kill -9 in the middle of a stream of submissions, on both engines: the real server (`signet serve`, a child
 * process) on a fresh store takes concurrent submissions over loopback HTTP and is sent SIGKILL as the n-th
 * acknowledgement arrives; restarted on the same store, it is killed once more, then restarted for good. Every
 * submission the client saw acknowledged must be there with its submission id and checksum, no document may hold
 * two submissions, and a document is completed exactly when it has one.
 */
const DOCUMENTS = Number(process.env.SIGNET_DURABILITY_DOCUMENTS ?? 300);
const CONCURRENCY = 16;
const SECRET = randomBytes(32).toString('hex');

const SubmissionEnvelope = successEnvelope(SubmissionRecordSchema);

/** An organization, a pk key to submit with, an sk key to read back, and `DOCUMENTS` pending documents. */
async function seed(store: DurableStore) {
  const storage = await openStorage(store.databaseUrl);
  try {
    const org = await ensureOrganization(storage.db.query, 'durability', 'Durability');
    const pk = await createApiKeyRecord(storage, { organizationId: org.id, kind: 'pk', rateLimit: 1_000_000_000 });
    const sk = await createApiKeyRecord(storage, { organizationId: org.id, kind: 'sk', rateLimit: 1_000_000_000 });
    const pdfs: SamplePdf[] = [];
    for (const pages of [1, 2, 3]) pdfs.push({ bytes: await generateSamplePdf({ pages }), fields: sampleFields(pages), pages });
    const submissions: ClientSubmission[] = [];
    for (let i = 0; i < DOCUMENTS; i++) {
      const document = await pendingDocument(storage, pdfs[i % pdfs.length]!, org.id);
      submissions.push({
        documentId: document.id,
        payload: (await buildPayload(document)) as ClientSubmission['payload'],
        // Half of the clients send an Idempotency-Key, so both ways of retrying are crossed with the crash.
        idempotencyKey: i % 2 === 0 ? `durability-${i}` : undefined,
        contradicted: [],
        unanswered: 0,
      });
    }
    return { pk: pk.key, sk: sk.key, submissions };
  } finally {
    await storage.close();
  }
}

// No PDF is uploaded here: one PDF worker keeps each start quick.
const start = (store: DurableStore) => startServerProcess({ DATABASE_URL: store.databaseUrl, SIGNET_SECRET: SECRET, PDF_WORKERS: '1' });

/** `check` for every item, `CONCURRENCY` at a time. */
async function forEachConcurrently<T>(items: T[], check: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await check(item);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The stored submission of a document, read through the API with an sk key. */
async function storedSubmission(server: ServerProcess, sk: string, documentId: string) {
  const response = await fetch(`${server.url}/documents/${documentId}/submission`, { headers: { 'X-API-Key': sk } });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe.each(engines)('kill -9 durability on $name', ({ name }) => {
  it(`no acknowledged submission is lost across two SIGKILLs mid-stream (${DOCUMENTS} documents, ${CONCURRENCY} clients)`, async () => {
    const store = await freshStore(name);
    const servers: ServerProcess[] = [];
    try {
      const { pk, sk, submissions } = await seed(store);
      const pending = () => submissions.filter((submission) => submission.acknowledged === undefined);
      const third = Math.floor(DOCUMENTS / 3);
      const rounds: RoundResult[] = [];

      servers.push(await start(store));
      rounds.push(await submitRound(servers.at(-1)!, pk, pending(), { concurrency: CONCURRENCY, killAfter: third }));
      servers.push(await start(store));
      rounds.push(await submitRound(servers.at(-1)!, pk, pending(), { concurrency: CONCURRENCY, killAfter: third }));
      const server = await start(store);
      servers.push(server);
      rounds.push(await submitRound(server, pk, pending(), { concurrency: CONCURRENCY }));

      // The kills must have cut requests off, or nothing was tested.
      expect(rounds[0]!.unanswered + rounds[1]!.unanswered).toBeGreaterThan(0);

      // Every client sends its submission once more: an acknowledged one must replay its submission id; only one
      // whose Idempotency-Key was claimed by a request a kill cut off may still be held (409 with Retry-After, until
      // the claim goes stale), and then it has no submission.
      await submitRound(server, pk, submissions, { concurrency: CONCURRENCY });
      const acknowledged = submissions.filter((submission) => submission.acknowledged !== undefined);
      await forEachConcurrently(acknowledged, async (submission) => {
        const stored = await storedSubmission(server, sk, submission.documentId);
        expect(stored.status, `${submission.documentId} lost after its acknowledgement`).toBe(200);
        const record = SubmissionEnvelope.parse(stored.body).data;
        expect(record).toMatchObject({ id: submission.acknowledged, documentId: submission.documentId, checksum: submission.payload.checksum });
      });
      const held = submissions.filter((submission) => submission.acknowledged === undefined);
      await forEachConcurrently(held, async (submission) => {
        expect(submission.idempotencyKey, `${submission.documentId} refused without an Idempotency-Key`).toEqual(expect.any(String));
        expect(submission.refused).toMatchObject({ status: 409, code: 'SUBMISSION_FAILED', retryAfter: expect.any(String) });
        expect((await storedSubmission(server, sk, submission.documentId)).status).toBe(404);
      });
      expect(held.length).toBeLessThanOrEqual(2 * CONCURRENCY);
      expect(submissions.flatMap((submission) => submission.contradicted)).toEqual([]);

      expect(await server.stop()).toBe(0);
      const audit = await store.audit();
      expect(audit.duplicated).toEqual([]);
      expect(audit.inconsistent).toEqual([]);
      expect(audit.submissions).toBe(acknowledged.length);

      console.info(
        `durability on ${name}: ${DOCUMENTS} documents; rounds (acknowledged/unanswered/not sent): ` +
          rounds.map((round) => `${round.acknowledged}/${round.unanswered}/${round.notSent}`).join(', ') +
          `; ${acknowledged.length} acknowledged, all found; ${held.length} held by a claim cut off by a kill`,
      );
    } finally {
      for (const server of servers) await server.kill9();
      await store.remove();
    }
  }, 120_000);
});
