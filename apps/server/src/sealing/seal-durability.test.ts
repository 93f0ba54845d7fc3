import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshStore } from '../../test/hardening/durable-store.js';
import { openStorage } from '../storage/index.js';
import { createTestPki, startTestTsa } from '../../test/sealing/signing/test-pki.js';
import {
  jobsByStatus,
  pdfsig,
  sealRecord,
  sealedIn,
  seedSubmissions,
  startGatedTsa,
  startSealing,
  submitAll,
  untilSealed,
  type SignetProcess,
} from '../../test/sealing/test-seal-jobs.js';
import { findSealState } from '../storage/queries/seals.js';

/*
 * kill -9 with seal jobs pending and a seal in flight, on both engines (PostgreSQL fails rather than skips when it is
 * down: `freshStore` cannot create its schema). The real server (`signet serve`, a child process) seals through a
 * timestamp authority that answers the first request and holds the second: that seal is in flight, the jobs
 * behind it pending, when the server gets SIGKILL. Restarted on the same store, the server takes the in-flight job
 * over once its lease runs out and seals the rest. Every document then has exactly one seal: its job `sealed`, one
 * stored file whose SHA-256 is the recorded one, one `document.sealed` event, a signature pdfsig calls valid, and
 * the restarted server's log names each document it sealed once.
 */
const DOCUMENTS = 6;
const SECRET = randomBytes(32).toString('hex');

// The engines side by side: most of each run is waiting for a process to start or a lease to run out.
describe.concurrent('seal jobs across kill -9', () => {
  const title = `on %s, each of ${DOCUMENTS} completed documents is sealed exactly once after a kill with a seal in flight`;
  it.each(['sqlite', 'postgres'] as const)(title, async (engine) => {
    const [store, pki, tsa] = await Promise.all([freshStore(engine), createTestPki(), startTestTsa()]);
    const gate = await startGatedTsa(tsa.url, 1);
    const storage = await openStorage(store.databaseUrl);
    const servers: SignetProcess[] = [];
    try {
      const { pk, submissions } = await seedSubmissions(store.databaseUrl, DOCUMENTS);
      const env = {
        DATABASE_URL: store.databaseUrl,
        SIGNET_SECRET: SECRET,
        PDF_WORKERS: '1',
        // The seal's time limit is not under test here: a loaded CI machine must not turn a slow seal into a retry.
        PDF_TASK_TIMEOUT_MS: '30000',
        SIGNET_SIGNING_P12: pki.signer.path,
        SIGNET_SIGNING_P12_PASSWORD: pki.signer.password,
        SIGNET_TSA_URL: gate.url,
        // Nor the timestamp authority's: `openssl ts -reply` on a loaded machine may take longer than the default.
        SIGNET_TSA_TIMEOUT_MS: '20000',
        // Short, so that the restarted server takes the killed one's job over soon; one seal loop per process, so
        // no seal of its own outlives its lease while another loop waits.
        SEAL_LEASE_MS: '1500',
        SEAL_POLL_MS: '100',
      };

      const first = await startSealing('serve', env);
      servers.push(first);
      expect(await submitAll(first.address, pk, submissions)).toBe(DOCUMENTS);
      await gate.holding();
      const before = await jobsByStatus(storage);
      expect(before.running).toHaveLength(1);
      const [inFlight] = before.running!;
      expect(inFlight!.leaseOwner).toMatch(new RegExp(`:${first.pid}:`));
      // Usually the first document is sealed and the second in flight; on a loaded machine the test authority may
      // fail the first request, and the in-flight seal is then the first document's retry. Either way each job is
      // sealed, pending or in flight, and what the killed server did not seal the restarted one seals.
      const sealedBefore = new Set((before.sealed ?? []).map((job) => job.documentId));
      const warnings = first.logs().filter((line) => Number(line.level) >= 40);
      expect(sealedBefore.size + (before.pending?.length ?? 0) + 1, JSON.stringify(warnings)).toBe(DOCUMENTS);
      expect(sealedBefore.size, JSON.stringify(warnings)).toBeLessThanOrEqual(1);
      await first.kill9();
      gate.open();

      const second = await startSealing('serve', env);
      servers.push(second);
      await untilSealed(storage, DOCUMENTS, 60_000);
      expect(await second.stop()).toBe(0);

      for (const { documentId, acknowledged } of submissions) {
        const record = await sealRecord(storage, documentId);
        expect(record.job, documentId).toMatchObject({ status: 'sealed', leaseOwner: null, lastError: null });
        expect(record.sealed?.submissionId, documentId).toBe(acknowledged);
        expect(record.sha256Matches, documentId).toBe(true);
        expect(record.sealedEvents, documentId).toBe(1);
        const report = await pdfsig(record.content!);
        expect(report, documentId).toContain('Signature Validation: Signature is Valid.');
        expect(report, documentId).toContain('Total document signed');
      }
      // The in-flight seal was started once more (the kill cut its attempt off) and stored once; plus once for each
      // attempt the restarted server logged as failed and retried (a loaded machine's test authority may not answer).
      const retried = second.logs().filter((line) => line.documentId === inFlight!.documentId && /will be retried/.test(String(line.msg)));
      expect((await findSealState(storage.db.query, inFlight!.documentId)).job?.attempts, JSON.stringify(retried)).toBe(inFlight!.attempts + 1 + retried.length);
      const left = submissions.map((submission) => submission.documentId).filter((id) => !sealedBefore.has(id));
      expect(sealedIn(second.logs()).sort()).toEqual(left.sort());
      expect(second.logs().filter((line) => /seal discarded|seal failed/.test(String(line.msg)))).toEqual([]);
    } finally {
      for (const server of servers) await server.kill9();
      await storage.close();
      await gate.close();
      await tsa.close();
      await store.remove();
    }
  }, 120_000);
});
