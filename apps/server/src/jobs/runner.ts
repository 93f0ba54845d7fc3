import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../logger.js';
import type { Queryable, SqlDatabase } from '../storage/sql-database.js';
import { listJobs, retryJob } from './admin.js';
import { maxAttempts, retryDelay } from './backoff.js';
import type { ClaimedJob, HandlerResult, JobKind, JobSummary, JobState, Settlement } from './types.js';

/** The pause after a claim while the process is busy, unless the kind sets its own. */
const DEFAULT_BUSY_PAUSE_MS = 50;

export interface JobRunnerOptions {
  db: SqlDatabase;
  logger: Logger;
  now?: () => Date;
  random?: () => number;
}

/** One loop of a kind: the jobs it runs now, and how to wake it. */
interface Loop {
  kind: JobKind<ClaimedJob>;
  lane: string;
  concurrency: number;
  inFlight: Set<Promise<void>>;
  /** The ids of the jobs it runs now, whose leases are this runner's. */
  leased: Set<string>;
  woken: boolean;
  wakeUp?: () => void;
  done?: Promise<void>;
}

/**
 * The one job runner of a process (docs/decisions.md, "One job runner"): for every registered kind it claims due
 * jobs with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL, `BEGIN IMMEDIATE` on SQLite), runs each kind's handler
 * up to its concurrency, renews the leases of long jobs, and records each end under the lease: a job whose lease
 * was taken over is not completed twice. A failed attempt runs again on its kind's backoff; after the last, the job
 * is `dead` with its reason. It wakes at once when this process enqueues (`wake`), sleeps until the next job is
 * due, and polls for other processes' jobs.
 * @example const runner = new JobRunner({ db: storage.db, logger }); runner.register(kind); runner.start();
 */
export class JobRunner {
  /** Who holds a taken job's lease: this runner, uniquely. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  readonly #options: JobRunnerOptions;
  readonly #now: () => Date;
  readonly #random: () => number;
  readonly #kinds = new Map<string, JobKind<ClaimedJob>>();
  #loops: Loop[] = [];
  #running = false;

  constructor(options: JobRunnerOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#random = options.random ?? Math.random;
  }

  /** Adds a kind; a running runner starts its loops at once. */
  register<J extends ClaimedJob, D>(kind: JobKind<J, D>): this {
    if (this.#kinds.has(kind.name)) throw new Error(`job kind ${kind.name} is registered already`);
    const erased = kind as unknown as JobKind<ClaimedJob>;
    this.#kinds.set(kind.name, erased);
    if (this.#running) this.#startLoops(erased);
    return this;
  }

  /** The registered kinds, in the order of registration. */
  get kinds(): JobKind<ClaimedJob>[] {
    return [...this.#kinds.values()];
  }

  /** Starts taking jobs of every kind; `stop` ends it. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    for (const kind of this.#kinds.values()) this.#startLoops(kind);
  }

  /** Looks for due jobs of `kind` (every kind without one) now rather than at the next poll. */
  wake(kind?: string): void {
    for (const loop of this.#loops) {
      if (kind !== undefined && loop.kind.name !== kind) continue;
      loop.woken = true;
      loop.wakeUp?.();
    }
  }

  /**
   * Takes no more jobs and waits for the ones under way; with `graceMs`, that long at most: the jobs still running
   * then are given back (pending and due now, `JobQueue.release`), so that another runner takes them at once, and
   * their ends, if they come, are not recorded (the lease is no longer this runner's). Resolves with how many jobs
   * were given back.
   * @example const { released } = await runner.stop({ graceMs: 10_000 });
   */
  async stop(options: { graceMs?: number } = {}): Promise<{ released: number }> {
    this.#running = false;
    this.wake();
    const loops = this.#loops.splice(0);
    const ended = (async () => {
      await Promise.all(loops.map((loop) => loop.done));
      await Promise.all(loops.flatMap((loop) => [...loop.inFlight]));
    })();
    if (options.graceMs === undefined) {
      await ended;
      return { released: 0 };
    }
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      ended.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), options.graceMs))),
    ]);
    clearTimeout(timer);
    if (!late) return { released: 0 };
    let released = 0;
    for (const loop of loops) {
      const ids = [...loop.leased];
      if (ids.length === 0) continue;
      try {
        released += await loop.kind.queue.release(this.#options.db, this.owner, ids, this.#now());
      } catch (error) {
        // Their leases run out instead, and another runner takes them then.
        this.#options.logger.error({ err: error, kind: loop.kind.name }, 'job runner: could not give back the jobs still running');
      }
    }
    return { released };
  }

  /** Takes one due job of `kind` (in `lane`) and runs it to its end; false when none was due. */
  async runOnce(kind: string, lane = 'default'): Promise<boolean> {
    const found = this.#kind(kind);
    if (found.prepare) await found.prepare(this.#options.db, false);
    const [job] = await this.#claim(found, lane, 1);
    if (!job) return false;
    await this.#attempt(found, lane, job);
    return true;
  }

  /** Jobs of every kind (or of `kind`), newest first. */
  list(options: { kind?: string; state?: JobState; limit: number }): Promise<JobSummary[]> {
    const kinds = options.kind ? [this.#kind(options.kind)] : this.kinds;
    return listJobs(this.#options.db, kinds, options);
  }

  /**
   * Makes the job `id` of whichever kind owns it due now with a fresh count of attempts (dead → pending), and wakes
   * its loops; resolves with its kind, or null when no kind has such a job waiting or dead.
   */
  async retry(id: string): Promise<string | null> {
    const kind = await retryJob(this.#options.db, this.kinds, id, this.#now());
    if (kind) this.wake(kind);
    return kind;
  }

  #kind(name: string): JobKind<ClaimedJob> {
    const kind = this.#kinds.get(name);
    if (!kind) throw new Error(`no job kind ${name}`);
    return kind;
  }

  #startLoops(kind: JobKind<ClaimedJob>): void {
    const lanes = kind.options.lanes ?? [{ name: 'default', concurrency: kind.options.concurrency ?? 1 }];
    for (const lane of lanes) {
      const loop: Loop = { kind, lane: lane.name, concurrency: Math.max(1, lane.concurrency), inFlight: new Set(), leased: new Set(), woken: false };
      this.#loops.push(loop);
      loop.done = this.#run(loop);
    }
  }

  async #run(loop: Loop): Promise<void> {
    const { kind } = loop;
    const { options } = kind;
    while (this.#running) {
      loop.woken = false;
      const busy = options.busy?.() ?? false;
      const batch = busy ? (options.busyBatch ?? 1) : (options.claimBatch ?? 1);
      const room = Math.min(batch, loop.concurrency - loop.inFlight.size);
      let [prepared, claimed] = [0, 0];
      try {
        // Work before the claim first (events fanned out into jobs), which the claim may then take at once.
        if (kind.prepare) prepared = await kind.prepare(this.#options.db, busy);
        if (room > 0) claimed = await this.#start(loop, room);
      } catch (error) {
        // Storage failed (a restart of the database): wait for the next poll and try again.
        this.#options.logger.error({ err: error, kind: kind.name }, 'job runner: could not take jobs');
      }
      if (!this.#running) break;
      // Busy: a pause, so the requests come first. Full: wait for a job to end. Took all it could (or prepared
      // some): there may be more. Otherwise sleep until due or woken.
      if (busy && prepared + claimed > 0) await new Promise((resolve) => setTimeout(resolve, options.busyPauseMs ?? DEFAULT_BUSY_PAUSE_MS));
      else if (loop.inFlight.size >= loop.concurrency) await Promise.race(loop.inFlight);
      else if (claimed < room && prepared === 0) await this.#sleep(loop);
      // The embedded store answers without real I/O: yield, so that the answers of the jobs under way are read.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async #start(loop: Loop, limit: number): Promise<number> {
    const jobs = await this.#claim(loop.kind, loop.lane, limit);
    for (const job of jobs) {
      loop.leased.add(job.id);
      const attempt: Promise<void> = this.#attempt(loop.kind, loop.lane, job).finally(() => {
        loop.leased.delete(job.id);
        loop.inFlight.delete(attempt);
        loop.woken = true;
        loop.wakeUp?.();
      });
      loop.inFlight.add(attempt);
    }
    return jobs.length;
  }

  #claim(kind: JobKind<ClaimedJob>, lane: string, limit: number): Promise<ClaimedJob[]> {
    const { leaseMs } = kind.options;
    return kind.queue.claim(this.#options.db, { owner: this.owner, now: this.#now(), leaseMs, limit, lane });
  }

  /**
   * Until the next pending job is due, at most a poll interval, or until woken. One already due that could not be
   * taken (a webhook delivery behind an earlier one of its document) waits for that job's end, which wakes it.
   */
  async #sleep(loop: Loop): Promise<void> {
    if (loop.woken) return;
    let wait = loop.kind.options.pollMs;
    try {
      const due = await loop.kind.queue.nextDue(this.#options.db);
      const until = due === null ? Infinity : due - this.#now().getTime();
      if (until > 0) wait = Math.min(wait, until);
    } catch {
      // The poll interval, then.
    }
    if (loop.woken || !this.#running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      loop.wakeUp = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
    loop.wakeUp = undefined;
  }

  /** Runs one claimed job to its end and records the end under the lease. */
  async #attempt(kind: JobKind<ClaimedJob>, lane: string, job: ClaimedJob): Promise<void> {
    const log = this.#options.logger.child({ kind: kind.name, jobId: job.id, attempt: job.attempts, ...kind.logFields?.(job) });
    const limit = maxAttempts(kind.options.backoff);
    if (job.attempts > limit) {
      // Taken over after its lease ran out each time: whatever it does stops its runner (killed, out of memory).
      const error = `gave up after ${job.attempts - 1} attempts, each ended by its worker stopping`;
      await this.#settle(kind, job, { state: 'dead', error }, log);
      return;
    }
    const parsed = kind.schema.safeParse(job);
    if (!parsed.success) {
      // Stored before its kind's schema changed, or written by hand: running it again cannot help.
      await this.#settle(kind, job, { state: 'dead', error: `the job does not match the ${kind.name} kind's schema: ${parsed.error.message}` }, log);
      return;
    }
    const renewal = kind.options.renewLeases ? this.#renewEvery(kind, job, log) : undefined;
    let result: HandlerResult;
    try {
      result = await kind.handler(parsed.data, { db: this.#options.db, logger: log, now: this.#now, owner: this.owner, lane });
    } catch (error) {
      const reason = kind.reason ? kind.reason(error) : error instanceof Error ? error.message : String(error);
      const retryable = kind.retryable ? kind.retryable(error) : true;
      result = retryable ? { state: 'retry', error: reason } : { state: 'dead', error: reason };
    } finally {
      if (renewal) clearInterval(renewal);
    }
    await this.#settle(kind, job, result, log);
  }

  /** A job may outlast its lease (a large seal): it is renewed while it runs, and still lost if the runner dies. */
  #renewEvery(kind: JobKind<ClaimedJob>, job: ClaimedJob, log: Logger): NodeJS.Timeout {
    const { leaseMs } = kind.options;
    return setInterval(() => {
      const until = new Date(this.#now().getTime() + leaseMs);
      kind.queue.renew(this.#options.db, this.owner, [job.id], until).catch((error: unknown) => log.warn({ err: error }, 'job runner: could not renew a lease'));
    }, Math.max(50, Math.floor(leaseMs / 3)));
  }

  async #settle(kind: JobKind<ClaimedJob>, job: ClaimedJob, result: HandlerResult, log: Logger): Promise<void> {
    const at = this.#now();
    const outcome = result ?? {};
    let settlement: Settlement;
    let effects: ((tx: Queryable) => Promise<{ wake?: string[] } | void>) | undefined;
    if (outcome.state === 'retry') {
      const delay = retryDelay(kind.options.backoff, job.attempts, { requestedMs: outcome.requestedDelayMs, random: this.#random });
      settlement =
        delay === null
          ? { state: 'dead', at, error: outcome.error, details: outcome.details, retryable: true }
          : { state: 'pending', at, runAt: new Date(at.getTime() + delay), error: outcome.error, details: outcome.details };
    } else if (outcome.state === 'dead') {
      settlement = { state: 'dead', at, error: outcome.error, details: outcome.details, retryable: false };
      effects = outcome.effects;
    } else {
      settlement = { state: 'done', at, details: outcome.details };
      effects = outcome.effects;
    }
    if (settlement.state === 'dead' && kind.onDead) {
      const own = effects;
      const { error } = settlement;
      effects = async (tx) => {
        const first = own ? await own(tx) : undefined;
        const then = await kind.onDead!(tx, job, error, at);
        return { wake: [...(first?.wake ?? []), ...(then?.wake ?? [])] };
      };
    }
    let recorded = false;
    let wake: string[] = [];
    try {
      const work = async (tx: Queryable) => {
        if (!(await kind.queue.settle(tx, this.owner, job, settlement))) return false;
        wake = (effects ? await effects(tx) : undefined)?.wake ?? [];
        return true;
      };
      // Short writes share a disk sync (group commit); effects that store files get a transaction of their own.
      recorded = effects ? await this.#options.db.transaction(work) : await this.#options.db.groupCommit(work);
    } catch (error) {
      // The lease runs out and another attempt takes the job: nothing is lost.
      log.error({ err: error }, 'job runner: could not record how an attempt ended');
      return;
    }
    for (const name of new Set(wake)) this.wake(name);
    if (kind.logSettled) kind.logSettled(job, settlement, recorded, log);
    else if (!recorded) log.warn('job ended after its lease was taken over; its end is not recorded');
    else if (settlement.state === 'pending') log.warn({ reason: settlement.error, retryAt: settlement.runAt.toISOString() }, 'job failed; it will be retried');
    else if (settlement.state === 'dead') log.error({ reason: settlement.error, attempts: job.attempts }, 'job is dead; `signet jobs retry` runs it again');
  }
}
