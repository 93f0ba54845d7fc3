import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { storageEngines } from '../../test/storage/test-engines.js';
import { capturingLogger } from '../../test/support/harness.js';
import type { Storage } from '../storage/types.js';
import { defineJobKind, enqueueJob, genericQueue, NonRetryable, type GenericJob } from './generic-queue.js';
import { jobStats } from './admin.js';
import { jobQueues } from './queues.js';
import { JobRunner } from './runner.js';
import type { HandlerResult, JobKindOptions } from './types.js';

const engines = await storageEngines();

const greeting = z.object({ to: z.string().min(1), times: z.number().int().positive() });
type Greeting = z.infer<typeof greeting>;

const OPTIONS: JobKindOptions = {
  leaseMs: 10_000,
  pollMs: 5_000,
  concurrency: 2,
  backoff: { kind: 'exponential', baseMs: 1000, maxMs: 60_000, maxAttempts: 3, jitter: 0.1 },
};

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(engines)('the job runner on $name', (engine) => {
  let storage: Storage;
  let runner: JobRunner | undefined;
  let clock: number;
  const runners: JobRunner[] = [];

  beforeEach(async () => {
    storage = await engine.open();
    clock = Date.now() + 1000; // after the enqueues, which take the real time
  });
  afterEach(async () => {
    for (const started of runners.splice(0)) await started.stop();
    runner = undefined;
    await storage.close();
  });

  /** A `greeting` kind whose handler does `run`, registered on a new runner over `storage`. */
  function greetings(run: (job: GenericJob<Greeting>) => Promise<HandlerResult>, options: Partial<JobKindOptions> = {}) {
    const kind = defineJobKind({ name: 'greeting', schema: greeting, options: { ...OPTIONS, ...options }, handler: run });
    const { logger, logs } = capturingLogger();
    const created = new JobRunner({ db: storage.db, logger, now: () => new Date(clock) });
    created.register(kind);
    runners.push(created);
    return { kind, runner: created, logs };
  }

  it('runs a job of a kind a test registers, its payload checked by the schema on enqueue and on the run', async () => {
    const seen: Greeting[] = [];
    const { kind, runner: created } = greetings(async (job) => {
      seen.push(job.payload);
    });
    runner = created;
    const id = await storage.db.transaction((tx) => enqueueJob(tx, kind, { to: 'Ada', times: 2 }));
    expect(id).toMatch(/^job_/);
    await expect(enqueueJob(storage.db, kind, { to: '', times: 0 })).rejects.toThrow();
    expect(await runner.runOnce('greeting')).toBe(true);
    expect(await runner.runOnce('greeting')).toBe(false);
    expect(seen).toEqual([{ to: 'Ada', times: 2 }]);
    expect(await runner.list({ kind: 'greeting', limit: 10 })).toMatchObject([{ kind: 'greeting', id, state: 'done', attempts: 1, lastError: null }]);
    // A key makes the enqueue idempotent.
    expect(await enqueueJob(storage.db, kind, { to: 'Bo', times: 1 }, { key: 'k' })).not.toBeNull();
    expect(await enqueueJob(storage.db, kind, { to: 'Bo', times: 1 }, { key: 'k' })).toBeNull();
  });

  it('marks a job whose stored payload its schema no longer accepts dead, with the reason, without running it', async () => {
    let ran = 0;
    const { kind, runner: created } = greetings(async () => void ran++);
    runner = created;
    const id = (await enqueueJob(storage.db, kind, { to: 'Ada', times: 1 }))!;
    await storage.db.query.updateTable('jobs').set({ payload: '{"to":"","times":0}' }).where('id', '=', id).execute();
    expect(await runner.runOnce('greeting')).toBe(true);
    expect(ran).toBe(0);
    const [job] = await runner.list({ limit: 1 });
    expect(job).toMatchObject({ id, state: 'dead', attempts: 1 });
    expect(job!.lastError).toMatch(/^the job does not match the greeting kind's schema: /);
  });

  it('retries a failed attempt on the backoff, with jitter, and marks the job dead with its reason after the last', async () => {
    const { kind, runner: created, logs } = greetings(async () => {
      throw new Error('the mail server did not answer');
    });
    runner = created;
    const id = (await enqueueJob(storage.db, kind, { to: 'Ada', times: 1 }))!;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await runner.runOnce('greeting')).toBe(true);
      const [job] = await runner.list({ kind: 'greeting', limit: 1 });
      if (attempt < 3) {
        expect(job).toMatchObject({ state: 'pending', attempts: attempt, lastError: 'the mail server did not answer' });
        delays.push(Date.parse(job!.runAt!) - clock);
        expect(await runner.runOnce('greeting')).toBe(false); // not due yet
        clock = Date.parse(job!.runAt!);
      } else {
        expect(job).toMatchObject({ id, state: 'dead', status: 'dead', attempts: 3, lastError: 'the mail server did not answer' });
      }
    }
    expect(delays[0]).toBeGreaterThanOrEqual(900);
    expect(delays[0]).toBeLessThanOrEqual(1100);
    expect(delays[1]).toBeGreaterThanOrEqual(1800);
    expect(delays[1]).toBeLessThanOrEqual(2200);
    expect(logs.some((line) => line.msg === 'job is dead; `signet jobs retry` runs it again' && line.jobId === id)).toBe(true);
    expect(await runner.runOnce('greeting')).toBe(false);
    expect(await runner.list({ state: 'dead', limit: 10 })).toHaveLength(1);
  });

  it('marks a job dead at once when its handler says trying again cannot help', async () => {
    const { kind, runner: created } = greetings(async () => {
      throw new NonRetryable('no such address');
    });
    runner = created;
    await enqueueJob(storage.db, kind, { to: 'Ada', times: 1 });
    expect(await runner.runOnce('greeting')).toBe(true);
    expect(await runner.list({ limit: 10 })).toMatchObject([{ state: 'dead', attempts: 1, lastError: 'no such address' }]);
  });

  it('retries a dead job: due now with a fresh count of attempts, then run', async () => {
    let fail = true;
    const { kind, runner: created } = greetings(async () => {
      if (fail) throw new NonRetryable('refused');
    });
    runner = created;
    const id = (await enqueueJob(storage.db, kind, { to: 'Ada', times: 1 }))!;
    await runner.runOnce('greeting');
    expect(await runner.retry('job_nothere')).toBeNull();
    fail = false;
    expect(await runner.retry(id)).toBe('greeting');
    expect(await runner.list({ limit: 1 })).toMatchObject([{ state: 'pending', attempts: 0, lastError: 'refused' }]);
    expect(await runner.runOnce('greeting')).toBe(true);
    expect(await runner.list({ limit: 1 })).toMatchObject([{ state: 'done', attempts: 1, lastError: null }]);
    expect(await runner.retry(id)).toBeNull(); // done: nothing to retry
  });

  it('records a job once: an attempt whose lease was taken over completes nothing, the new holder completes it', async () => {
    const queue = genericQueue('greeting');
    const kind = defineJobKind({ name: 'greeting', schema: greeting, options: OPTIONS, handler: async () => {} });
    await enqueueJob(storage.db, kind, { to: 'Ada', times: 1 });
    const [first] = await queue.claim(storage.db, { owner: 'w1', now: new Date(clock), leaseMs: 1000, limit: 5 });
    expect(first).toMatchObject({ attempts: 1, payload: { to: 'Ada', times: 1 } });
    expect(await queue.claim(storage.db, { owner: 'w2', now: new Date(clock + 500), leaseMs: 1000, limit: 5 })).toEqual([]);
    const [second] = await queue.claim(storage.db, { owner: 'w2', now: new Date(clock + 1500), leaseMs: 1000, limit: 5 });
    expect(second).toMatchObject({ id: first!.id, attempts: 2 });
    const done = { state: 'done' as const, at: new Date(clock + 1600) };
    expect(await queue.renew(storage.db, 'w1', [first!.id], new Date(clock + 9000))).toBe(0);
    expect(await queue.settle(storage.db, 'w1', first!, done)).toBe(false);
    expect(await queue.settle(storage.db, 'w2', second!, done)).toBe(true);
    expect(await queue.settle(storage.db, 'w2', second!, done)).toBe(false);

    // Through the runner: a handler whose lease is taken over while it runs records nothing, nor its effects.
    let effects = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { runner: created, logs } = greetings(async () => {
      await gate;
      return { effects: async () => void effects++ };
    }, { leaseMs: 1000 });
    runner = created;
    const id = (await enqueueJob(storage.db, kind, { to: 'Bo', times: 1 }))!;
    const running = runner.runOnce('greeting');
    await until(async () => ((await runner!.list({ state: 'running', limit: 1 })).length ? true : undefined));
    const [taken] = await queue.claim(storage.db, { owner: 'other', now: new Date(clock + 5000), leaseMs: 60_000, limit: 1 });
    expect(taken!.id).toBe(id);
    release();
    await running;
    expect(effects).toBe(0);
    expect(await runner.list({ limit: 10 })).toContainEqual(expect.objectContaining({ id, state: 'running', leaseOwner: 'other' }));
    expect(logs.some((line) => line.msg === 'job ended after its lease was taken over; its end is not recorded')).toBe(true);
  });

  it('renews the lease of a job that outlasts it, so no other runner takes it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = defineJobKind({ name: 'slow', schema: greeting, options: { ...OPTIONS, leaseMs: 300, renewLeases: true }, handler: () => gate });
    // The runner's clock is the test's: time passes when the test moves it, however slow the machine is.
    const live = new JobRunner({ db: storage.db, logger: capturingLogger().logger, now: () => new Date(clock) });
    live.register(slow);
    runners.push(live);
    await enqueueJob(storage.db, slow, { to: 'Ada', times: 1 });
    live.start();
    await until(async () => ((await live.list({ state: 'running', limit: 1 })).length ? true : undefined));
    const leaseUntil = async () => Number((await storage.db.query.selectFrom('jobs').select('lease_until').executeTakeFirstOrThrow()).lease_until);
    expect(await leaseUntil()).toBe(clock + 300);
    // Time passes in steps shorter than the lease, each renewal seen before the next step, until the job has run
    // for ten leases: without the renewals, any runner could have taken it.
    for (let step = 0; step < 15; step++) {
      clock += 200;
      await until(async () => ((await leaseUntil()) === clock + 300 ? true : undefined));
    }
    expect(await genericQueue('slow').claim(storage.db, { owner: 'other', now: new Date(clock + 299), leaseMs: 1000, limit: 1 })).toEqual([]);
    release();
    await until(async () => ((await live.list({ state: 'done', limit: 1 })).length ? true : undefined));
    expect(await live.list({ limit: 1 })).toMatchObject([{ attempts: 1 }]);
  });

  it('stops within its grace: a job that ends in time is recorded, one still running is given back, due now', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const done: string[] = [];
    const { kind, runner: created } = greetings(async (job) => {
      if (job.payload.to === 'slow') await gate;
      done.push(job.payload.to);
    }, { concurrency: 2 });
    runner = created;
    clock = Date.now();
    const fast = (await enqueueJob(storage.db, kind, { to: 'fast', times: 1 }))!;
    const slow = (await enqueueJob(storage.db, kind, { to: 'slow', times: 1 }))!;
    const live = new JobRunner({ db: storage.db, logger: capturingLogger().logger });
    live.register(kind);
    live.start();
    await until(async () => ((await live.list({ state: 'running', limit: 5 })).some((job) => job.id === slow) && done.includes('fast') ? true : undefined));
    const started = Date.now();
    expect(await live.stop({ graceMs: 300 })).toEqual({ released: 1 });
    // Its grace, not the job's lease (10 s): the bound is far from both, for a loaded machine.
    expect(Date.now() - started).toBeLessThan(OPTIONS.leaseMs);
    const jobs = await live.list({ limit: 5 });
    expect(jobs.find((job) => job.id === fast)).toMatchObject({ state: 'done' });
    const given = jobs.find((job) => job.id === slow)!;
    expect(given).toMatchObject({ state: 'pending', leaseOwner: null, attempts: 1 });
    expect(Date.parse(given.runAt!)).toBeLessThanOrEqual(Date.now());
    // Another runner takes it at once, not when the lease (10 s) would have run out.
    const [taken] = await genericQueue('greeting').claim(storage.db, { owner: 'other', now: new Date(), leaseMs: 60_000, limit: 1 });
    expect(taken!.id).toBe(slow);
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await live.list({ limit: 5 })).find((job) => job.id === slow)).toMatchObject({ state: 'running', leaseOwner: 'other' });
    expect(await created.stop({ graceMs: 100 })).toEqual({ released: 0 });
  });

  it('counts the jobs of every kind by state, with the age of the oldest due one (jobStats)', async () => {
    const { kind, runner: created } = greetings(async (job) => {
      if (job.payload.times > 1) throw new NonRetryable('no');
    });
    const now = Date.now();
    await enqueueJob(storage.db, kind, { to: 'Ada', times: 1 }, { runAt: new Date(now - 5000) });
    await enqueueJob(storage.db, kind, { to: 'Bob', times: 2 }, { runAt: new Date(now - 4000) });
    await enqueueJob(storage.db, kind, { to: 'Cy', times: 1 }, { runAt: new Date(now - 3000) });
    await enqueueJob(storage.db, kind, { to: 'Di', times: 1 }, { runAt: new Date(now + 60_000) });
    clock = now - 4000;
    expect(await created.runOnce('greeting')).toBe(true);
    expect(await created.runOnce('greeting')).toBe(true);
    const stats = await jobStats(storage.db, jobQueues(), new Date(now));
    expect(stats.map((row) => row.kind)).toEqual([
      'seal',
      'webhook',
      'expire',
      'retention',
      'bulk',
      ...['mail', 'invitation', 'reminder', 'expiry-notice', 'completion'],
      'greeting',
    ]);
    expect(stats[0]).toEqual({ kind: 'seal', counts: { pending: 0, running: 0, done: 0, dead: 0 }, oldestDueMs: 0 });
    expect(stats.at(-1)).toEqual({ kind: 'greeting', counts: { pending: 2, running: 0, done: 1, dead: 1 }, oldestDueMs: 3000 });
  });

  it('wakes at once on an enqueue in this process, long before its poll', async () => {
    const ran: number[] = [];
    const { kind, runner: created } = greetings(async () => void ran.push(Date.now()), { pollMs: 60_000 });
    runner = created;
    clock = Date.now();
    const live = new JobRunner({ db: storage.db, logger: capturingLogger().logger });
    live.register(kind);
    runners.push(live);
    live.start();
    await new Promise((resolve) => setTimeout(resolve, 100)); // asleep now, for a minute
    const enqueued = Date.now();
    await enqueueJob(storage.db, kind, { to: 'Ada', times: 1 });
    live.wake('greeting');
    // Without the wake it would run at its next poll, a minute on: half of that tells the two apart on a loaded machine.
    await until(async () => (ran.length ? true : undefined), 30_000);
    expect(ran[0]! - enqueued).toBeLessThan(30_000);
  });
});
