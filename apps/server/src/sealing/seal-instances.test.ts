import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshStore } from '../../test/hardening/durable-store.js';
import { openStorage } from '../storage/index.js';
import {
  pdfsig,
  sealRecord,
  sealedIn,
  seedSubmissions,
  startSealing,
  submitAll,
  untilSealed,
  type SignetProcess,
} from '../../test/sealing/test-seal-jobs.js';

/*
 * Two instances share one PostgreSQL queue (it fails rather than skips when PostgreSQL is down): `signet serve`, which
 * takes a burst of submissions and seals too, and `signet worker` beside it, on the same schema. Neither is told about
 * the other; they meet only in `seal_jobs` (`FOR UPDATE SKIP LOCKED`). Every document must be sealed once: every job
 * `sealed`, one stored file and one `document.sealed` event each, and the two logs together name each document
 * exactly once, each instance some of them. The signing key is the development certificate the first instance
 * generates and keeps (encrypted) in the database; both must sign with it.
 */
const DOCUMENTS = 100;

describe('seal jobs shared by two instances on PostgreSQL', () => {
  it(`seals a burst of ${DOCUMENTS} submissions once each, split between signet serve and signet worker`, async () => {
    const store = await freshStore('postgres');
    const storage = await openStorage(store.databaseUrl);
    const instances: SignetProcess[] = [];
    try {
      const { pk, submissions } = await seedSubmissions(store.databaseUrl, DOCUMENTS);
      const env = {
        DATABASE_URL: store.databaseUrl,
        SIGNET_SECRET: randomBytes(32).toString('hex'),
        PDF_WORKERS: '1',
        // The seal's time limit is not under test here: a loaded CI machine must not turn a slow seal into a retry.
        PDF_TASK_TIMEOUT_MS: '30000',
        SEAL_POLL_MS: '50',
      };
      const [server, worker] = await Promise.all([startSealing('serve', env), startSealing('worker', env)]);
      instances.push(server, worker);

      expect(await submitAll(server.address, pk, submissions, 16)).toBe(DOCUMENTS);
      await untilSealed(storage, DOCUMENTS, 90_000);
      expect(await Promise.all([server.stop(), worker.stop()])).toEqual([0, 0]);

      const ids = submissions.map((submission) => submission.documentId).sort();
      const byServer = sealedIn(server.logs());
      const byWorker = sealedIn(worker.logs());
      expect([...byServer, ...byWorker].sort()).toEqual(ids);
      expect(byServer.length).toBeGreaterThan(0);
      expect(byWorker.length).toBeGreaterThan(0);
      const trouble = (instance: SignetProcess) =>
        instance.logs().filter((line) => /seal (discarded|failed|attempt failed)/.test(String(line.msg)));
      expect([...trouble(server), ...trouble(worker)]).toEqual([]);

      const certificates = new Set<string>();
      for (const [index, id] of ids.entries()) {
        const record = await sealRecord(storage, id);
        expect(record.job, id).toMatchObject({ status: 'sealed', attempts: 1, leaseOwner: null });
        expect(record.sha256Matches, id).toBe(true);
        expect(record.sealedEvents, id).toBe(1);
        // pdfsig on a sample: one of each instance's, and a few more.
        if (index % 25 === 0 || id === byServer[0] || id === byWorker[0]) {
          const report = await pdfsig(record.content!);
          expect(report, id).toContain('Signature Validation: Signature is Valid.');
          expect(report, id).toContain('Total document signed');
          certificates.add(/Signer Certificate Common Name: (.*)/.exec(report)![1]!);
        }
      }
      expect([...certificates]).toEqual(['Signet development seal']);
      console.info(`two instances on PostgreSQL: signet serve sealed ${byServer.length}, signet worker ${byWorker.length}`);
    } finally {
      for (const instance of instances) await instance.kill9();
      await storage.close();
      await store.remove();
    }
  }, 150_000);
});
