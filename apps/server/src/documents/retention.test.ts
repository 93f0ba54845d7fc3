import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { JobRunner } from '../jobs/runner.js';
import { listJobs } from '../jobs/admin.js';
import { jobQueues } from '../jobs/queues.js';
import { startJobs } from '../jobs/start.js';
import { createPdfPool } from '../pdf-worker/index.js';
import { buildPayload, call, capturingLogger, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { expectError } from '../../test/support/envelope.js';
import { until } from '../../test/sealing/test-seal-jobs.js';
import { retentionJob, retentionKey, scheduleRetention } from './retention.js';

/*
 * Retention (docs/lifecycle.md, "Retention"): the `retention` job erases completed documents once their last
 * signature is `RETENTION_DAYS` old, and only those, then enqueues the next hour's run. On both engines, the runner
 * on the test's clock: days pass when the test moves it.
 */

const DAY_MS = 86_400_000;

describe.each(engines)('retention on $name', (engine) => {
  let t: TestApp;
  let pk: string;
  let sk: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    pk = (await t.createKey()).secret;
    sk = (await t.createKey({ kind: 'sk' })).secret;
  });
  afterAll(() => t.close());

  const retentionJobs = () =>
    t.storage.db.query.selectFrom('jobs').select(['key', 'status', 'run_at']).where('kind', '=', 'retention').orderBy('run_at').execute();

  it('erases a completed document once its last signature is RETENTION_DAYS old, and nothing else', { timeout: 60_000 }, async () => {
    const completed = await t.createDocument({ pages: 1 });
    expect((await call(t, 'POST', '/sdk/documents/submit', { key: pk, body: await buildPayload(completed) })).status).toBe(201);
    const pending = await t.createDocument({ pages: 1 });
    const signedAt = Date.now();

    let clock = signedAt + 29 * DAY_MS;
    const runner = new JobRunner({ db: t.storage.db, logger: capturingLogger().logger, now: () => new Date(clock) });
    const kind = retentionJob(30);
    runner.register(kind);

    // 29 days on: nothing is due. The run enqueues the next hour's.
    expect(await scheduleRetention(t.storage.db, kind, new Date(clock))).toBe(true);
    expect(await runner.runOnce('retention')).toBe(true);
    // Read from storage: the app's read cache would keep an answer for its two seconds (src/http/read-cache.ts).
    const erasedAt = async (id: string) => (await t.storage.db.query.selectFrom('documents').select('erased_at').where('id', '=', id).executeTakeFirstOrThrow()).erased_at;
    expect(await erasedAt(completed.id)).toBeNull();
    const nextHour = Math.floor(clock / 3_600_000) * 3_600_000 + 3_600_000;
    expect(await retentionJobs()).toEqual([
      { key: retentionKey(new Date(clock)), status: 'done', run_at: expect.anything() },
      { key: retentionKey(new Date(nextHour)), status: 'pending', run_at: expect.anything() },
    ]);
    expect(Number((await retentionJobs())[1]!.run_at)).toBe(nextHour);
    // Not due before its hour.
    expect(await runner.runOnce('retention')).toBe(false);

    // 31 days on: the completed document is erased by `retention`, at the run's time; the pending one stays.
    clock = signedAt + 31 * DAY_MS;
    expect(await runner.runOnce('retention')).toBe(true);
    const erased = await expectError(await call(t, 'GET', `/documents/${completed.id}`, { key: sk }), 404, 'DOCUMENT_NOT_FOUND');
    expect(erased.details).toMatchObject({ reason: 'erased', erasedAt: new Date(clock).toISOString() });
    const again = await expectError(await call(t, 'DELETE', `/documents/${completed.id}`, { key: sk }), 410, 'DOCUMENT_ERASED');
    expect(again.details).toMatchObject({ erasedBy: 'retention', erasedAt: new Date(clock).toISOString() });
    expect(await t.storage.db.query.selectFrom('document_chunks').select('idx').where('document_id', '=', completed.id).execute()).toEqual([]);
    expect(await erasedAt(pending.id)).toBeNull();
    const audit = ((await (await call(t, 'GET', `/documents/${completed.id}/audit`, { key: sk })).json()) as any).data.events;
    expect(audit.at(-1)).toMatchObject({ type: 'document.erased', occurredAt: new Date(clock).toISOString() });
    expect((await retentionJobs()).map((job) => job.status)).toEqual(['done', 'done', 'pending']);
    // What `signet jobs list --kind retention` prints.
    const listed = await listJobs(t.storage.db, jobQueues().filter((queue) => queue.name === 'retention'), { limit: 10 });
    expect(listed.map((job) => [job.kind, job.state])).toEqual([['retention', 'pending'], ['retention', 'done'], ['retention', 'done']]);
  });

  it('runs where RETENTION_DAYS is set: starting the jobs enqueues the hour\'s run, and their runner takes it', async () => {
    const config = loadConfig({ RETENTION_DAYS: '30' });
    const pdfPool = createPdfPool(config.pdfPool);
    const jobs = await startJobs({ config, storage: t.storage, pdfPool, secret: 'unused', logger: capturingLogger().logger, seal: false, webhooks: false });
    try {
      const hour = retentionKey(new Date());
      const ran = async () => ((await retentionJobs()).some((run) => run.key === hour && run.status === 'done') ? true : undefined);
      await until(ran, `the run of ${hour} done`, { timeoutMs: 10_000, seen: retentionJobs });
    } finally {
      await jobs.stop();
      await pdfPool.close();
    }
  });

  it('is enqueued once an hour however many instances start in it', async () => {
    const kind = retentionJob(7);
    const at = new Date('2031-03-04T05:06:07Z');
    expect(await scheduleRetention(t.storage.db, kind, at)).toBe(true);
    expect(await scheduleRetention(t.storage.db, kind, new Date('2031-03-04T05:59:59Z'))).toBe(false);
    expect(await scheduleRetention(t.storage.db, kind, new Date('2031-03-04T06:00:00Z'))).toBe(true);
    expect(retentionKey(at)).toBe('2031-03-04T05');
  });
});

describe('RETENTION_DAYS', () => {
  it('is a whole number of days from 1, or unset (documents kept)', () => {
    expect(loadConfig({}).retentionDays).toBeUndefined();
    expect(loadConfig({ RETENTION_DAYS: '30' }).retentionDays).toBe(30);
    for (const bad of ['0', '-1', '1.5', 'a month', '36501']) expect(() => loadConfig({ RETENTION_DAYS: bad })).toThrow(/RETENTION_DAYS/);
  });
});
